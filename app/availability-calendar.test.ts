import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { addMonths, daysOfMonth } from "~/features/availability/days-off.server";
import { todayIn } from "~/features/availability/availability.server";
import { action, loader } from "./routes/availability";

/** The month form as the page posts it, signed in as `who`. */
async function post(who: { cookie: string }, fields: [string, string][]) {
  const body = new URLSearchParams(fields);
  const request = new Request("http://localhost/availability", {
    method: "POST",
    body,
    headers: { Cookie: who.cookie, Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
  });
  try {
    return await action({ request, params: {}, context: { clientAddress: "127.0.0.1", cspNonce: "n" } });
  } catch (thrown) {
    return thrown;
  }
}

const statusOf = (answer: unknown) =>
  answer instanceof Response ? answer.status : (answer as { init?: { status?: number } }).init?.status;

const daysOffOf = (sitterId: string) =>
  db
    .selectFrom("sitter_days_off")
    .select("day")
    .where("sitter_id", "=", sitterId)
    .execute()
    .then((rows) => rows.map((row) => row.day).sort());

describe("/availability month form", () => {
  it("saves a sitter's month and refuses bad input with a translated message, changing nothing", async () => {
    const sitter = await person("sitter", { signedIn: true });
    const month = addMonths(todayIn(sitter.time_zone).slice(0, 7), 1);
    const free = daysOfMonth(month).filter((day) => !day.endsWith("-10"));
    const saved = await post(sitter, [
      ["intent", "month"],
      ["month", month],
      ...free.map((day) => ["free", day] as [string, string]),
    ]);
    expect(statusOf(saved)).toBe(302);
    expect(await daysOffOf(sitter.id)).toEqual([`${month}-10`]);

    const refusals: [string, string][][] = [
      [["month", "2020-01"]],
      [["month", addMonths(month, 20)]],
      [["month", "not-a-month"]],
      [
        ["month", month],
        ["free", "2020-01-01"],
      ],
      [
        ["month", month],
        ["free", `${month}-99`],
      ],
      [
        ["month", month],
        ["free", `${addMonths(month, 1)}-01`],
      ],
    ];
    for (const fields of refusals) {
      const answer = await post(sitter, [["intent", "month"], ...fields]);
      expect(statusOf(answer)).toBe(400);
      expect(JSON.stringify((answer as { data?: unknown }).data)).toMatch(/availability:month\.errors\.bad(Month|Day)/);
    }
    expect(await daysOffOf(sitter.id)).toEqual([`${month}-10`]);
  });

  it("ignores a forged sitter id and never lets an owner save days", async () => {
    const sitter = await person("sitter", { signedIn: true });
    const other = await person("sitter", { signedIn: true });
    const owner = await person("owner", { signedIn: true });
    const month = addMonths(todayIn(sitter.time_zone).slice(0, 7), 1);
    await post(other, [
      ["intent", "month"],
      ["month", month],
      ["sitterId", sitter.id],
      ["sitter_id", sitter.id],
    ]);
    expect(await daysOffOf(sitter.id)).toEqual([]);
    expect(await daysOffOf(other.id)).toHaveLength(daysOfMonth(month).length);
    const answer = await post(owner, [
      ["intent", "month"],
      ["month", month],
    ]);
    expect(statusOf(answer)).toBe(302);
    expect(await daysOffOf(owner.id)).toEqual([]);
  });

  it("shows this month with an error for a month out of range, and no calendar to an owner", async () => {
    const sitter = await person("sitter", { signedIn: true });
    const owner = await person("owner", { signedIn: true });
    const ask = (who: { cookie: string }, query: string) =>
      loader({
        request: new Request(`http://localhost/availability${query}`, { headers: { Cookie: who.cookie } }),
        params: {},
        context: { clientAddress: "127.0.0.1", cspNonce: "n" },
      });
    const page = await ask(sitter, "?month=2099-01");
    expect(page).toMatchObject({
      sitter: true,
      calendar: { month: todayIn(sitter.time_zone).slice(0, 7), monthError: true },
    });
    expect(await ask(owner, "")).toEqual({ sitter: false });
  });
});
