import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { personalDataSections } from "./index.server";

const section = (name: string) => personalDataSections.find((candidate) => candidate.name === name)!;

describe("a sitter's data", () => {
  it("exports the services they offer with their prices, the most pets and the extra-pet price; erasure removes the services", async () => {
    const sitter = await person("sitter", { rateCents: null, columns: { max_pets: 3, extra_pet_cents: 500 } });
    await db
      .insertInto("sitter_services")
      .values([
        { sitter_id: sitter.id, service: "walk", price_cents: 1200, duration_minutes: 60 },
        { sitter_id: sitter.id, service: "boarding", price_cents: 3500, duration_minutes: null },
      ])
      .execute();
    expect(await section("services").exportOf(sitter.id, db)).toEqual([
      { service: "boarding", price_cents: 3500, duration_minutes: null },
      { service: "walk", price_cents: 1200, duration_minutes: 60 },
    ]);
    expect(await section("profile").exportOf(sitter.id, db)).toMatchObject({
      hourly_rate_cents: null,
      max_pets: 3,
      extra_pet_cents: 500,
    });
    await db.transaction().execute((trx) =>
      section("services")
        .erase({ ...sitter, phone: "" }, trx)
        .then(() => undefined),
    );
    expect(await section("services").exportOf(sitter.id, db)).toEqual([]);
  });
});
