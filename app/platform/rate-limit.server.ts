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

/** Deletes the rows whose window has ended (they count nothing any more); the scheduler runs it. */
export async function pruneRateLimits(): Promise<number> {
  const at = Math.floor(now().getTime() / 1000);
  const result = await db.deleteFrom("rate_limits").where("expires_at", "<=", at).executeTakeFirst();
  return Number(result.numDeletedRows);
}
