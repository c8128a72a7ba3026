import { Honeypot } from "remix-utils/honeypot/server";
import { env } from "./env.server";

const NAME_FIELD = "name__confirm";
const VALID_FROM_FIELD = "from__confirm";

export const honeypot = new Honeypot({ encryptionSeed: env.sessionSecret, nameFieldName: NAME_FIELD, validFromFieldName: VALID_FROM_FIELD });

// remix-utils skips its check when both fields are missing, so a bot posting without them would pass.
export function isSpam(formData: FormData): boolean {
  if (!formData.has(NAME_FIELD) || !formData.has(VALID_FROM_FIELD)) return true;
  try {
    honeypot.check(formData);
    return false;
  } catch {
    // A SpamError, or a forged valid-from value that the cipher cannot even decrypt.
    return true;
  }
}
