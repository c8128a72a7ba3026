import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { env } from "~/platform/env.server";
import { listOutboxFor } from "~/platform/email.server";
import { cookiesAreSecure, getUser } from "~/platform/session.server";

/**
 * At /dev/outbox (no email leaves the server) a person reads the emails to their own address and
 * to addresses the browser proved it owns. Typing an address proves nothing (anyone can ask for a
 * stranger's reset link). The sealed cookie tells nobody whether a sign-up found the address taken.
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

/** An address the browser typed, and whether it proved owning it (`o`: 1) or merely tried it (0). */
type Remembered = { a: string; o: 0 | 1 };

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
    const parsed: unknown = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((entry): entry is Remembered => typeof entry?.a === "string" && (entry.o === 0 || entry.o === 1));
  } catch {
    return [];
  }
}

async function rememberedOf(request: Request): Promise<Remembered[]> {
  return unseal(await outboxCookie.parse(request.headers.get("Cookie")));
}

/** Null where there is no outbox; the cookie looks the same whether or not `owned`. */
export async function rememberAddress(request: Request, address: string, owned: boolean): Promise<string | null> {
  if (!env.devToolsEnabled) return null;
  const earlier = await rememberedOf(request);
  const before = earlier.find((entry) => entry.a === address);
  const entry: Remembered = { a: address, o: owned || before?.o === 1 ? 1 : 0 };
  const entries = [entry, ...earlier.filter((other) => other.a !== address)].slice(0, REMEMBERED_MAX);
  return outboxCookie.serialize(seal(entries));
}

export async function readableOutbox(request: Request) {
  const user = await getUser(request);
  const owned = (await rememberedOf(request)).filter((entry) => entry.o === 1).map((entry) => entry.a);
  return listOutboxFor([...new Set([...(user ? [user.email] : []), ...owned])]);
}
