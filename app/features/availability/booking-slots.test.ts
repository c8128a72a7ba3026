import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Transaction } from "kysely";
import type { Database, SlotStatus } from "~db/schema";
import { db } from "~/platform/db.server";
import { bookSlot, coveringSlot, freeSlot } from "./booking-slots.server";

async function sitter() {
  const id = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("users")
    .values({ id, email: `${id}@example.com`, password_hash: "x", email_verified_at: at, name: "Sitter", phone: "600", city: "Madrid", postal_code: "28004", role: "sitter", bio: "", time_zone: "Europe/Madrid", created_at: at, updated_at: at })
    .execute();
  return id;
}

async function storedSlot(sitterId: string, startAt: string, endAt: string, status: SlotStatus = "available", bookingId: string | null = null) {
  await db.insertInto("availability_slots").values({ id: randomUUID(), sitter_id: sitterId, start_at: startAt, end_at: endAt, status, booking_id: bookingId, created_at: new Date().toISOString() }).execute();
}

const slotsOf = async (sitterId: string) =>
  (await db.selectFrom("availability_slots").select(["start_at", "end_at", "status", "booking_id"]).where("sitter_id", "=", sitterId).orderBy("start_at").execute()).map(
    (slot) => [slot.start_at.slice(11, 16), slot.end_at.slice(11, 16), slot.status, slot.booking_id] as const,
  );

const T = (time: string) => `2099-07-01T${time}:00.000Z`;
const inTransaction = <T>(work: (trx: Transaction<Database>) => Promise<T>) => db.transaction().execute(work);

describe("coveringSlot", () => {
  it("finds the available slot that holds the whole period, and nothing for a period it only partly holds", async () => {
    const sitterId = await sitter();
    await storedSlot(sitterId, T("09:00"), T("12:00"));
    await storedSlot(sitterId, T("13:00"), T("15:00"), "booked");
    expect(await coveringSlot(db, sitterId, T("09:00"), T("12:00"))).toMatchObject({ start_at: T("09:00"), end_at: T("12:00") });
    expect(await coveringSlot(db, sitterId, T("10:00"), T("11:00"))).toMatchObject({ start_at: T("09:00") });
    expect(await coveringSlot(db, sitterId, T("11:00"), T("13:00"))).toBeUndefined();
    expect(await coveringSlot(db, sitterId, T("13:00"), T("14:00"))).toBeUndefined();
    expect(await coveringSlot(db, await sitter(), T("10:00"), T("11:00"))).toBeUndefined();
  });
});

describe("bookSlot and freeSlot", () => {
  it("splits the slot into the time before, the booked time and the time after", async () => {
    const sitterId = await sitter();
    const b1 = randomUUID();
    await storedSlot(sitterId, T("09:00"), T("17:00"));
    const booked = await inTransaction((trx) => bookSlot(trx, { id: b1, sitter_id: sitterId, start_at: T("10:00"), end_at: T("12:00") }));
    expect(booked).toBe(true);
    expect(await slotsOf(sitterId)).toEqual([
      ["09:00", "10:00", "available", null],
      ["10:00", "12:00", "booked", b1],
      ["12:00", "17:00", "available", null],
    ]);
  });

  it("leaves no empty piece when the booking fills the slot from one edge", async () => {
    const sitterId = await sitter();
    const b1 = randomUUID();
    await storedSlot(sitterId, T("09:00"), T("12:00"));
    await inTransaction((trx) => bookSlot(trx, { id: b1, sitter_id: sitterId, start_at: T("09:00"), end_at: T("12:00") }));
    expect(await slotsOf(sitterId)).toEqual([["09:00", "12:00", "booked", b1]]);
  });

  it("refuses time no available slot holds, changing nothing", async () => {
    const sitterId = await sitter();
    const b1 = randomUUID();
    await storedSlot(sitterId, T("09:00"), T("12:00"));
    expect(await inTransaction((trx) => bookSlot(trx, { id: b1, sitter_id: sitterId, start_at: T("11:00"), end_at: T("13:00") }))).toBe(false);
    expect(await slotsOf(sitterId)).toEqual([["09:00", "12:00", "available", null]]);
  });

  it("freeing the booked time joins it with the available time on both sides", async () => {
    const sitterId = await sitter();
    const b1 = randomUUID();
    await storedSlot(sitterId, T("09:00"), T("17:00"));
    await inTransaction((trx) => bookSlot(trx, { id: b1, sitter_id: sitterId, start_at: T("10:00"), end_at: T("12:00") }));
    await inTransaction((trx) => freeSlot(trx, b1));
    expect(await slotsOf(sitterId)).toEqual([["09:00", "17:00", "available", null]]);
  });

  it("freeing joins only available neighbours: another booking next to it stays booked", async () => {
    const sitterId = await sitter();
    const [b0, b1] = [randomUUID(), randomUUID()];
    await storedSlot(sitterId, T("09:00"), T("10:00"), "booked", b0);
    await storedSlot(sitterId, T("10:00"), T("12:00"), "booked", b1);
    await storedSlot(sitterId, T("12:00"), T("13:00"));
    await inTransaction((trx) => freeSlot(trx, b1));
    expect(await slotsOf(sitterId)).toEqual([
      ["09:00", "10:00", "booked", b0],
      ["10:00", "13:00", "available", null],
    ]);
  });

  it("freeing a booking that holds no time changes nothing", async () => {
    const sitterId = await sitter();
    await storedSlot(sitterId, T("09:00"), T("12:00"));
    await inTransaction((trx) => freeSlot(trx, "no-such-booking"));
    expect(await slotsOf(sitterId)).toEqual([["09:00", "12:00", "available", null]]);
  });
});
