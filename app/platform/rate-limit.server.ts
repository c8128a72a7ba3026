import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db, lockedForDecision } from "./db.server";
import { env } from "./env.server";
import { now } from "./clock.server";

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export const authRateLimit: RateLimit = {
  max: env.AUTH_RATE_LIMIT,
  windowSeconds: env.AUTH_RATE_LIMIT_WINDOW_SECONDS,
};

export const resetEmailRateLimit: RateLimit = {
  max: env.AUTH_RESET_RATE_LIMIT,
  windowSeconds: env.AUTH_RESET_RATE_LIMIT_WINDOW_SECONDS,
};

// Kept in the database so limits survive restarts; one upsert, so concurrent attempts are all counted.
export async function takeAttempt(key: string, limit: RateLimit): Promise<boolean> {
  const at = Math.floor(now().getTime() / 1000);
  const windowStart = at - (at % limit.windowSeconds);
  const row = await db
    .insertInto("rate_limits")
    .values({ key, window_started_at: windowStart, hits: 1, expires_at: windowStart + limit.windowSeconds })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        hits: sql`case when rate_limits.window_started_at = excluded.window_started_at then rate_limits.hits + 1 else 1 end`,
        window_started_at: sql`excluded.window_started_at`,
        expires_at: sql`excluded.expires_at`,
      }),
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  return row.hits <= limit.max;
}

/**
 * At most `max` attempts in any `windowSeconds`, wherever the window starts: each attempt let through
 * is a row, and one more is let through only while fewer than `max` rows are younger than the window.
 * The row is written before counting (no transaction), so of attempts racing for the last place at
 * most one is let through, and a refused one removes its row again.
 */
export async function takeSlidingAttempt(key: string, limit: RateLimit): Promise<boolean> {
  const at = now().getTime();
  const windowMs = limit.windowSeconds * 1000;
  const id = randomUUID();
  await db
    .insertInto("rate_limit_hits")
    .values({ id, key, at, expires_at: at + windowMs })
    .execute();
  const { hits } = await db
    .selectFrom("rate_limit_hits")
    .select((eb) => eb.fn.countAll<number | string>().as("hits"))
    .where("key", "=", key)
    .where("at", ">", at - windowMs)
    .executeTakeFirstOrThrow();
  if (Number(hits) <= limit.max) return true;
  await db.deleteFrom("rate_limit_hits").where("id", "=", id).execute();
  return false;
}

// A delay that grows instead of a lock, counted from the last attempt let through.
export interface Backoff {
  freeAttempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
}

export const signInBackoff: Backoff = {
  freeAttempts: env.AUTH_SIGNIN_FREE_FAILURES,
  firstDelayMs: env.AUTH_SIGNIN_FIRST_DELAY_SECONDS * 1000,
  maxDelayMs: env.AUTH_SIGNIN_MAX_DELAY_SECONDS * 1000,
  forgetAfterMs: env.AUTH_SIGNIN_FAILURE_WINDOW_SECONDS * 1000,
};

export function backoffDelayMs(attempts: number, backoff: Backoff): number {
  if (attempts < backoff.freeAttempts) return 0;
  return Math.min(backoff.firstDelayMs * 2 ** (attempts - backoff.freeAttempts), backoff.maxDelayMs);
}

// Counted before the caller checks anything, so simultaneous attempts cannot all slip through one opening.
export async function claimAttempt(key: string, backoff: Backoff): Promise<number> {
  return claimAttempts([key], backoff);
}

/**
 * One attempt under several keys at once (an account and the client's address): it waits while any
 * key waits (the longest wait is answered), and only an attempt let through counts, under every key.
 */
export async function claimAttempts(keys: readonly string[], backoff: Backoff): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const at = now().getTime();
    // Every key's row exists and is locked before it is read: simultaneous attempts under one key take turns.
    await trx
      .insertInto("backoffs")
      .values([...keys].sort().map((key) => ({ key, attempts: 0, last_attempt_at: 0 })))
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    const rows = await trx
      .selectFrom("backoffs")
      .select(["key", "attempts", "last_attempt_at"])
      .where("key", "in", [...keys].sort())
      .orderBy("key")
      .$call(lockedForDecision)
      .execute();
    const attemptsOf = new Map<string, number>();
    let left = 0;
    for (const row of rows) {
      const attempts = at - row.last_attempt_at < backoff.forgetAfterMs ? row.attempts : 0;
      attemptsOf.set(row.key, attempts);
      if (attempts > 0) left = Math.max(left, row.last_attempt_at + backoffDelayMs(attempts, backoff) - at);
    }
    if (left > 0) return left;
    for (const key of keys) {
      const attempts = (attemptsOf.get(key) ?? 0) + 1;
      await trx
        .insertInto("backoffs")
        .values({ key, attempts, last_attempt_at: at })
        .onConflict((oc) => oc.column("key").doUpdateSet({ attempts, last_attempt_at: at }))
        .execute();
    }
    return 0;
  });
}

export async function clearAttempts(...keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom("backoffs").where("key", "in", keys).execute();
}

export async function pruneBackoffs(backoff: Backoff = signInBackoff): Promise<void> {
  await db
    .deleteFrom("backoffs")
    .where("last_attempt_at", "<", now().getTime() - backoff.forgetAfterMs)
    .execute();
}

export async function pruneRateLimits(): Promise<number> {
  const at = Math.floor(now().getTime() / 1000);
  const result = await db.deleteFrom("rate_limits").where("expires_at", "<=", at).executeTakeFirst();
  const hits = await db
    .deleteFrom("rate_limit_hits")
    .where("expires_at", "<=", at * 1000)
    .executeTakeFirst();
  return Number(result.numDeletedRows) + Number(hits.numDeletedRows);
}

/** Forgets every rate-limit and back-off counter keyed by any of these (a person's id and address), when they are erased. */
export async function forgetCountersOf(keys: readonly string[], trx: Kysely<Database>): Promise<void> {
  for (const table of ["rate_limits", "rate_limit_hits", "backoffs"] as const) {
    await trx
      .deleteFrom(table)
      .where((eb) => eb.or(keys.map((key) => eb("key", "like", `%${key}%`))))
      .execute();
  }
}
