import { Honeypot } from "remix-utils/honeypot/server";
import { env } from "./env.server";

/** Public forms carry a field people never see; bots fill it, or post faster than a person could. */
export const honeypot = new Honeypot({ encryptionSeed: env.sessionSecret });

export function isSpam(formData: FormData): boolean {
  try {
    honeypot.check(formData);
    return false;
  } catch {
    // A SpamError, or a forged valid-from value that the cipher cannot even decrypt.
    return true;
  }
}
