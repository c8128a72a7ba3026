import {
  request as playwrightRequest,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
} from "@playwright/test";
import { devices } from "@playwright/test";
import pg from "pg";
import { expect } from "../e2e/support";

// The two instances started by tests/scale/start-instances.js, one database and one bucket behind them.
const ports = (process.env.SCALE_PORTS ?? "4311,4312").split(",").map(Number);
export const instances = ports.map((port) => `http://localhost:${port}`) as [string, string];

/** A browser of its own (a person on their phone) whose requests the balancer sends to `instance`. */
export async function personOn(browser: Browser, instance: string): Promise<BrowserContext> {
  const { defaultBrowserType: _, ...phone } = devices["Pixel 5"];
  return browser.newContext({ ...phone, baseURL: instance, locale: "en-GB", serviceWorkers: "block" });
}

/**
 * A client with the cookies of `context` (a session lives in the database, so either instance accepts
 * it) that sends its requests to `instance`, as the page's own forms would.
 */
export async function sameSessionOn(context: BrowserContext, instance: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: instance,
    storageState: await context.storageState(),
    extraHTTPHeaders: { Origin: instance },
  });
}

/** Moves both instances' clocks by the same amount at the same moment; each runs its due work as it does. */
export async function advanceBothClocks(request: APIRequestContext, minutes: number) {
  const responses = await Promise.all(
    instances.map((instance) => request.post(`${instance}/dev/clock`, { form: { advanceMinutes: String(minutes) } })),
  );
  for (const response of responses) expect(response.ok()).toBe(true);
  const clocks = await Promise.all(
    responses.map(async (response) => new Date(((await response.json()) as { now: string }).now).getTime()),
  );
  // Moved together, they still agree (to the time the two requests took).
  expect(Math.abs(clocks[0]! - clocks[1]!)).toBeLessThan(5_000);
}

/** For what no page shows (payment records, a booking's history): a read on the run's database. */
export async function query<Row>(text: string, values: unknown[] = []): Promise<Row[]> {
  const url = process.env.SCALE_DATABASE_URL;
  if (!url) throw new Error("SCALE_DATABASE_URL is not set: run these tests with playwright.scale.config.ts");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}
