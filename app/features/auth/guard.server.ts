import { isSpam } from "~/platform/honeypot.server";
import { authRateLimit, takeAttempt } from "~/platform/rate-limit.server";

export async function refusePublicForm(
  formData: FormData,
  rateKey: string,
  limitMessage = "auth:rateLimited",
): Promise<string | null> {
  if (isSpam(formData)) return "auth:spam";
  if (!(await takeAttempt(rateKey, authRateLimit))) return limitMessage;
  return null;
}
