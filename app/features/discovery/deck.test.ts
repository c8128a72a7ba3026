import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { DeckSort, PetType, Role, UserUpdate } from "~db/schema";
import { db } from "~/platform/db.server";
import { person, petOf, photoOf, type PersonOptions } from "~/testing/people";
import { travel } from "~/testing/places";
import { premiumWithCard } from "~/testing/bookings";
import {
  DECK_PAGE,
  deckFor,
  tabsFor,
  type DeckCard,
  type DeckResult,
  type DeckTab,
  type PetCard,
  type SitterCard,
} from "./deck.server";
import { greatCircleKm, type Coordinates } from "~/features/geo/index.server";
import { sitterDetailsSchema } from "~/features/profiles";
import { caresForColumns, updateSitterDetails } from "~/features/profiles/index.server";
import { blockPerson } from "~/features/safety/index.server";
import { startOver, swipe } from "./swipes.server";
import { advanceClock, DAY, resetClockAfterEach } from "~/testing/clock";

const MADRID: Coordinates = { latitude: 40.4168, longitude: -3.7038 };
const TOLEDO: Coordinates = { latitude: 39.8628, longitude: -4.0273 };
const BARCELONA: Coordinates = { latitude: 41.3874, longitude: 2.1686 };

interface MemberSpec extends Omit<PersonOptions, "columns" | "signedIn"> {
  role: Role;
  caresFor?: PetType[];
  rating?: number | null;
  reviews?: number;
  browseMode?: "local" | "global" | null;
  petType?: "all" | PetType;
  maxDistanceKm?: number;
  minRating?: number;
  maxPriceCents?: number | null;
  sortBy?: DeckSort;
}

/** Everyone lives in Madrid, browses globally and cares for dogs and cats unless a test says otherwise. */
async function member({
  role,
  at,
  caresFor,
  rating,
  reviews,
  browseMode,
  petType,
  maxDistanceKm,
  minRating,
  maxPriceCents,
  sortBy,
  ...options
}: MemberSpec): Promise<string> {
  const { id } = await person(role, {
    ...options,
    at: at === undefined ? MADRID : at,
    columns: {
      ...caresForColumns(caresFor ?? ["dog", "cat"]),
      rating_average: rating ?? null,
      review_count: reviews ?? (rating == null ? 0 : 1),
      browse_mode: browseMode === undefined ? "global" : browseMode,
      filter_pet_type: petType ?? "all",
      filter_max_distance_km: maxDistanceKm ?? 50,
      filter_min_rating: minRating ?? 0,
      filter_max_price_cents: maxPriceCents ?? null,
      filter_sort: sortBy ?? "distance",
    },
  });
  return id;
}

/** The person as the deck sees them: their row read back from the database. */
const viewer = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function cardsOf(id: string, tab: DeckTab, limit?: number): Promise<DeckCard[]> {
  const result: DeckResult = await deckFor(await viewer(id), tab, limit);
  if (result.status !== "cards") throw new Error(`expected cards, got ${result.status}`);
  return result.cards;
}

const sittersFor = async (id: string, limit?: number) => (await cardsOf(id, "sitters", limit)) as SitterCard[];
const petsFor = async (id: string, limit?: number) => (await cardsOf(id, "pets", limit)) as PetCard[];
const ids = (cards: DeckCard[]) => cards.map((card) => card.petId ?? card.userId);
const setFilters = (id: string, changes: UserUpdate) =>
  db.updateTable("users").set(changes).where("id", "=", id).execute();

resetClockAfterEach();

// The test file has one database: every test starts from no people (pets, swipes and photos go with them).
beforeEach(async () => {
  await db.deleteFrom("users").execute();
});

