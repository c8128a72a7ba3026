import { Honeypot } from "remix-utils/honeypot/server";
import { env } from "./env.server";

const NAME_FIELD = "name__confirm";
const VALID_FROM_FIELD = "from__confirm";

/** Public forms carry a field people never see; bots fill it, or post faster than a person could. */
export const honeypot = new Honeypot({ encryptionSeed: env.sessionSecret, nameFieldName: NAME_FIELD, validFromFieldName: VALID_FROM_FIELD });

/**
 * Whether a public form is spam. remix-utils skips its check when both fields are missing, so a
 * bot that posts the form without them would pass: here a form without them is spam too.
 */
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
