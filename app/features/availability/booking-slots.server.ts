import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Booking, Database } from "~db/schema";
import { nowIso } from "~/platform/clock.server";

type Tx = Transaction<Database> | Kysely<Database>;
type BookedTime = Pick<Booking, "id" | "sitter_id" | "start_at" | "end_at">;

export function coveringSlot(database: Tx, sitterId: string, startAt: string, endAt: string) {
  return database
    .selectFrom("availability_slots")
    .selectAll()
    .where("sitter_id", "=", sitterId)
    .where("status", "=", "available")
    .where("start_at", "<=", startAt)
    .where("end_at", ">=", endAt)
    .executeTakeFirst();
}

export async function bookSlot(trx: Transaction<Database>, booking: BookedTime): Promise<boolean> {
  const slot = await coveringSlot(trx, booking.sitter_id, booking.start_at, booking.end_at);
  if (!slot) return false;
  const created = nowIso();
  await trx.deleteFrom("availability_slots").where("id", "=", slot.id).execute();
  const pieces = [
    { start_at: slot.start_at, end_at: booking.start_at, status: "available" as const, booking_id: null },
    { start_at: booking.start_at, end_at: booking.end_at, status: "booked" as const, booking_id: booking.id },
    { start_at: booking.end_at, end_at: slot.end_at, status: "available" as const, booking_id: null },
  ].filter((piece) => piece.start_at < piece.end_at);
  await trx
    .insertInto("availability_slots")
    .values(pieces.map((piece) => ({ ...piece, id: randomUUID(), sitter_id: booking.sitter_id, created_at: created })))
    .execute();
  return true;
}

export async function freeSlot(trx: Transaction<Database>, bookingId: string): Promise<void> {
  const booked = await trx
    .selectFrom("availability_slots")
    .selectAll()
    .where("booking_id", "=", bookingId)
    .executeTakeFirst();
  if (!booked) return;
  const neighbours = await trx
    .selectFrom("availability_slots")
    .selectAll()
    .where("sitter_id", "=", booked.sitter_id)
    .where("status", "=", "available")
    .where((eb) => eb.or([eb("end_at", "=", booked.start_at), eb("start_at", "=", booked.end_at)]))
    .execute();
  const startAt = neighbours.find((slot) => slot.end_at === booked.start_at)?.start_at ?? booked.start_at;
  const endAt = neighbours.find((slot) => slot.start_at === booked.end_at)?.end_at ?? booked.end_at;
  if (neighbours.length)
    await trx
      .deleteFrom("availability_slots")
      .where(
        "id",
        "in",
        neighbours.map((slot) => slot.id),
      )
      .execute();
  await trx
    .updateTable("availability_slots")
    .set({ status: "available", booking_id: null, start_at: startAt, end_at: endAt })
    .where("id", "=", booked.id)
    .execute();
}
