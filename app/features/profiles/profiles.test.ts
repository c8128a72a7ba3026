import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import {
  completedBookingCounts,
  completeSitterProfile,
  getPublicProfile,
  servicesOf,
  updateSitterDetails,
} from "./profiles.server";
import { sitterDetailsSchema, sitterSetupSchema } from "./schema";

const image = () =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();

describe("sitter setup", () => {
  it("falls back to 15 €/h on a non-number, refuses out-of-range rates, needs a pet type", () => {
    const base = { bio: "Experienced", caresFor: ["dog"] };
    expect(sitterSetupSchema.parse({ ...base, hourlyRate: "abc" }).hourlyRate).toBe(15);
    expect(sitterSetupSchema.safeParse({ ...base, hourlyRate: "4" }).success).toBe(false);
    expect(sitterSetupSchema.safeParse({ ...base, hourlyRate: "101" }).success).toBe(false);
    expect(sitterSetupSchema.parse({ ...base, hourlyRate: "12,5" }).hourlyRate).toBe(12.5);
    expect(sitterSetupSchema.safeParse({ bio: "x", hourlyRate: "20" }).error?.issues[0]?.message).toBe(
      "validation.caresForRequired",
    );
    expect(sitterSetupSchema.safeParse({ ...base, bio: "x".repeat(501), hourlyRate: "20" }).success).toBe(false);
  });

  it("turns an owner into 'both' and shows rate and experience on the public profile", async () => {
    const owner = await person("owner");
    const input = sitterSetupSchema.parse({
      bio: "I walk dogs",
      hourlyRate: "18",
      caresFor: ["dog"],
      experience: ["puppies"],
    });
    expect(await completeSitterProfile(owner, input, [await image()])).toEqual({ status: "done" });
    const profile = await getPublicProfile(owner.id);
    expect(profile).toMatchObject({ role: "both", hourlyRateCents: 1800, experience: ["puppies"], caresFor: ["dog"] });
    expect(profile?.photos).toHaveLength(1);
  });
});

