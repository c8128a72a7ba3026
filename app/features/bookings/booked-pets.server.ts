import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { isOwner } from "~/features/profiles/index.server";

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

export type PetRefusal = "noPets" | "samePetTwice" | "tooManyPets" | "petNotFound";

/**
 * The owner's pets named by `petIds`, in that order, for a booking with a sitter taking `maxPets` at once.
 * Another person's pet and an id that names nothing are refused alike.
 */
export async function ownersPets(
  executor: Kysely<Database>,
  owner: { id: string; role: Database["users"]["role"] },
  petIds: readonly string[],
  maxPets: number,
): Promise<{ id: string; name: string }[] | { refusal: PetRefusal }> {
  if (petIds.length === 0) return { refusal: "noPets" };
  if (new Set(petIds).size !== petIds.length) return { refusal: "samePetTwice" };
  if (petIds.length > maxPets) return { refusal: "tooManyPets" };
  if (!isOwner(owner.role)) return { refusal: "petNotFound" };
  const found = await executor
    .selectFrom("pets")
    .select(["id", "name"])
    .where("id", "in", [...petIds])
    .where("owner_id", "=", owner.id)
    .execute();
  const pets = petIds.map((id) => found.find((pet) => pet.id === id));
  if (pets.some((pet) => !pet)) return { refusal: "petNotFound" };
  return pets as { id: string; name: string }[];
}
