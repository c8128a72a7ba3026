import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { personalDataSections } from "~/features/account/sections.server";
import { db } from "~/platform/db.server";
import { listOf } from "~/platform/format";
import { resetClockAfterEach } from "~/testing/clock";
import { ownerWithPet, requestInput, sitterWithSlot } from "~/testing/bookings";
import { person, petOf } from "~/testing/people";
import { decide, priceOf, type NewBooking } from "./machine";
import { bookingMoney } from "./money";
import { requestBooking, requestRefusalReply } from "./requests.server";

resetClockAfterEach();

async function sitterTaking(maxPets: number, extraPetCents: number, rateCents = 2000) {
  const sitter = await sitterWithSlot({ rateCents });
  await db
    .updateTable("users")
    .set({ max_pets: maxPets, extra_pet_cents: extraPetCents })
    .where("id", "=", sitter.id)
    .execute();
  return sitter;
}

async function ownerWithPets(names: string[]) {
  const owner = await ownerWithPet();
  const more = [];
  for (const name of names) more.push(await petOf(owner.id, { name }));
  return { owner, petIds: [owner.petId, ...more] };
}

const bookingsOf = (ownerId: string) =>
  db.selectFrom("bookings").select("id").where("owner_id", "=", ownerId).execute();
const petsOf = (bookingId: string) =>
  db
    .selectFrom("booking_pets")
    .select(["position", "pet_id", "pet_name"])
    .where("booking_id", "=", bookingId)
    .orderBy("position")
    .execute();

describe("the price of several pets", () => {
  it("adds the extra-pet price per hour for each pet after the first, the fee 20 % of it all", () => {
    expect(priceOf(2000, 3)).toEqual({ subtotal: 6000, fee: 1200, total: 7200 });
    for (let pets = 1; pets <= 6; pets++) {
      const subtotal = 2000 * 3 + (pets - 1) * 3 * 500;
      expect(priceOf(2000, 3, pets, 500)).toEqual({
        subtotal,
        fee: Math.round(subtotal * 0.2),
        total: subtotal + Math.round(subtotal * 0.2),
      });
    }
    // A sitter who asks nothing more for extra pets.
    expect(priceOf(1500, 2, 4, 0)).toEqual(priceOf(1500, 2));
  });

  it("books two dogs at the server's price, keeps both in order with the extra-pet price, and splits the money on it", async () => {
    const sitter = await sitterTaking(2, 750);
    const { owner, petIds } = await ownerWithPets(["Luna"]);
    const result = await requestBooking(owner, requestInput(sitter.id, petIds, sitter.day, "10:00", 2));
    expect(result).toMatchObject({
      status: "created",
      booking: {
        pet_id: petIds[0],
        pet_name: "Rex",
        extra_pet_cents: 750,
        subtotal_cents: 2 * 2000 + 2 * 750,
        fee_cents: 1100,
        total_cents: 6600,
      },
    });
    if (result.status !== "created") throw new Error("refused");
    expect(await petsOf(result.booking.id)).toEqual([
      { position: 0, pet_id: petIds[0], pet_name: "Rex" },
      { position: 1, pet_id: petIds[1], pet_name: "Luna" },
    ]);
    expect(bookingMoney(result.booking)).toMatchObject({
      priceCents: 6600,
      sitterKeepsCents: 5500,
      platformFeeCents: 1100,
    });
    // Both people's data exports list every pet booked and the extra-pet price.
    const bookingsSection = personalDataSections.find((section) => section.name === "bookings")!;
    for (const who of [owner.id, sitter.id])
      expect(await bookingsSection.exportOf(who, db)).toEqual([
        expect.objectContaining({ id: result.booking.id, pets: ["Rex", "Luna"], extra_pet_cents: 750 }),
      ]);
    // A deleted pet leaves its name on the booking.
    await db.deleteFrom("pets").where("id", "=", petIds[1]!).execute();
    expect((await petsOf(result.booking.id))[1]).toEqual({ position: 1, pet_id: null, pet_name: "Luna" });
  });

  it("names the pets the way each language lists things", () => {
    expect(listOf("en", ["Rex", "Luna"])).toBe("Rex and Luna");
    expect(listOf("es", ["Rex", "Luna", "Bella"])).toBe("Rex, Luna y Bella");
    expect(listOf("de", ["Rex"])).toBe("Rex");
  });
});