describe("who is in whose deck", () => {
  it("an owner sees verified sitters with a rate, never owners, themselves, unverified people or unfinished sitter profiles", async () => {
    const owner = await member({ role: "owner" });
    const sitter = await member({
      role: "sitter",
      name: "Sara",
      city: "Madrid",
      rateCents: 1800,
      caresFor: ["dog"],
      rating: 4.5,
      reviews: 7,
    });
    const both = await member({ role: "both" });
    await member({ role: "sitter", rateCents: null });
    await member({ role: "sitter", verified: false });
    await member({ role: "both", verified: false });
    await member({ role: "owner" });
    await member({ role: "both", rateCents: null });

    const cards = await sittersFor(owner, 50);
    expect(ids(cards).sort()).toEqual([sitter, both].sort());
    expect(cards.find((card) => card.userId === sitter)).toMatchObject({
      kind: "sitter",
      petId: null,
      name: "Sara",
      city: "Madrid",
      rating: 4.5,
      reviewCount: 7,
      hourlyRateCents: 1800,
      caresFor: ["dog"],
      photos: [],
    });
  });

  it("a sitter's card carries their years of experience and completed bookings (not requested or cancelled ones)", async () => {
    const owner = await member({ role: "owner" });
    const veteran = await member({ role: "sitter" });
    const beginner = await member({ role: "sitter" });
    await db.updateTable("users").set({ years_experience: 7 }).where("id", "=", veteran).execute();
    const at = new Date().toISOString();
    const end = new Date(Date.now() + 3_600_000).toISOString();
    for (const status of ["completed", "completed", "requested", "cancelled"] as const) {
      await db
        .insertInto("bookings")
        .values({
          id: randomUUID(),
          owner_id: owner,
          sitter_id: veteran,
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
    const cards = await sittersFor(owner, 50);
    expect(cards.find((card) => card.userId === veteran)).toMatchObject({ yearsExperience: 7, completedBookings: 2 });
    expect(cards.find((card) => card.userId === beginner)).toMatchObject({
      yearsExperience: null,
      completedBookings: 0,
    });
  });

  it("someone who is both owner and sitter never meets themselves", async () => {
    const me = await member({ role: "both" });
    const myPet = await petOf(me);
    const otherSitter = await member({ role: "sitter" });
    const otherOwner = await member({ role: "owner" });
    const theirPet = await petOf(otherOwner);

    expect(ids(await sittersFor(me, 50))).toEqual([otherSitter]);
    const pets = ids(await petsFor(me, 50));
    expect(pets).toEqual([theirPet]);
    expect(pets).not.toContain(myPet);
  });

  it("a sitter sees the pets of verified owners, each with its owner's name", async () => {
    const sitter = await member({ role: "sitter" });
    const owner = await member({ role: "owner", name: "Olga", city: "Madrid" });
    const rex = await petOf(owner, { name: "Rex", petType: "dog" });
    const mia = await petOf(owner, { name: "Mia", petType: "cat" });
    const unverified = await member({ role: "owner", verified: false });
    await petOf(unverified);
    const bothOwner = await member({ role: "both", name: "Bea" });
    const bobo = await petOf(bothOwner, { name: "Bobo" });
    await member({ role: "sitter" });

    const cards = await petsFor(sitter, 50);
    expect(ids(cards).sort()).toEqual([rex, mia, bobo].sort());
    expect(cards.find((card) => card.petId === rex)).toMatchObject({
      kind: "pet",
      userId: owner,
      name: "Rex",
      petType: "dog",
      ownerName: "Olga",
      city: "Madrid",
      breed: "Mixed",
      temperament: ["friendly"],
    });
    expect(cards.find((card) => card.petId === mia)).toMatchObject({
      kind: "pet",
      userId: owner,
      name: "Mia",
      petType: "cat",
      ownerName: "Olga",
    });
    expect(cards.find((card) => card.petId === bobo)).toMatchObject({ userId: bothOwner, ownerName: "Bea" });
  });

  it("cards carry their own photos in order: a sitter's profile photos, a pet's photos", async () => {
    const owner = await member({ role: "both" });
    const sitter = await member({ role: "both" });
    const sittersPet = await petOf(sitter);
    const second = await photoOf(sitter, { position: 2 });
    const first = await photoOf(sitter, { position: 1 });
    await photoOf(sitter, { petId: sittersPet, position: 1 });
    await photoOf(owner, { position: 1 });
    const pet = await petOf(owner);
    const petPhoto = await photoOf(owner, { petId: pet, position: 1 });

    const [sitterCard] = await sittersFor(owner);
    expect(sitterCard!.photos.map((photo) => photo.id)).toEqual([first, second]);
    expect(sitterCard!.photos[0]).toMatchObject({ width: 800, height: 600 });
    const [petCard] = await petsFor(sitter);
    expect(petCard!.petId).toBe(pet);
    expect(petCard!.photos.map((photo) => photo.id)).toEqual([petPhoto]);
  });

  it("tabs follow the role, and a tab outside one's role is empty", async () => {
    expect(tabsFor("both")).toEqual(["sitters", "pets"]);
    expect(tabsFor("owner")).toEqual(["sitters"]);
    expect(tabsFor("sitter")).toEqual(["pets"]);

    const owner = await member({ role: "owner" });
    await petOf(owner);
    const otherOwner = await member({ role: "owner" });
    await petOf(otherOwner);
    const sitter = await member({ role: "sitter" });
    expect(await deckFor(await viewer(owner), "pets")).toEqual({ status: "cards", cards: [] });
    expect(await deckFor(await viewer(sitter), "sitters")).toEqual({ status: "cards", cards: [] });
    expect(ids(await petsFor(sitter))).toHaveLength(2);
  });
});

describe("distance", () => {
  it("local mode keeps to the chosen radius; global mode shows everyone", async () => {
    const owner = await member({ role: "owner", at: MADRID, browseMode: "local", maxDistanceKm: 50 });
    const near = await member({ role: "sitter", at: travel(MADRID, 10, 0) });
    // 60 km north-east: inside the latitude/longitude square around a 50 km circle, but outside the circle.
    const corner = await member({ role: "sitter", at: travel(MADRID, 60, 45) });
    const toledo = await member({ role: "sitter", at: TOLEDO });
    const barcelona = await member({ role: "sitter", at: BARCELONA });

    const local = await sittersFor(owner);
    expect(ids(local)).toEqual([near]);
    expect(local[0]!.distanceKm).toBe(10);

    await setFilters(owner, { filter_max_distance_km: 100 });
    const wider = await sittersFor(owner);
    expect(ids(wider)).toEqual([near, corner, toledo]);
    expect(wider[1]!.distanceKm).toBe(60);
    expect(wider[2]!.distanceKm).toBe(Math.round(greatCircleKm(MADRID, TOLEDO)));
    expect(wider[2]!.distanceKm).toBeGreaterThan(60);
    expect(wider[2]!.distanceKm).toBeLessThan(80);

    await setFilters(owner, { browse_mode: "global", filter_max_distance_km: 50 });
    const everyone = await sittersFor(owner);
    expect(ids(everyone)).toEqual([near, corner, toledo, barcelona]);
    expect(everyone[3]!.distanceKm).toBe(Math.round(greatCircleKm(MADRID, BARCELONA)));
  });

  it("local mode holds the same radius for a sitter looking at pets", async () => {
    const sitter = await member({ role: "sitter", at: MADRID, browseMode: "local", maxDistanceKm: 50 });
    const nearOwner = await member({ role: "owner", at: travel(MADRID, 20, 90) });
    const nearPet = await petOf(nearOwner);
    const farOwner = await member({ role: "owner", at: BARCELONA });
    const farPet = await petOf(farOwner);

    const cards = await petsFor(sitter);
    expect(ids(cards)).toEqual([nearPet]);
    expect(cards[0]!.distanceKm).toBe(20);
    await setFilters(sitter, { browse_mode: "global" });
    expect(ids(await petsFor(sitter))).toEqual([nearPet, farPet]);
  });

  it("a sitter who moves is found where they live now and no longer where they were; one with no place is in no local deck", async () => {
    const owner = await member({ role: "owner", at: MADRID, browseMode: "local", maxDistanceKm: 50 });
    const barcelonaOwner = await member({ role: "owner", at: BARCELONA, browseMode: "local", maxDistanceKm: 50 });
    const mover = await member({ role: "sitter", at: travel(MADRID, 5, 90) });
    const stays = await member({ role: "sitter", at: travel(MADRID, 8, 0) });
    const moveTo = (id: string, place: Coordinates | null) =>
      setFilters(id, { latitude: place?.latitude ?? null, longitude: place?.longitude ?? null });
    expect(ids(await sittersFor(owner))).toEqual([mover, stays]);

    await moveTo(mover, travel(BARCELONA, 3, 180));
    expect(ids(await sittersFor(owner))).toEqual([stays]);
    expect(ids(await sittersFor(barcelonaOwner))).toEqual([mover]);
    expect((await sittersFor(barcelonaOwner))[0]!.distanceKm).toBe(3);

    await moveTo(mover, null);
    expect(ids(await sittersFor(barcelonaOwner))).toEqual([]);
    await moveTo(mover, travel(MADRID, 2, 270));
    expect(ids(await sittersFor(owner))).toEqual([mover, stays]);

    await db.deleteFrom("users").where("id", "=", stays).execute();
    expect(ids(await sittersFor(owner))).toEqual([mover]);
  });

  it("local mode without a known location asks for one", async () => {
    const owner = await member({ role: "owner", at: null, browseMode: "local" });
    await member({ role: "sitter" });
    expect(await deckFor(await viewer(owner), "sitters")).toEqual({ status: "needs-location" });
    const sitter = await member({ role: "sitter", at: null, browseMode: "local" });
    expect(await deckFor(await viewer(sitter), "pets")).toEqual({ status: "needs-location" });
  });

  it("global mode without a location still deals cards, newest first and without distances", async () => {
    const owner = await member({ role: "owner", at: null, browseMode: "global", sortBy: "distance" });
    const older = await member({ role: "sitter", at: BARCELONA, createdAt: "2026-01-01T00:00:00.000Z" });
    const newer = await member({ role: "sitter", at: TOLEDO, createdAt: "2026-02-01T00:00:00.000Z" });
    const cards = await sittersFor(owner);
    expect(ids(cards)).toEqual([newer, older]);
    expect(cards.map((card) => card.distanceKm)).toEqual([null, null]);
  });
});

describe("sorting", () => {
  it("by distance: nearest first", async () => {
    const owner = await member({ role: "owner", at: MADRID, sortBy: "distance" });
    const far = await member({ role: "sitter", at: travel(MADRID, 300, 45) });
    const nearest = await member({ role: "sitter", at: travel(MADRID, 5, 200) });
    const middle = await member({ role: "sitter", at: travel(MADRID, 40, 100) });
    const farther = await member({ role: "sitter", at: travel(MADRID, 120, 300) });
    const cards = await sittersFor(owner);
    expect(ids(cards)).toEqual([nearest, middle, farther, far]);
    expect(cards.map((card) => card.distanceKm)).toEqual([5, 40, 120, 300]);
  });

  it("by rating: highest average first, more reviews breaking ties, unrated last", async () => {
    const owner = await member({ role: "owner", sortBy: "rating" });
    const unrated = await member({ role: "sitter", at: travel(MADRID, 1) });
    const fair = await member({ role: "sitter", rating: 3.5, reviews: 4, at: travel(MADRID, 30) });
    const best = await member({ role: "sitter", rating: 4.8, reviews: 10, at: travel(MADRID, 40) });
    // The ids would put the less reviewed one first: only the review count can order them.
    const good = await member({
      id: `00000000${randomUUID().slice(8)}`,
      role: "sitter",
      rating: 4.2,
      reviews: 2,
      at: travel(MADRID, 20),
    });
    const goodAndKnown = await member({
      id: `ffffffff${randomUUID().slice(8)}`,
      role: "sitter",
      rating: 4.2,
      reviews: 9,
      at: travel(MADRID, 25),
    });
    expect(ids(await sittersFor(owner, 10))).toEqual([best, goodAndKnown, good, fair, unrated]);
  });

  it("by price: cheapest first", async () => {
    const owner = await member({ role: "owner", sortBy: "price" });
    const dear = await member({ role: "sitter", rateCents: 2500, at: travel(MADRID, 1) });
    const cheap = await member({ role: "sitter", rateCents: 1200, at: travel(MADRID, 30) });
    const middle = await member({ role: "sitter", rateCents: 1800, at: travel(MADRID, 10) });
    expect(ids(await sittersFor(owner))).toEqual([cheap, middle, dear]);
  });

  it("newest: latest sign-up first", async () => {
    const owner = await member({ role: "owner", sortBy: "newest" });
    const march = await member({ role: "sitter", createdAt: "2026-03-01T10:00:00.000Z", at: travel(MADRID, 30) });
    const may = await member({ role: "sitter", createdAt: "2026-05-01T10:00:00.000Z", at: travel(MADRID, 40) });
    const january = await member({ role: "sitter", createdAt: "2026-01-01T10:00:00.000Z", at: travel(MADRID, 1) });
    expect(ids(await sittersFor(owner))).toEqual([may, march, january]);
  });

  it("pets: newest pet first, and rating or price sorts (owners only) fall back to nearest first", async () => {
    const sitter = await member({ role: "sitter", at: MADRID, sortBy: "newest" });
    const nearOwner = await member({ role: "owner", at: travel(MADRID, 3) });
    const farOwner = await member({ role: "owner", at: travel(MADRID, 30) });
    const oldNear = await petOf(nearOwner, { createdAt: "2026-01-01T00:00:00.000Z" });
    const newFar = await petOf(farOwner, { createdAt: "2026-04-01T00:00:00.000Z" });
    expect(ids(await petsFor(sitter))).toEqual([newFar, oldNear]);
    for (const sort of ["rating", "price", "distance"] as const) {
      await setFilters(sitter, { filter_sort: sort });
      expect(ids(await petsFor(sitter)), sort).toEqual([oldNear, newFar]);
    }
  });
});

describe("filters", () => {
  it("pet type keeps the sitters who care for that kind of pet", async () => {
    const owner = await member({ role: "owner", petType: "dog" });
    const dogs = await member({ role: "sitter", caresFor: ["dog"], at: travel(MADRID, 1) });
    const cats = await member({ role: "sitter", caresFor: ["cat"], at: travel(MADRID, 2) });
    const both = await member({ role: "sitter", caresFor: ["dog", "cat"], at: travel(MADRID, 3) });
    expect(ids(await sittersFor(owner))).toEqual([dogs, both]);
    await setFilters(owner, { filter_pet_type: "cat" });
    expect(ids(await sittersFor(owner))).toEqual([cats, both]);
    await setFilters(owner, { filter_pet_type: "all" });
    expect(ids(await sittersFor(owner))).toEqual([dogs, cats, both]);
  });

  it("pet type follows what a sitter saves on their profile", async () => {
    const owner = await member({ role: "owner", petType: "cat" });
    const sitter = await member({ role: "sitter", caresFor: ["dog"], at: travel(MADRID, 1) });
    expect(ids(await sittersFor(owner))).toEqual([]);
    const saved = await updateSitterDetails(
      { id: sitter, role: "sitter" },
      sitterDetailsSchema.parse({ hourlyRate: "15", caresFor: ["dog", "cat"], experience: [] }),
    );
    expect(saved).toBe(true);
    expect(ids(await sittersFor(owner))).toEqual([sitter]);
    await updateSitterDetails(
      { id: sitter, role: "sitter" },
      sitterDetailsSchema.parse({ hourlyRate: "15", caresFor: ["dog"], experience: [] }),
    );
    expect(ids(await sittersFor(owner))).toEqual([]);
  });

  it("pet type narrows a sitter's pets too", async () => {
    const sitter = await member({ role: "sitter", petType: "cat" });
    const owner = await member({ role: "owner" });
    await petOf(owner, { petType: "dog" });
    const cat = await petOf(owner, { petType: "cat" });
    expect(ids(await petsFor(sitter))).toEqual([cat]);
  });

  it("minimum rating leaves out lower and unrated sitters", async () => {
    const owner = await member({ role: "owner", minRating: 4 });
    const great = await member({ role: "sitter", rating: 4.5, at: travel(MADRID, 1) });
    const exactly = await member({ role: "sitter", rating: 4, at: travel(MADRID, 2) });
    await member({ role: "sitter", rating: 3.5, at: travel(MADRID, 3) });
    await member({ role: "sitter", rating: null, at: travel(MADRID, 4) });
    expect(ids(await sittersFor(owner))).toEqual([great, exactly]);
  });

  it("maximum price leaves out dearer sitters", async () => {
    const owner = await member({ role: "owner", maxPriceCents: 2000 });
    const cheap = await member({ role: "sitter", rateCents: 1500, at: travel(MADRID, 1) });
    const exactly = await member({ role: "sitter", rateCents: 2000, at: travel(MADRID, 2) });
    await member({ role: "sitter", rateCents: 2500, at: travel(MADRID, 3) });
    expect(ids(await sittersFor(owner))).toEqual([cheap, exactly]);
    await setFilters(owner, { filter_max_price_cents: 0 });
    expect(await sittersFor(owner)).toEqual([]);
  });

  it("all filters at once: only sitters passing every one", async () => {
    const owner = await member({
      role: "owner",
      at: MADRID,
      browseMode: "local",
      maxDistanceKm: 50,
      petType: "dog",
      minRating: 4,
      maxPriceCents: 2000,
    });
    const fits = {
      role: "sitter" as const,
      at: travel(MADRID, 10),
      caresFor: ["dog" as const],
      rating: 4.5,
      rateCents: 1800,
    };
    const match = await member(fits);
    await member({ ...fits, at: TOLEDO });
    await member({ ...fits, caresFor: ["cat"] });
    await member({ ...fits, rating: 3.5 });
    await member({ ...fits, rating: null });
    await member({ ...fits, rateCents: 2500 });
    expect(ids(await sittersFor(owner, 50))).toEqual([match]);
  });
});

describe("swipes", () => {
  it("liked and passed sitters leave the deck; 'Start Over' brings them back", async () => {
    const owner = await member({ role: "owner" });
    const liked = await member({ role: "sitter", at: travel(MADRID, 1) });
    const passed = await member({ role: "sitter", at: travel(MADRID, 2) });
    const untouched = await member({ role: "sitter", at: travel(MADRID, 3) });
    const me = await viewer(owner);

    expect((await swipe(me, { userId: liked, petId: null }, "like")).status).toBe("recorded");
    expect((await swipe(me, { userId: passed, petId: null }, "pass")).status).toBe("recorded");
    expect(ids(await sittersFor(owner))).toEqual([untouched]);

    await startOver(owner);
    expect(ids(await sittersFor(owner))).toEqual([liked, passed, untouched]);
  });

  it("a like on one pet hides that pet, not the owner's other pets", async () => {
    const sitter = await member({ role: "sitter" });
    const owner = await member({ role: "owner" });
    const rex = await petOf(owner, { name: "Rex", createdAt: "2026-01-01T00:00:00.000Z" });
    const mia = await petOf(owner, { name: "Mia", petType: "cat", createdAt: "2026-01-02T00:00:00.000Z" });
    const me = await viewer(sitter);

    await swipe(me, { userId: owner, petId: rex }, "like");
    expect(ids(await petsFor(sitter))).toEqual([mia]);
    await swipe(me, { userId: owner, petId: mia }, "pass");
    expect(await petsFor(sitter)).toEqual([]);
    await startOver(sitter);
    expect(ids(await petsFor(sitter)).sort()).toEqual([rex, mia].sort());
  });

  it("for people who are both, a swipe on someone's pet and a swipe on them as a sitter are separate cards", async () => {
    const me = await member({ role: "both" });
    const other = await member({ role: "both" });
    const pet = await petOf(other);
    const myself = await viewer(me);

    await swipe(myself, { userId: other, petId: pet }, "pass");
    expect(await petsFor(me)).toEqual([]);
    expect(ids(await sittersFor(me))).toEqual([other]);

    await startOver(me);
    await swipe(myself, { userId: other, petId: null }, "pass");
    expect(await sittersFor(me)).toEqual([]);
    expect(ids(await petsFor(me))).toEqual([pet]);
  });

  it("one person's swipes do not change another's deck", async () => {
    const owner = await member({ role: "owner" });
    const otherOwner = await member({ role: "owner" });
    const sitter = await member({ role: "sitter" });
    await swipe(await viewer(owner), { userId: sitter, petId: null }, "pass");
    expect(await sittersFor(owner)).toEqual([]);
    expect(ids(await sittersFor(otherOwner))).toEqual([sitter]);
  });
});

describe("page size", () => {
  it(`deals ${DECK_PAGE} cards at a time, the nearest ones, however far apart people live`, async () => {
    const owner = await member({ role: "owner", at: MADRID, browseMode: "global", sortBy: "distance" });
    const distances = [3000, 900, 1.3, 2500, 150, 30, 1500, 5, 400, 2000, 60];
    const sitters = new Map<number, string>();
    for (const [i, km] of distances.entries())
      sitters.set(km, await member({ role: "sitter", at: travel(MADRID, km, i * 33) }));

    const cards = await sittersFor(owner);
    expect(cards).toHaveLength(DECK_PAGE);
    const nearest = [...distances].sort((a, b) => a - b).slice(0, DECK_PAGE);
    expect(ids(cards)).toEqual(nearest.map((km) => sitters.get(km)));
    expect(cards.map((card) => card.distanceKm)).toEqual(nearest.map((km) => Math.round(km)));
  });

  it(`deals ${DECK_PAGE} nearest even when the nearest are all far away`, async () => {
    const owner = await member({ role: "owner", at: MADRID, browseMode: "global", sortBy: "distance" });
    const distances = [2900, 1200, 3000, 1800, 2400, 2600, 1100];
    const sitters = new Map<number, string>();
    for (const [i, km] of distances.entries())
      sitters.set(km, await member({ role: "sitter", at: travel(MADRID, km, i * 51) }));
    const nearest = [...distances].sort((a, b) => a - b).slice(0, DECK_PAGE);
    expect(ids(await sittersFor(owner))).toEqual(nearest.map((km) => sitters.get(km)));

    // Read ring by ring, the rules still hold: one who blocked the owner and a suspended one are not dealt.
    await blockPerson(sitters.get(1100)!, owner);
    await db
      .updateTable("users")
      .set({ suspended_at: new Date().toISOString() })
      .where("id", "=", sitters.get(1800)!)
      .execute();
    const shown = [...distances].filter((km) => km !== 1100 && km !== 1800).sort((a, b) => a - b);
    expect(ids(await sittersFor(owner))).toEqual(shown.map((km) => sitters.get(km)));
  });

  it("reads a crowded town a narrower ring at a time: still the nearest, a premium sitter among them first", async () => {
    const owner = await member({ role: "owner", at: MADRID, browseMode: "global", sortBy: "distance" });
    // More sitters between 3 and 11 km than a ring is read whole with, none nearer.
    for (let i = 0; i < 150; i += 1) await member({ role: "sitter", at: travel(MADRID, 3 + (i * 8) / 150, i * 37) });
    const from = await viewer(owner);
    const stored = await db
      .selectFrom("users")
      .select(["id", "email", "latitude", "longitude"])
      .where("role", "=", "sitter")
      .execute();
    const km = (row: (typeof stored)[number]) =>
      greatCircleKm(
        { latitude: from.latitude!, longitude: from.longitude! },
        { latitude: row.latitude!, longitude: row.longitude! },
      );
    const nearest = stored.sort((a, b) => km(a) - km(b) || (a.id < b.id ? -1 : 1));
    expect(ids(await sittersFor(owner))).toEqual(nearest.slice(0, DECK_PAGE).map((row) => row.id));

    const premium = nearest[2]!;
    await premiumWithCard(premium);
    expect(ids(await sittersFor(owner))).toEqual(
      [premium, ...nearest.filter((row) => row !== premium)].slice(0, DECK_PAGE).map((row) => row.id),
    );

    // The rules hold in a crowded ring too: one who blocked the owner, a suspended one and a passed one are not dealt.
    const gone = [nearest[0]!, nearest[1]!, nearest[3]!];
    await blockPerson(gone[0]!.id, owner);
    await db
      .updateTable("users")
      .set({ suspended_at: new Date().toISOString() })
      .where("id", "=", gone[1]!.id)
      .execute();
    await swipe(await viewer(owner), { userId: gone[2]!.id, petId: null }, "pass");
    const shown = nearest.filter((row) => row !== premium && !gone.includes(row));
    expect(ids(await sittersFor(owner))).toEqual([premium, ...shown].slice(0, DECK_PAGE).map((row) => row.id));
  });

  it("passed on everyone near, deals the nearest beyond them, past a crowd that shares one spot", async () => {
    const owner = await member({ role: "owner", at: MADRID, browseMode: "global", sortBy: "distance" });
    const passed = [];
    for (let i = 0; i < 40; i += 1)
      passed.push(await member({ role: "sitter", at: travel(MADRID, 0.2 + i / 30, i * 47) }));
    // More than a ring is read whole with at one spot 4 km east, a few nearer all around, one further.
    for (let i = 0; i < 110; i += 1) await member({ role: "sitter", at: travel(MADRID, 4, 90) });
    for (const [i, km] of [2.5, 2.8, 3.1, 3.3, 3.6, 4.5].entries())
      await member({ role: "sitter", at: travel(MADRID, km, 20 + i * 61) });
    for (const id of passed) await swipe(await viewer(owner), { userId: id, petId: null }, "pass");

    const from = await viewer(owner);
    const stored = await db
      .selectFrom("users")
      .select(["id", "latitude", "longitude"])
      .where("role", "=", "sitter")
      .where("id", "not in", passed)
      .execute();
    const km = (row: (typeof stored)[number]) =>
      greatCircleKm(
        { latitude: from.latitude!, longitude: from.longitude! },
        { latitude: row.latitude!, longitude: row.longitude! },
      );
    const nearest = stored.sort((a, b) => km(a) - km(b) || (a.id < b.id ? -1 : 1)).slice(0, DECK_PAGE);
    const cards = await sittersFor(owner);
    expect(ids(cards)).toEqual(nearest.map((row) => row.id));
    expect(new Set(ids(cards)).size).toBe(DECK_PAGE);
  });

  it("a few near and a crowd a little further: the few, then the nearest of the crowd", async () => {
    const owner = await member({ role: "owner", at: MADRID, browseMode: "global", sortBy: "distance" });
    // Three within the first 2 km (one close to its edge, on a diagonal where its rows reach furthest
    // beyond it), one just past that edge, and more than a ring is read whole with between 3 and 15 km.
    const few = new Map<number, string>();
    for (const [i, km] of [0.6, 1.4, 1.97, 2.2].entries())
      few.set(km, await member({ role: "sitter", at: travel(MADRID, km, 45 + i * 90) }));
    const crowd = await Promise.all(
      Array.from({ length: 130 }, (_, i) => member({ role: "sitter", at: travel(MADRID, 3 + (i * 12) / 130, i * 29) })),
    );

    const from = await viewer(owner);
    const stored = await db
      .selectFrom("users")
      .select(["id", "latitude", "longitude"])
      .where("id", "in", crowd)
      .execute();
    const km = (row: (typeof stored)[number]) =>
      greatCircleKm(
        { latitude: from.latitude!, longitude: from.longitude! },
        { latitude: row.latitude!, longitude: row.longitude! },
      );
    const nearestOfCrowd = stored.sort((a, b) => km(a) - km(b) || (a.id < b.id ? -1 : 1)).map((row) => row.id);
    expect(ids(await sittersFor(owner))).toEqual([
      ...[0.6, 1.4, 1.97, 2.2].map((km) => few.get(km)),
      nearestOfCrowd[0],
    ]);

    // One of the few passed on: the next of the crowd takes its place.
    await swipe(await viewer(owner), { userId: few.get(1.4)!, petId: null }, "pass");
    expect(ids(await sittersFor(owner))).toEqual([
      ...[0.6, 1.97, 2.2].map((km) => few.get(km)),
      ...nearestOfCrowd.slice(0, 2),
    ]);
  });

  it("a crowd at one spot within the first 2 km and a few nearer around it: the few, wherever the crowd is", async () => {
    for (const bearing of [0, 90, 180, 270]) {
      await db.deleteFrom("users").execute();
      const owner = await member({ role: "owner", at: MADRID, browseMode: "global", sortBy: "distance" });
      await Promise.all(
        Array.from({ length: 110 }, () => member({ role: "sitter", at: travel(MADRID, 1.5, bearing) })),
      );
      const few: string[] = [];
      for (const [i, km] of [0.7, 0.9, 1.1, 1.2, 1.3].entries())
        few.push(await member({ role: "sitter", at: travel(MADRID, km, bearing + 70 + i * 55) }));
      expect(ids(await sittersFor(owner))).toEqual(few);
    }
    // Asked again (where the last page lay is then known): someone new nearer comes first; with three of
    // the few passed on, the nearest of the crowd follow the two left.
    const owner = (await db.selectFrom("users").select("id").where("role", "=", "owner").executeTakeFirstOrThrow()).id;
    const few = ids(await sittersFor(owner));
    const newcomer = await member({ role: "sitter", at: travel(MADRID, 0.2, 300) });
    expect(ids(await sittersFor(owner))).toEqual([newcomer, ...few.slice(0, 4)]);
    for (const id of [newcomer, few[0]!, few[2]!, few[4]!])
      await swipe(await viewer(owner), { userId: id, petId: null }, "pass");
    const crowd = await db
      .selectFrom("users")
      .select("id")
      .where("role", "=", "sitter")
      .where("id", "not in", [newcomer, ...few])
      .orderBy("id")
      .execute();
    expect(ids(await sittersFor(owner))).toEqual([few[1], few[3], ...crowd.slice(0, 3).map((row) => row.id)]);
  });

  it("passed on a thousand sitters near, deals the nearest one left, never a passed or blocked one", async () => {
    const owner = await member({
      role: "owner",
      at: MADRID,
      browseMode: "local",
      maxDistanceKm: 50,
      sortBy: "distance",
    });
    const passed: string[] = [];
    for (let batch = 0; batch < 10; batch += 1) {
      const made = Array.from({ length: 100 }, (_, i) =>
        member({ role: "sitter", at: travel(MADRID, 0.1 + (batch * 100 + i) / 400, i * 37) }),
      );
      passed.push(...(await Promise.all(made)));
    }
    await db
      .insertInto("swipes")
      .values(
        passed.map((id, i) => ({
          swiper_id: owner,
          target_user_id: id,
          target_pet_id: null,
          decision: i % 7 ? ("pass" as const) : ("like" as const),
          created_at: new Date().toISOString(),
        })),
      )
      .execute();
    const left = new Map<number, string>();
    for (const [i, km] of [3.4, 6, 2.9, 12, 4.8, 30, 8.5].entries())
      left.set(km, await member({ role: "sitter", at: travel(MADRID, km, i * 53) }));
    await blockPerson(left.get(4.8)!, owner);

    const nearest = [2.9, 3.4, 6, 8.5, 12].map((km) => left.get(km));
    expect(ids(await sittersFor(owner))).toEqual(nearest);
    // Asked again (the way of reading it is then known): the same page.
    expect(ids(await sittersFor(owner))).toEqual(nearest);
  });

  it("viewers in two cities with the same filters, in turn, each get their own nearest; a premium membership that ran out no longer comes first", async () => {
    const around = async (city: Coordinates) => {
      const sitters = new Map<number, string>();
      for (const [i, km] of [7, 1.5, 12, 4, 9, 2.5, 15].entries())
        sitters.set(km, await member({ role: "sitter", at: travel(city, km, i * 51) }));
      return [1.5, 2.5, 4, 7, 9, 12, 15].map((km) => sitters.get(km)!);
    };
    const inMadrid = await member({ role: "owner", at: MADRID, browseMode: "local", maxDistanceKm: 50 });
    const inBarcelona = await member({ role: "owner", at: BARCELONA, browseMode: "local", maxDistanceKm: 50 });
    const [madrid, barcelona] = [await around(MADRID), await around(BARCELONA)];
    const premium = barcelona[4]!;
    await premiumWithCard(await viewer(premium));

    for (let round = 0; round < 2; round += 1) {
      expect(ids(await sittersFor(inMadrid))).toEqual(madrid.slice(0, DECK_PAGE));
      expect(ids(await sittersFor(inBarcelona))).toEqual(
        [premium, ...barcelona.filter((id) => id !== premium)].slice(0, DECK_PAGE),
      );
    }
    advanceClock(40 * DAY);
    expect(ids(await sittersFor(inBarcelona))).toEqual(barcelona.slice(0, DECK_PAGE));
    expect(ids(await sittersFor(inMadrid))).toEqual(madrid.slice(0, DECK_PAGE));
  });

  it("worldwide with a filter that leaves few, reads those few and deals the nearest (premium first, passed and blocked ones gone)", async () => {
    const owner = await member({
      role: "owner",
      at: MADRID,
      browseMode: "global",
      sortBy: "distance",
      minRating: 5,
      maxPriceCents: 900,
    });
    const distances = [2800, 40, 900, 5, 1600, 300, 12];
    const fits = new Map<number, string>();
    for (const [i, km] of distances.entries())
      fits.set(km, await member({ role: "sitter", rating: 5, rateCents: 800, at: travel(MADRID, km, i * 41) }));
    // Nearer, but outside the filters.
    await member({ role: "sitter", rating: 4.9, rateCents: 800, at: travel(MADRID, 1) });
    await member({ role: "sitter", rating: 5, rateCents: 1000, at: travel(MADRID, 2) });
    const byDistance = [...distances].sort((a, b) => a - b).map((km) => fits.get(km)!);
    expect(ids(await sittersFor(owner))).toEqual(byDistance.slice(0, DECK_PAGE));

    await swipe(await viewer(owner), { userId: fits.get(5)!, petId: null }, "pass");
    await blockPerson(fits.get(12)!, owner);
    await premiumWithCard(await viewer(fits.get(2800)!));
    const gone = [fits.get(5), fits.get(12), fits.get(2800)];
    expect(ids(await sittersFor(owner))).toEqual(
      [fits.get(2800), ...byDistance.filter((id) => !gone.includes(id))].slice(0, DECK_PAGE),
    );
  });

  it(`deals ${DECK_PAGE} cards for the other sorts too`, async () => {
    const owner = await member({ role: "owner", sortBy: "price" });
    const rates = [2400, 900, 1500, 3000, 1100, 2000, 1300];
    const sitters = new Map<number, string>();
    for (const [i, rate] of rates.entries())
      sitters.set(rate, await member({ role: "sitter", rateCents: rate, at: travel(MADRID, i + 1) }));
    const cheapest = [...rates].sort((a, b) => a - b).slice(0, DECK_PAGE);
    expect(ids(await sittersFor(owner))).toEqual(cheapest.map((rate) => sitters.get(rate)));
  });
});
