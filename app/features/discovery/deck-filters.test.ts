import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { BookingStatus, ServiceId, UserUpdate } from "~db/schema";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { caresForColumns } from "~/features/profiles/index.server";
import { greatCircleKm } from "~/features/geo/index.server";
import { travel } from "~/testing/places";
import { deckFor, forgetHowToRead, todayUtc, type SitterCard } from "./deck.server";
import { activeFilterCount, DEFAULT_FILTERS } from "./filters";

const MADRID = { latitude: 40.4168, longitude: -3.7038 };
const LISBON = { latitude: 38.7223, longitude: -9.1393 };
const columns = { ...caresForColumns(["dog"]), browse_mode: "global" as const };

type Offer = Partial<Record<Exclude<ServiceId, "hourly">, number>>;

/** A sitter (in Madrid unless told): an hourly rate in cents (or none) and other services at their prices in cents. */
async function sitter(hourly: number | null, offer: Offer = {}, more: UserUpdate = {}, at = MADRID): Promise<string> {
  const { id } = await person("sitter", { at, rateCents: hourly, columns: { ...columns, ...more } });
  for (const [service, price] of Object.entries(offer)) {
    await db
      .insertInto("sitter_services")
      .values({ sitter_id: id, service: service as Exclude<ServiceId, "hourly">, price_cents: price })
      .execute();
  }
  return id;
}

async function deckOf(filters: UserUpdate = {}): Promise<SitterCard[]> {
  const { id } = await person("owner", { at: MADRID, columns: { ...columns, ...filters } });
  const viewer = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const result = await deckFor(viewer, "sitters", 50);
  if (result.status !== "cards") throw new Error(result.status);
  return result.cards as SitterCard[];
}

const idsOf = (cards: SitterCard[]) => cards.map((card) => card.userId);