describe("refusals of the pets chosen", () => {
  it("refuses no pet, too many, another person's, an unknown id and the same pet twice, writing nothing", async () => {
    const sitter = await sitterTaking(2, 500);
    const { owner, petIds } = await ownerWithPets(["Luna", "Bella"]);
    const stranger = await person("owner");
    const strangersPet = await petOf(stranger.id, { name: "Max" });
    const ask = (pets: string[]) => requestBooking(owner, requestInput(sitter.id, pets, sitter.day, "10:00", 2));
    expect(await ask([])).toEqual({ status: "refused", reason: "noPets" });
    expect(await ask(petIds)).toEqual({ status: "refused", reason: "tooManyPets" });
    expect(await ask([petIds[0]!, strangersPet])).toEqual({ status: "refused", reason: "petNotFound" });
    expect(await ask([randomUUID()])).toEqual({ status: "refused", reason: "petNotFound" });
    expect(await ask([petIds[0]!, petIds[0]!])).toEqual({ status: "refused", reason: "samePetTwice" });
    expect(await bookingsOf(owner.id)).toEqual([]);
    expect(await db.selectFrom("booking_pets").select("booking_id").where("pet_id", "in", petIds).execute()).toEqual(
      [],
    );
    // Each refusal is told under the pets field.
    for (const reason of ["noPets", "tooManyPets", "petNotFound", "samePetTwice"] as const)
      expect(Object.keys(requestRefusalReply(reason).fieldErrors ?? {})).toEqual(["petIds"]);
  });

  it("a sitter who takes one pet refuses a second", async () => {
    const sitter = await sitterTaking(1, 0);
    const { owner, petIds } = await ownerWithPets(["Luna"]);
    expect(await requestBooking(owner, requestInput(sitter.id, petIds, sitter.day, "10:00", 2))).toEqual({
      status: "refused",
      reason: "tooManyPets",
    });
  });
});

describe("the machine's create", () => {
  const base: NewBooking = {
    id: "b1",
    owner_id: "o1",
    sitter_id: "s1",
    pet_id: "p1",
    pet_name: "Rex",
    notes: "",
    start_at: "2030-01-01T10:00:00.000Z",
    end_at: "2030-01-01T12:00:00.000Z",
    hours: 2,
    hourly_rate_cents: 2000,
    payment_provider: "test",
    extra_pet_cents: 500,
  };
  const owner = { kind: "owner", userId: "o1" } as const;
  const at = new Date("2029-12-31T00:00:00Z");

  it("prices each listed pet and keeps the list", () => {
    const pets = [
      { id: "p1", name: "Rex" },
      { id: "p2", name: "Luna" },
      { id: "p3", name: "Bella" },
    ];
    const decision = decide(null, owner, { type: "requested", booking: base, pets }, at);
    expect(decision).toMatchObject({
      ok: true,
      change: { pets, create: { subtotal_cents: 4000 + 2 * 2 * 500, fee_cents: 1200, total_cents: 7200 } },
    });
  });

  it("without a list, books the one pet of the booking", () => {
    expect(decide(null, owner, { type: "requested", booking: base }, at)).toMatchObject({
      ok: true,
      change: { pets: [{ id: "p1", name: "Rex" }], create: { subtotal_cents: 4000, total_cents: 4800 } },
    });
  });

  it("refuses an empty list, a pet twice, more than six, or a first pet that is not the booking's", () => {
    const pet = (id: string) => ({ id, name: id });
    for (const pets of [
      [],
      [pet("p1"), pet("p1")],
      ["p1", "p2", "p3", "p4", "p5", "p6", "p7"].map(pet),
      [pet("p2"), pet("p1")],
    ])
      expect(decide(null, owner, { type: "requested", booking: base, pets }, at)).toEqual({
        ok: false,
        refusal: "wrongState",
      });
  });
});
