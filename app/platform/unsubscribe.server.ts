import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "./env.server";

/** The kinds of news a person may also receive by email; each is a `users.email_<kind>` column. */
export const EMAIL_KINDS = ["messages", "bookings", "reviews", "marketing"] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

export const isEmailKind = (value: unknown): value is EmailKind =>
  typeof value === "string" && (EMAIL_KINDS as readonly string[]).includes(value);

export const emailColumnOf = (kind: EmailKind) => `email_${kind}` as const;

// A separate key from the cookies' own, derived from the same secret.
const signature = (userId: string, kind: EmailKind) =>
  createHmac("sha256", env.sessionSecret).update(`unsubscribe\0${userId}\0${kind}`).digest("base64url");

/** A token that sets one preference of one person, without signing in: `<userId>.<kind>.<signature>`. */
export function unsubscribeToken(userId: string, kind: EmailKind): string {
  return `${userId}.${kind}.${signature(userId, kind)}`;
}

/** The person and kind a token was made for, or null when it is malformed or not signed by us. */
export function readUnsubscribeToken(token: unknown): { userId: string; kind: EmailKind } | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const [userId, kind, given, ...rest] = token.split(".");
  if (!userId || !given || rest.length > 0 || !isEmailKind(kind)) return null;
  const expected = Buffer.from(signature(userId, kind));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  return { userId, kind };
}

export function unsubscribeUrl(userId: string, kind: EmailKind): string {
  return `${env.APP_URL}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(userId, kind))}`;
}
