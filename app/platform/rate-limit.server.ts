import { sql } from "kysely";
import { db } from "./db.server";
import { env } from "./env.server";
import { now } from "./clock.server";

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/** Sign-in, sign-up and reset share one configurable budget per address (and per email where one is given). */
export const authRateLimit: RateLimit = {
  max: env.AUTH_RATE_LIMIT,
  windowSeconds: env.AUTH_RATE_LIMIT_WINDOW_SECONDS,
};

/** Reset emails asked for from one address, whatever the accounts. */
export const resetEmailRateLimit: RateLimit = {
  max: env.AUTH_RESET_RATE_LIMIT,
  windowSeconds: env.AUTH_RESET_RATE_LIMIT_WINDOW_SECONDS,
};

/**
 * Counts one attempt under `key` in a fixed window and says whether it is allowed.
 * Kept in the database so limits survive restarts; one upsert, so concurrent attempts are all counted.
 */
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
 * A delay that grows instead of a lock: the first `freeAttempts` go through at once, then each
 * attempt waits `firstDelayMs`, twice that, and so on up to `maxDelayMs`, counted from the last
 * attempt let through. After `forgetAfterMs` without attempts the count starts again.
 */
export interface Backoff {
  freeAttempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
}

/** Sign-in failures per email (and wrong current passwords): never more than about a minute's wait. */
export const signInBackoff: Backoff = {
  freeAttempts: env.AUTH_SIGNIN_FREE_FAILURES,
  firstDelayMs: env.AUTH_SIGNIN_FIRST_DELAY_SECONDS * 1000,
  maxDelayMs: env.AUTH_SIGNIN_MAX_DELAY_SECONDS * 1000,
  forgetAfterMs: env.AUTH_SIGNIN_FAILURE_WINDOW_SECONDS * 1000,
};

/** How long the attempt after `attempts` counted ones must wait since the last of them. */
export function backoffDelayMs(attempts: number, backoff: Backoff): number {
  if (attempts < backoff.freeAttempts) return 0;
  return Math.min(backoff.firstDelayMs * 2 ** (attempts - backoff.freeAttempts), backoff.maxDelayMs);
}

/**
 * Counts an attempt under `key` when its wait is over and returns 0; inside the wait it counts
 * nothing and returns the milliseconds left. The attempt is counted before the caller checks
 * anything, so simultaneous attempts cannot all slip through one opening; a success calls
 * `clearAttempts`. A refused attempt changes nothing, so it does not make the wait longer.
 */
export async function claimAttempt(key: string, backoff: Backoff): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const at = now().getTime();
    const row = await trx.selectFrom("backoffs").select(["attempts", "last_attempt_at"]).where("key", "=", key).executeTakeFirst();
    const attempts = row && at - row.last_attempt_at < backoff.forgetAfterMs ? row.attempts : 0;
    if (row && attempts > 0) {
      const left = row.last_attempt_at + backoffDelayMs(attempts, backoff) - at;
      if (left > 0) return left;
    }
    await trx
      .insertInto("backoffs")
      .values({ key, attempts: attempts + 1, last_attempt_at: at })
      .onConflict((oc) => oc.column("key").doUpdateSet({ attempts: attempts + 1, last_attempt_at: at }))
      .execute();
    return 0;
  });
}

export async function clearAttempts(key: string): Promise<void> {
  await db.deleteFrom("backoffs").where("key", "=", key).execute();
}

/** Rows whose count has been forgotten anyway. */
export async function pruneBackoffs(backoff: Backoff = signInBackoff): Promise<void> {
  await db.deleteFrom("backoffs").where("last_attempt_at", "<", now().getTime() - backoff.forgetAfterMs).execute();
}

/** Deletes the rows whose window has ended (they count nothing any more); the scheduler runs it. */
export async function pruneRateLimits(): Promise<number> {
  const at = Math.floor(now().getTime() / 1000);
  const result = await db.deleteFrom("rate_limits").where("expires_at", "<=", at).executeTakeFirst();
  return Number(result.numDeletedRows);
}
