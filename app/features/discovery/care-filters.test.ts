import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { action } from "~/routes/dashboard-filters";
import { filtersSchema } from "./filters-schema";
import { earliestFirstDay } from "./filters";

const base = { petType: "all", maxDistanceKm: "50", sortBy: "distance" };

function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Each field's error messages, as the form shows them under it. */
function errorsOf(fields: Record<string, string>): Record<string, string[]> {
  const result = filtersSchema.safeParse({ ...base, ...fields });
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".");
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}

describe("the service, dates and pets filters' checks", () => {
  it("takes a service, dates up to 30 nights ahead and 1 to 6 pets", () => {
    const result = filtersSchema.parse({
      ...base,
      service: "boarding",
      firstDay: dayFromToday(3),
      lastDay: dayFromToday(33),
      pets: "6",
    });
    expect(result).toMatchObject({
      service: "boarding",
      firstDay: dayFromToday(3),
      lastDay: dayFromToday(33),
      pets: 6,
    });
    const defaults = filtersSchema.parse(base);
    expect(defaults).toMatchObject({ service: "any", pets: 1 });
    expect(defaults.firstDay ?? defaults.lastDay).toBeUndefined();
    // Today somewhere on Earth is not gone by.
    expect(errorsOf({ firstDay: earliestFirstDay(new Date()), lastDay: dayFromToday(1) })).toEqual({});
  });

  it("refuses each bad value under its own field", () => {
    const e = "discovery:filters.errors";
    expect(errorsOf({ firstDay: dayFromToday(-3), lastDay: dayFromToday(2) })).toEqual({
      firstDay: [`${e}.firstDayPast`],
    });
    expect(errorsOf({ firstDay: dayFromToday(5), lastDay: dayFromToday(4) })).toEqual({
      lastDay: [`${e}.lastBeforeFirst`],
    });
    expect(errorsOf({ firstDay: dayFromToday(5), lastDay: dayFromToday(36) })).toEqual({
      lastDay: [`${e}.tooManyNights`],
    });
    expect(errorsOf({ firstDay: dayFromToday(5) })).toEqual({ lastDay: [`${e}.lastDayRequired`] });
    expect(errorsOf({ lastDay: dayFromToday(5) })).toEqual({ firstDay: [`${e}.firstDayRequired`] });
    expect(errorsOf({ service: "grooming" })).toEqual({ service: ["validation.choice"] });
    expect(errorsOf({ pets: "0" })).toEqual({ pets: [`${e}.petsRange`] });
    expect(errorsOf({ pets: "99" })).toEqual({ pets: [`${e}.petsRange`] });
    expect(errorsOf({ pets: "2.5" })).toEqual({ pets: ["validation.number"] });
  });

  it("refuses hostile strings with a message, never an exception", () => {
    for (const hostile of ["'; drop table users; --", "<script>alert(1)</script>", "2026-02-30", "9".repeat(5000)]) {
      const errors = errorsOf({ service: hostile, firstDay: hostile, lastDay: hostile, pets: hostile });
      expect(Object.keys(errors).sort()).toEqual(["firstDay", "lastDay", "pets", "service"]);
    }
  });
});

/** A Response's status, or the status a data() answer carries. */
const statusOf = (answer: unknown) =>
  answer instanceof Response ? answer.status : (answer as { init: { status: number } | null }).init?.status;

describe("saving the filters", () => {
  async function post(cookie: string, fields: Record<string, string>) {
    const request = new Request("http://localhost/dashboard/filters", {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...base, intent: "save", ...fields }),
    });
    try {
      return await action({ request, params: {}, context: {} as never });
    } catch (thrown) {
      return thrown;
    }
  }

  it("keeps an owner's service, dates and pets, and refuses bad ones with 400, changing nothing", async () => {
    const owner = await person("owner", { signedIn: true });
    const saved = (await post(owner.cookie, {
      service: "house_sitting",
      firstDay: dayFromToday(10),
      lastDay: dayFromToday(14),
      pets: "3",
    })) as Response;
    expect(saved.status).toBe(302);
    const read = () =>
      db
        .selectFrom("users")
        .select(["filter_service", "filter_first_day", "filter_last_day", "filter_pets"])
        .where("id", "=", owner.id)
        .executeTakeFirstOrThrow();
    const stored = await read();
    expect(stored).toEqual({
      filter_service: "house_sitting",
      filter_first_day: dayFromToday(10),
      filter_last_day: dayFromToday(14),
      filter_pets: 3,
    });
    const bads: Record<string, string>[] = [
      { pets: "99" },
      { service: "<b>x</b>" },
      { firstDay: dayFromToday(-2), lastDay: dayFromToday(3) },
      { firstDay: "x".repeat(300), lastDay: "\u0000" },
    ];
    for (const bad of bads) {
      const refused = await post(owner.cookie, bad);
      expect(statusOf(refused), JSON.stringify(bad)).toBe(400);
    }
    expect(await read()).toEqual(stored);
  });
});
