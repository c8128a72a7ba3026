import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { seedDemoData } from "./seed.server";

beforeAll(async () => {
  await seedDemoData({ onlyIfEmpty: true });
}, 120_000);

describe("the demo seed's services", () => {
  it("gives every demo sitter a mix of services and prices, one of them without an hourly rate", async () => {
    const sitters = await db
      .selectFrom("users")
      .select(["id", "name", "hourly_rate_cents", "from_price_cents", "max_pets", "extra_pet_cents"])
      .where("role", "in", ["sitter", "both"])
      .where("hourly_rate_cents", "is not", null)
      .execute();
    const stayOnly = await db
      .selectFrom("users")
      .select(["id", "hourly_rate_cents", "from_price_cents", "max_pets"])
      .where("name", "=", "Élodie Martin")
      .executeTakeFirstOrThrow();
    expect(stayOnly).toMatchObject({ hourly_rate_cents: null, from_price_cents: 2000, max_pets: 3 });
    const services = await db.selectFrom("sitter_services").selectAll().execute();
    for (const sitter of [...sitters, stayOnly]) {
      expect(
        services.some((row) => row.sitter_id === sitter.id),
        sitter.id,
      ).toBe(true);
      expect(sitter.from_price_cents).not.toBeNull();
    }
    expect(new Set(services.map((row) => row.service))).toEqual(
      new Set(["walk", "drop_in", "day_care", "house_sitting", "boarding"]),
    );
    expect(new Set(sitters.map((sitter) => sitter.max_pets)).size).toBeGreaterThan(2);
  });
});
