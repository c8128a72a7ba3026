import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";

/** The names of each booking's pets, in the order the owner listed them. */
export async function bookedPetNames(
  bookingIds: readonly string[],
  executor: Kysely<Database> = db,
): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  if (bookingIds.length === 0) return names;
  const rows = await executor
    .selectFrom("booking_pets")
    .select(["booking_id", "pet_name"])
    .where("booking_id", "in", [...new Set(bookingIds)])
    .orderBy("booking_id")
    .orderBy("position")
    .execute();
  for (const row of rows) names.set(row.booking_id, [...(names.get(row.booking_id) ?? []), row.pet_name]);
  return names;
}

/** The pets of one booking that still exist (a deleted pet keeps only its name), in order. */
export async function bookedPetIds(bookingId: string, executor: Kysely<Database> = db): Promise<string[]> {
  const rows = await executor
    .selectFrom("booking_pets")
    .select("pet_id")
    .where("booking_id", "=", bookingId)
    .where("pet_id", "is not", null)
    .orderBy("position")
    .execute();
  return rows.map((row) => row.pet_id!);
}