function dayFromToday(days: number): string {
  const day = new Date(`${todayUtc()}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/** The dates filter of the stays tests: from 10 to 15 days from today. */
const stayDates = () => ({ filter_first_day: dayFromToday(10), filter_last_day: dayFromToday(15) });

interface Stay {
  sitterId: string;
  service: Exclude<ServiceId, "hourly">;
  status?: BookingStatus;
  /** From 10:00 this many days from today to 18:00 `to` days from today. */
  from: number;
  to: number;
  pets?: number;
}

/** Bookings of stays (confirmed unless told otherwise), each with its pets, for one owner. */
async function booked(stays: Stay[]): Promise<void> {
  const owner = await person("owner");
  for (const { sitterId, service, status = "confirmed", from, to, pets = 1 } of stays) {
    const id = randomUUID();
    const units = Math.max(1, to - from);
    await db
      .insertInto("bookings")
      .values({
        id,
        owner_id: owner.id,
        sitter_id: sitterId,
        pet_name: "Rex",
        service_type: service,
        start_at: `${dayFromToday(from)}T10:00:00.000Z`,
        end_at: `${dayFromToday(to)}T18:00:00.000Z`,
        hours: units,
        hourly_rate_cents: 5000,
        subtotal_cents: 5000 * units,
        fee_cents: 1000 * units,
        total_cents: 6000 * units,
        status,
        payment_provider: "test",
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await db
      .insertInto("booking_pets")
      .values(
        Array.from({ length: pets }, (_, position) => ({ booking_id: id, position, pet_name: `Rex ${position}` })),
      )
      .execute();
  }
}

describe("sitters without an hourly rate", () => {
  it("are in the deck with the services they offer", async () => {
    const boarding = await sitter(null, { boarding: 3000 });
    const nothing = await sitter(null);
    const cards = await deckOf();
    expect(idsOf(cards)).toContain(boarding);
    expect(idsOf(cards)).not.toContain(nothing);
    expect(cards.find((card) => card.userId === boarding)?.hourlyRateCents).toBeNull();
    expect(cards.find((card) => card.userId === boarding)?.services).toEqual([
      { service: "boarding", unit: "night", priceCents: 3000, durationMinutes: null },
    ]);
  });

  it("leave the deck when their last service goes, and come back with an hourly rate", async () => {
    const id = await sitter(null, { walk: 1200 });
    expect(idsOf(await deckOf())).toContain(id);
    await db.deleteFrom("sitter_services").where("sitter_id", "=", id).execute();
    expect(idsOf(await deckOf())).not.toContain(id);
    await db.updateTable("users").set({ hourly_rate_cents: 1800 }).where("id", "=", id).execute();
    expect(idsOf(await deckOf())).toContain(id);
  });

  it("are compared by their lowest price under a price filter, and ranked by it", async () => {
    const cheapWalks = await sitter(2500, { walk: 800 });
    const boarding = await sitter(null, { boarding: 3000 });
    const hourly = await sitter(1500);
    const upTo10 = idsOf(await deckOf({ filter_max_price_cents: 1000 }));
    expect(upTo10).toContain(cheapWalks);
    expect(upTo10).not.toContain(boarding);
    expect(upTo10).not.toContain(hourly);
    expect(idsOf(await deckOf({ filter_max_price_cents: 3000 }))).toEqual(
      expect.arrayContaining([cheapWalks, boarding, hourly]),
    );
    const byPrice = idsOf(await deckOf({ filter_sort: "price" })).filter((id) =>
      [cheapWalks, boarding, hourly].includes(id),
    );
    expect(byPrice).toEqual([cheapWalks, hourly, boarding]);
  });
});

describe("the deck's service, dates and pets filters", () => {
  it("shows only sitters who offer the service, at the service's price under a price filter", async () => {
    const boarding = await sitter(null, { boarding: 4000 });
    const cheapBoarding = await sitter(2000, { boarding: 1500, walk: 500 });
    const walker = await sitter(1000, { walk: 800 });
    const hourlyOnly = await sitter(1200);
    const boards = idsOf(await deckOf({ filter_service: "boarding" }));
    expect(boards).toEqual(expect.arrayContaining([boarding, cheapBoarding]));
    expect(boards).not.toContain(walker);
    expect(boards).not.toContain(hourlyOnly);
    // €20 caps the boarding price, not the walk that makes cheapBoarding's lowest price €5.
    const cheap = idsOf(await deckOf({ filter_service: "boarding", filter_max_price_cents: 2000 }));
    expect(cheap).toContain(cheapBoarding);
    expect(cheap).not.toContain(boarding);
    const byTheHour = idsOf(await deckOf({ filter_service: "hourly", filter_max_price_cents: 1100 }));
    expect(byTheHour).toContain(walker);
    expect(byTheHour).not.toContain(hourlyOnly);
    expect(byTheHour).not.toContain(boarding);
  });

  it("shows only sitters free on every day of the dates", async () => {
    const free = await sitter(1500);
    const away = await sitter(1500);
    const awayLater = await sitter(1500);
    await db
      .insertInto("sitter_days_off")
      .values([
        { sitter_id: away, day: dayFromToday(12) },
        { sitter_id: awayLater, day: dayFromToday(20) },
      ])
      .execute();
    const dates = { filter_first_day: dayFromToday(10), filter_last_day: dayFromToday(15) };
    const shown = idsOf(await deckOf(dates));
    expect(shown).toEqual(expect.arrayContaining([free, awayLater]));
    expect(shown).not.toContain(away);
    // Dates gone by filter nothing.
    const past = { filter_first_day: dayFromToday(-5), filter_last_day: dayFromToday(-2) };
    await db
      .insertInto("sitter_days_off")
      .values({ sitter_id: free, day: dayFromToday(-3) })
      .execute();
    expect(idsOf(await deckOf(past))).toEqual(expect.arrayContaining([free, away, awayLater]));
  });

  it("leaves out a sitter away on a confirmed house sitting on those days, not one merely asked or boarding", async () => {
    const housesitting = await sitter(null, { house_sitting: 5000 });
    const asked = await sitter(null, { house_sitting: 5000 });
    const boarding = await sitter(null, { boarding: 3000 }, { max_pets: 3 });
    const elsewhen = await sitter(null, { house_sitting: 5000 });
    await booked([
      { sitterId: housesitting, service: "house_sitting", from: 14, to: 16 },
      { sitterId: asked, service: "house_sitting", status: "requested", from: 11, to: 13 },
      { sitterId: boarding, service: "boarding", from: 10, to: 15 },
      { sitterId: elsewhen, service: "house_sitting", from: 16, to: 18 },
    ]);
    const shown = idsOf(await deckOf(stayDates()));
    expect(shown).toEqual(expect.arrayContaining([asked, boarding]));
    expect(shown).not.toContain(housesitting);
    // A house sitting from the day after the last day leaves the sitter free on the dates.
    expect(shown).toContain(elsewhen);
  });

  it("leaves out a boarding sitter whose places are all taken on one of the days", async () => {
    const full = await sitter(null, { boarding: 3000 }, { max_pets: 2 });
    const onePlaceLeft = await sitter(null, { boarding: 3000 }, { max_pets: 2 });
    const asked = await sitter(null, { boarding: 3000 }, { max_pets: 2 });
    const before = await sitter(null, { boarding: 3000 }, { max_pets: 2 });
    const away = await sitter(null, { boarding: 3000, house_sitting: 5000 }, { max_pets: 2 });
    await booked([
      { sitterId: full, service: "boarding", from: 12, to: 13, pets: 2 },
      { sitterId: onePlaceLeft, service: "boarding", from: 8, to: 20, pets: 1 },
      { sitterId: asked, service: "boarding", status: "requested", from: 11, to: 13, pets: 2 },
      // Ends the day before the first day.
      { sitterId: before, service: "boarding", from: 5, to: 9, pets: 2 },
      { sitterId: away, service: "house_sitting", from: 15, to: 17 },
    ]);
    const onePet = idsOf(await deckOf({ ...stayDates(), filter_service: "boarding" }));
    expect(onePet).toEqual(expect.arrayContaining([onePlaceLeft, asked, before]));
    expect(onePet).not.toContain(full);
    expect(onePet).not.toContain(away);
    const twoPets = idsOf(await deckOf({ ...stayDates(), filter_service: "boarding", filter_pets: 2 }));
    expect(twoPets).toEqual(expect.arrayContaining([asked, before]));
    expect(twoPets).not.toContain(onePlaceLeft);
    // Without a stay's service, a sitter whose home is full of boarders may still walk a dog.
    expect(idsOf(await deckOf(stayDates()))).toContain(full);
  });

  it("counts the pets of day care and boarding present on the same day, on the busiest day", async () => {
    const dayCareFull = await sitter(null, { day_care: 2500 }, { max_pets: 2 });
    const sharedWithBoarding = await sitter(null, { day_care: 2500, boarding: 3000 }, { max_pets: 2 });
    const overlapOnOneDay = await sitter(null, { day_care: 2500 }, { max_pets: 2 });
    const fullFromBefore = await sitter(null, { day_care: 2500 }, { max_pets: 2 });
    const oneAfterAnother = await sitter(null, { day_care: 2500 }, { max_pets: 2 });
    const asked = await sitter(null, { day_care: 2500 }, { max_pets: 2 });
    const before = await sitter(null, { day_care: 2500 }, { max_pets: 2 });
    await booked([
      // On the last day.
      { sitterId: dayCareFull, service: "day_care", status: "in-progress", from: 15, to: 15, pets: 2 },
      { sitterId: sharedWithBoarding, service: "boarding", from: 13, to: 14, pets: 1 },
      { sitterId: sharedWithBoarding, service: "day_care", from: 14, to: 14, pets: 1 },
      // Two pets on day 12 only, where the second stay starts.
      { sitterId: overlapOnOneDay, service: "day_care", from: 8, to: 12, pets: 1 },
      { sitterId: overlapOnOneDay, service: "day_care", from: 12, to: 13, pets: 1 },
      // Two pets on the first day, from stays that started before it.
      { sitterId: fullFromBefore, service: "boarding", from: 6, to: 10, pets: 1 },
      { sitterId: fullFromBefore, service: "day_care", from: 9, to: 11, pets: 1 },
      // One pet a day.
      { sitterId: oneAfterAnother, service: "day_care", from: 10, to: 11, pets: 1 },
      { sitterId: oneAfterAnother, service: "day_care", from: 12, to: 15, pets: 1 },
      { sitterId: asked, service: "day_care", status: "requested", from: 10, to: 15, pets: 2 },
      { sitterId: before, service: "day_care", from: 9, to: 9, pets: 2 },
    ]);
    const shown = idsOf(await deckOf({ ...stayDates(), filter_service: "day_care" }));
    expect(shown).toEqual(expect.arrayContaining([oneAfterAnother, asked, before]));
    for (const full of [dayCareFull, sharedWithBoarding, overlapOnOneDay, fullFromBefore]) {
      expect(shown).not.toContain(full);
    }
    const twoPets = idsOf(await deckOf({ ...stayDates(), filter_service: "day_care", filter_pets: 2 }));
    expect(twoPets).toEqual(expect.arrayContaining([asked, before]));
    expect(twoPets).not.toContain(oneAfterAnother);
  });

  it("leaves out a sitter with any stay on those days when the service is house sitting", async () => {
    const boarding = await sitter(null, { house_sitting: 5000, boarding: 3000 }, { max_pets: 3 });
    const free = await sitter(null, { house_sitting: 5000, boarding: 3000 }, { max_pets: 3 });
    await booked([
      { sitterId: boarding, service: "boarding", from: 11, to: 12, pets: 1 },
      { sitterId: free, service: "boarding", from: 16, to: 17, pets: 1 },
    ]);
    const shown = idsOf(await deckOf({ ...stayDates(), filter_service: "house_sitting" }));
    expect(shown).toContain(free);
    expect(shown).not.toContain(boarding);
    expect(idsOf(await deckOf({ ...stayDates(), filter_service: "boarding" }))).toContain(boarding);
  });

  it("shows only sitters who take at least that many pets at once", async () => {
    const one = await sitter(1500);
    const three = await sitter(1500, {}, { max_pets: 3 });
    const six = await sitter(null, { boarding: 3000 }, { max_pets: 6 });
    const threePets = idsOf(await deckOf({ filter_pets: 3 }));
    expect(threePets).toEqual(expect.arrayContaining([three, six]));
    expect(threePets).not.toContain(one);
    const sixPets = idsOf(await deckOf({ filter_pets: 6, filter_service: "boarding" }));
    expect(sixPets).toContain(six);
    expect(sixPets).not.toContain(three);
  });

  it("worldwide, newest first: the newest sitters who offer the service, however far down the order they are", async () => {
    // Thirty sitters newer than anyone else here; the walker is the fifth newest, the three oldest alone do day care.
    const newest: string[] = [];
    for (let second = 29; second >= 0; second -= 1) {
      const offer: Offer = second < 3 ? { day_care: 2500 } : second === 25 ? { walk: 700 } : {};
      newest.push(
        await sitter(1500, offer, { created_at: `2099-01-01T00:00:${String(second).padStart(2, "0")}.000Z` }),
      );
    }
    const { id } = await person("owner", { at: MADRID, columns: { ...columns, filter_sort: "newest" } });
    const pageOf = async (service: ServiceId | "any") => {
      await db.updateTable("users").set({ filter_service: service }).where("id", "=", id).execute();
      const viewer = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      const result = await deckFor(viewer, "sitters");
      if (result.status !== "cards") throw new Error(result.status);
      return idsOf(result.cards as SitterCard[]);
    };
    expect(await pageOf("any")).toEqual(newest.slice(0, 5));
    expect((await pageOf("walk"))[0]).toBe(newest[4]);
    expect((await pageOf("day_care")).slice(0, 3)).toEqual(newest.slice(27));
  });

  it("within a circle, newest first: care is tested on the nearest two hundred, then on everyone in it", async () => {
    // 203 sitters newer than anyone else here (2100), all within the circle; the three oldest alone do day care,
    // so they are past the first two hundred the circle's page tests care on.
    const newest: string[] = [];
    for (let n = 202; n >= 0; n -= 1) {
      const offer: Offer = n < 3 ? { day_care: 2500 } : n === 190 ? { walk: 700 } : {};
      const created = new Date(Date.UTC(2100, 0, 1, 0, 0, n)).toISOString();
      newest.push(await sitter(1500, offer, { created_at: created }));
    }
    const local = { browse_mode: "local" as const, filter_max_distance_km: 10, filter_sort: "newest" as const };
    expect(idsOf(await deckOf(local)).slice(0, 5)).toEqual(newest.slice(0, 5));
    expect(idsOf(await deckOf({ ...local, filter_service: "walk" }))[0]).toBe(newest[12]);
    expect(idsOf(await deckOf({ ...local, filter_service: "day_care" })).slice(0, 3)).toEqual(newest.slice(200));
  });

  it("nearest first through a crowd: the nearest who board, where many of the crowd do and where only a few do", async () => {
    // 150 sitters 1 to 4 km away, more than a ring is read whole with; one in three boards. Nobody else
    // of these tests lives near Lisbon.
    const crowd: string[] = [];
    for (let i = 0; i < 150; i += 1) {
      const offer: Offer = i % 3 === 0 ? { boarding: 3000 } : {};
      crowd.push(await sitter(1500, offer, {}, travel(LISBON, 1 + (i * 3) / 150, i * 37)));
    }
    const { id } = await person("owner", {
      at: LISBON,
      columns: {
        ...columns,
        browse_mode: "local",
        filter_max_distance_km: 50,
        filter_sort: "distance",
        filter_service: "boarding",
      },
    });
    const owner = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const nearestBoarders = async () => {
      const boarders = await db
        .selectFrom("users")
        .innerJoin("sitter_services", "sitter_services.sitter_id", "users.id")
        .select(["users.id", "latitude", "longitude"])
        .where("service", "=", "boarding")
        .where("users.id", "in", [...crowd, ...further])
        .execute();
      const km = (row: (typeof boarders)[number]) =>
        greatCircleKm(
          { latitude: owner.latitude!, longitude: owner.longitude! },
          { latitude: row.latitude!, longitude: row.longitude! },
        );
      return boarders
        .sort((a, b) => km(a) - km(b) || (a.id < b.id ? -1 : 1))
        .slice(0, 5)
        .map((row) => row.id);
    };
    const dealt = async () => {
      const result = await deckFor(owner, "sitters", 5);
      if (result.status !== "cards") throw new Error(result.status);
      return idsOf(result.cards as SitterCard[]);
    };
    const further: string[] = [];
    expect(await dealt()).toEqual(await nearestBoarders());

    // Only the farthest of the crowd boards now, and three more sitters 6 to 8 km away: fewer than a page
    // among any hundred of the crowd. Read as a first search again (nothing kept of where the page lay).
    await db.deleteFrom("sitter_services").where("sitter_id", "in", crowd).execute();
    for (const km of [6, 7, 8]) further.push(await sitter(null, { boarding: 3000 }, {}, travel(LISBON, km, 90)));
    await db
      .insertInto("sitter_services")
      .values({ sitter_id: crowd[149]!, service: "boarding", price_cents: 3000 })
      .execute();
    forgetHowToRead(owner.id);
    expect(await nearestBoarders()).toEqual([crowd[149], ...further]);
    expect(await dealt()).toEqual([crowd[149], ...further]);
  });

  it("counts each set filter as active", () => {
    expect(activeFilterCount(DEFAULT_FILTERS, true)).toBe(0);
    const all = {
      ...DEFAULT_FILTERS,
      service: "boarding" as const,
      firstDay: "2030-01-01",
      lastDay: "2030-01-05",
      pets: 2,
    };
    expect(activeFilterCount(all, true)).toBe(3);
  });
});
