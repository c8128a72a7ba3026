import { isSpam } from "~/platform/honeypot.server";
import { authRateLimit, takeAttempt } from "~/platform/rate-limit.server";

/**
 * The checks every public account form passes first: the honeypot, then the rate limit.
 * Returns the translation key of the refusal, or null when the form may be processed.
 */
export async function refusePublicForm(
  formData: FormData,
  rateKey: string,
  limitMessage = "auth:rateLimited",
): Promise<string | null> {
  if (isSpam(formData)) return "auth:spam";
  if (!(await takeAttempt(rateKey, authRateLimit))) return limitMessage;
  return null;
}