async function booking(ownerId: string, sitterId: string, status: "requested" | "completed" | "cancelled") {
  const at = new Date().toISOString();
  const end = new Date(Date.now() + 3_600_000).toISOString();
  await db
    .insertInto("bookings")
    .values({
      id: randomUUID(),
      owner_id: ownerId,
      sitter_id: sitterId,
      pet_name: "Rex",
      start_at: at,
      end_at: end,
      hours: 1,
      hourly_rate_cents: 1500,
      subtotal_cents: 1500,
      fee_cents: 300,
      total_cents: 1800,
      payment_provider: "test",
      status,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

describe("sitter details", () => {
  it("takes years of experience as an optional whole number from 0 to 50", () => {
    const base = { hourlyRate: "20", caresFor: ["dog"] };
    const years = (value: unknown) => sitterDetailsSchema.safeParse({ ...base, yearsExperience: value });
    expect(years("").data?.yearsExperience).toBeUndefined();
    expect(years(undefined).data?.yearsExperience).toBeUndefined();
    expect(years("0").data?.yearsExperience).toBe(0);
    expect(years(" 12 ").data?.yearsExperience).toBe(12);
    for (const bad of ["-1", "51", "2.5", "abc", "1e400", "99999999999999999999", ["3", "4"], {}]) {
      expect(years(bad).error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
        [["yearsExperience"], "validation.yearsExperienceRange"],
      ]);
    }
    expect(sitterSetupSchema.parse({ ...base, bio: "Hi", yearsExperience: "7" }).yearsExperience).toBe(7);
  });

  it("lets a sitter change rate, years, chips and pet types after setup; an owner has none to change", async () => {
    const sitter = await person("sitter");
    await completeSitterProfile(
      sitter,
      sitterSetupSchema.parse({ bio: "Hi", hourlyRate: "18", caresFor: ["dog"], yearsExperience: "3" }),
      [],
    );
    expect(await getPublicProfile(sitter.id)).toMatchObject({ hourlyRateCents: 1800, yearsExperience: 3 });
    const changed = sitterDetailsSchema.parse({
      hourlyRate: "22,5",
      caresFor: ["dog", "cat"],
      experience: ["cats", "puppies"],
      yearsExperience: "",
    });
    expect(await updateSitterDetails(sitter, changed)).toBe(true);
    expect(await getPublicProfile(sitter.id)).toMatchObject({
      bio: "Hi",
      hourlyRateCents: 2250,
      yearsExperience: null,
      caresFor: ["dog", "cat"],
      experience: ["cats", "puppies"],
    });

    const owner = await person("owner");
    expect(await updateSitterDetails(owner, changed)).toBe(false);
    expect(await getPublicProfile(owner.id)).toMatchObject({
      hourlyRateCents: null,
      yearsExperience: null,
      caresFor: [],
    });
  });

  it("counts only completed bookings, per sitter", async () => {
    const owner = await person("owner");
    const sitter = await person("sitter");
    const other = await person("sitter");
    await booking(owner.id, sitter.id, "completed");
    await booking(owner.id, sitter.id, "completed");
    await booking(owner.id, sitter.id, "requested");
    await booking(owner.id, sitter.id, "cancelled");
    await booking(owner.id, other.id, "completed");
    const counts = await completedBookingCounts([sitter.id, other.id, owner.id]);
    expect([counts.get(sitter.id), counts.get(other.id), counts.get(owner.id)]).toEqual([2, 1, undefined]);
    expect((await getPublicProfile(sitter.id))?.completedBookings).toBe(2);
    expect(await completedBookingCounts([])).toEqual(new Map());
  });
});

describe("services a sitter offers", () => {
  const form = {
    servicesShown: "1",
    caresFor: ["dog"],
    hourlyRate: "15",
    extraPetPrice: "5",
    maxPets: "3",
  };
  const errorsOf = (input: Record<string, unknown>) => {
    const result = sitterDetailsSchema.safeParse(input);
    return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
  };

  it("needs one service, a price in range for each ticked one, and ignores prices of the others", () => {
    expect(errorsOf({ ...form })).toEqual({ services: "profile:validation.servicesRequired" });
    expect(errorsOf({ ...form, services: ["walk"], walkPrice: "4" })).toEqual({
      walkPrice: "profile:validation.price.walk",
    });
    expect(errorsOf({ ...form, services: ["boarding"] })).toEqual({
      boardingPrice: "profile:validation.price.night",
    });
    expect(errorsOf({ ...form, services: ["boarding"], boardingPrice: "301" })).toHaveProperty("boardingPrice");
    expect(errorsOf({ ...form, services: ["day_care"], dayCarePrice: "200", dropInPrice: "99999" })).toEqual({});
    expect(errorsOf({ ...form, services: ["hourly"], maxPets: "7", extraPetPrice: "51" })).toEqual({
      maxPets: "profile:validation.maxPets",
      extraPetPrice: "profile:validation.extraPetPrice",
    });
  });

  it("refuses hostile input: unknown services, huge numbers, strings, lists", () => {
    expect(errorsOf({ ...form, services: ["hourly", "grooming"] })).toHaveProperty("services.1");
    expect(errorsOf({ ...form, services: ["walk"], walkPrice: "1e400" })).toHaveProperty("walkPrice");
    expect(errorsOf({ ...form, services: ["walk"], walkPrice: "9".repeat(40) })).toHaveProperty("walkPrice");
    expect(errorsOf({ ...form, services: ["walk"], walkPrice: "abc" })).toHaveProperty("walkPrice");
    expect(errorsOf({ ...form, services: ["walk"], walkPrice: ["10", "20"] })).toHaveProperty("walkPrice");
    expect(errorsOf({ ...form, services: ["walk"], walkPrice: "10", walkMinutes: "45" })).toHaveProperty("walkMinutes");
    expect(errorsOf({ ...form, services: ["hourly"], maxPets: "2.5" })).toHaveProperty("maxPets");
  });

  it("saves services, prices, extra pet and most pets together, and shows them on the profile", async () => {
    const sitter = await person("sitter");
    const input = sitterDetailsSchema.parse({
      ...form,
      services: ["walk", "boarding"],
      walkPrice: "12",
      walkMinutes: "60",
      boardingPrice: "35,5",
      houseSittingPrice: "40",
    });
    expect(await updateSitterDetails(sitter, input)).toBe(true);
    const profile = await getPublicProfile(sitter.id);
    expect(profile).toMatchObject({ hourlyRateCents: null, maxPets: 3, extraPetCents: 500 });
    expect(profile?.services).toEqual([
      { service: "walk", unit: "walk", priceCents: 1200, durationMinutes: 60 },
      { service: "boarding", unit: "night", priceCents: 3550, durationMinutes: null },
    ]);

    // Ticking by the hour again and dropping the walk replaces the list.
    await updateSitterDetails(
      sitter,
      sitterDetailsSchema.parse({ ...form, services: ["hourly", "boarding"], boardingPrice: "30" }),
    );
    expect((await getPublicProfile(sitter.id))?.services).toEqual([
      { service: "hourly", unit: "hour", priceCents: 1500, durationMinutes: null },
      { service: "boarding", unit: "night", priceCents: 3000, durationMinutes: null },
    ]);
    const map = await servicesOf(db, [sitter.id, "nobody"]);
    expect(map.get(sitter.id)).toHaveLength(1);
    expect(map.has("nobody")).toBe(false);
  });

  it("writes nothing when a row is refused by the database", async () => {
    const sitter = await person("sitter");
    const good = sitterDetailsSchema.parse({ ...form, services: ["walk"], walkPrice: "10" });
    await updateSitterDetails(sitter, good);
    // A price past the schema (a caller that skipped it) is stopped by the table's check, and the users row stays.
    await expect(
      updateSitterDetails(sitter, { ...good, services: ["day_care"], dayCarePrice: 9999, maxPets: 5 }),
    ).rejects.toThrow();
    const profile = await getPublicProfile(sitter.id);
    expect(profile?.maxPets).toBe(3);
    expect(profile?.services.map((offered) => offered.service)).toEqual(["walk"]);
  });

  it("keeps an existing sitter's hourly rate when the form has no services (older callers)", async () => {
    const sitter = await person("sitter");
    await updateSitterDetails(sitter, sitterDetailsSchema.parse({ hourlyRate: "22", caresFor: ["cat"] }));
    expect((await getPublicProfile(sitter.id))?.services).toEqual([
      { service: "hourly", unit: "hour", priceCents: 2200, durationMinutes: null },
    ]);
  });
});
