import { Honeypot, type HoneypotInputProps } from "remix-utils/honeypot/server";
import { env } from "./env.server";

const NAME_FIELD = "name__confirm";
const VALID_FROM_FIELD = "from__confirm";

export const honeypot = new Honeypot({
  encryptionSeed: env.sessionSecret,
  nameFieldName: NAME_FIELD,
  validFromFieldName: VALID_FROM_FIELD,
});

/** How long one encrypted valid-from value is handed to every page before a new one is made. */
export const HONEYPOT_INTERVAL_MS = 60_000;
let current: { props: HoneypotInputProps; madeAt: number } | null = null;

/**
 * The honeypot fields' props for a page. Encrypting the valid-from time costs an AES round per page,
 * so one value is made per interval and shared: the check refuses only a time in the future, and a
 * time up to one interval old still passes.
 */
export function honeypotInputProps(at = Date.now()): HoneypotInputProps {
  if (!current || at - current.madeAt >= HONEYPOT_INTERVAL_MS || at < current.madeAt) {
    current = { props: honeypot.getInputProps({ validFromTimestamp: at }), madeAt: at };
  }
  return current.props;
}

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
