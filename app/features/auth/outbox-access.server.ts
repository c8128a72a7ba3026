import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { cookiesAreSecure, getUser } from "~/platform/session.server";
import { knownAccountsOf } from "./known-devices.server";

/**
 * At /dev/outbox (no email leaves the server) a browser reads the emails of the account it is
 * signed in to, and of accounts it signed in to before with their current password (the known
 * browsers of known-devices.server.ts: a password, a confirmation or a reset link proved it
 * there). Accounts are matched by id, and only emails written since the account was made show, so
 * an address given up and taken again by someone else shows nothing of theirs. Typing an address
 * proves nothing (anyone can ask for a stranger's reset link), and neither does signing up: the
 * browser that signed up with an address sees the same waiting entry whether that made an account
 * or found the address taken, until it signs in with the address and the account's password.
 */

const REMEMBERED_MAX = 5;

const outboxCookie = createCookie("outbox", {
  httpOnly: true,
  sameSite: "lax",
  secure: cookiesAreSecure,
  path: "/",
  maxAge: 30 * 24 * 60 * 60,
});

const key = Buffer.from(hkdfSync("sha256", env.sessionSecret, "", "outbox addresses", 32));

/** An address this browser signed up with, whatever came of it. */
type Remembered = { a: string };

function seal(entries: Remembered[]): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(entries), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

function unseal(value: unknown): Remembered[] {
  if (typeof value !== "string" || value.length > 4096) return [];
  try {
    const raw = Buffer.from(value, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const parsed: unknown = JSON.parse(
      Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"),
    );
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((entry): entry is Remembered => typeof entry?.a === "string");
  } catch {
    return [];
  }
}

async function rememberedOf(request: Request): Promise<Remembered[]> {
  return unseal(await outboxCookie.parse(request.headers.get("Cookie")));
}

/** After a sign-up, whether or not it made an account (the cookie is the same either way); null where there is no outbox. */
export async function rememberAddress(request: Request, address: string): Promise<string | null> {
  if (!env.devToolsEnabled) return null;
  const earlier = await rememberedOf(request);
  const entries = [{ a: address }, ...earlier.filter((other) => other.a !== address)].slice(0, REMEMBERED_MAX);
  return outboxCookie.serialize(seal(entries));
}

export interface OutboxEmail {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: string;
}

/**
 * The emails this browser may read, newest first, and the addresses it signed up with whose
 * account it has not signed in to (shown as waiting, the same whether an account was made).
 */
export async function readableOutbox(
  request: Request,
  limit = 100,
): Promise<{ emails: OutboxEmail[]; waiting: string[] }> {
  const user = await getUser(request);
  const accounts = new Map((await knownAccountsOf(request)).map((account) => [account.id, account]));
  if (user && !user.deleted_at) accounts.set(user.id, { id: user.id, email: user.email, created_at: user.created_at });
  const readable = [...accounts.values()];
  const emails = readable.length
    ? await db
        .selectFrom("email_outbox")
        .select(["id", "to_address", "subject", "text_body", "created_at"])
        .where((eb) =>
          eb.or(
            readable.map((account) =>
              eb.and([eb("to_address", "=", account.email), eb("created_at", ">=", account.created_at)]),
            ),
          ),
        )
        .orderBy("id", "desc")
        .limit(limit)
        .execute()
    : [];
  const readableAddresses = new Set(readable.map((account) => account.email.toLowerCase()));
  const waiting = (await rememberedOf(request))
    .map((entry) => entry.a)
    .filter((address) => !readableAddresses.has(address.toLowerCase()));
  return { emails, waiting };
}
