import type { CarePlan } from "~db/schema";
import { db } from "~/platform/db.server";
import { now, nowIso } from "~/platform/clock.server";
import { careLines, type CarePlanInput } from "./schema";
import { careWindowOpen } from "./window";

export type CarePlanView = {
  feeding: string;
  medication: string;
  walks: string;
  houseNotes: string;
  vetName: string;
  vetPhone: string;
  vetAddress: string;
  emergencyName: string;
  emergencyPhone: string;
};

export const EMPTY_CARE_PLAN: CarePlanView = {
  feeding: "",
  medication: "",
  walks: "",
  houseNotes: "",
  vetName: "",
  vetPhone: "",
  vetAddress: "",
  emergencyName: "",
  emergencyPhone: "",
};

function toView(row: CarePlan): CarePlanView {
  return {
    feeding: row.feeding,
    medication: row.medication,
    walks: row.walks,
    houseNotes: row.house_notes,
    vetName: row.vet_name,
    vetPhone: row.vet_phone,
    vetAddress: row.vet_address,
    emergencyName: row.emergency_name,
    emergencyPhone: row.emergency_phone,
  };
}

export const isEmptyPlan = (plan: CarePlanView) => Object.values(plan).every((value) => value === "");

async function planRow(petId: string) {
  return db.selectFrom("care_plans").selectAll().where("pet_id", "=", petId).executeTakeFirst();
}

/** The owner's own plan (empty when none was written); nobody else's. */
export async function ownCarePlan(ownerId: string, petId: string): Promise<CarePlanView | null> {
  const pet = await db
    .selectFrom("pets")
    .select("id")
    .where("id", "=", petId)
    .where("owner_id", "=", ownerId)
    .executeTakeFirst();
  if (!pet) return null;
  const row = await planRow(petId);
  return row ? toView(row) : { ...EMPTY_CARE_PLAN };
}

export async function saveCarePlan(ownerId: string, petId: string, input: CarePlanInput): Promise<boolean> {
  const pet = await db
    .selectFrom("pets")
    .select("id")
    .where("id", "=", petId)
    .where("owner_id", "=", ownerId)
    .executeTakeFirst();
  if (!pet) return false;
  const values = {
    feeding: careLines(input.feeding).join("\n"),
    medication: careLines(input.medication).join("\n"),
    walks: careLines(input.walks).join("\n"),
    house_notes: input.houseNotes,
    vet_name: input.vetName,
    vet_phone: input.vetPhone,
    vet_address: input.vetAddress,
    emergency_name: input.emergencyName,
    emergency_phone: input.emergencyPhone,
    updated_at: nowIso(),
  };
  await db
    .insertInto("care_plans")
    .values({ pet_id: petId, ...values })
    .onConflict((oc) => oc.column("pet_id").doUpdateSet(values))
    .execute();
  return true;
}

/** The pets of a booking whose plans it shows: those listed on it that still exist, else its first pet. */
async function bookedPets(booking: { id: string; pet_id: string | null; pet_name: string }) {
  const listed = await db
    .selectFrom("booking_pets")
    .select(["pet_id", "pet_name"])
    .where("booking_id", "=", booking.id)
    .where("pet_id", "is not", null)
    .orderBy("position")
    .execute();
  if (listed.length) return listed.map((pet) => ({ petId: pet.pet_id!, petName: pet.pet_name }));
  return booking.pet_id ? [{ petId: booking.pet_id, petName: booking.pet_name }] : [];
}

export interface BookedCarePlan {
  petName: string;
  plan: CarePlanView;
}

/**
 * The plan of each booked pet as the viewer may see it through one booking: its owner always; its sitter only
 * inside the window (careWindowOpen). Anyone else, or a sitter outside the window, gets null.
 */
export async function carePlansThroughBooking(
  viewerId: string,
  booking: {
    id: string;
    owner_id: string;
    sitter_id: string;
    pet_id: string | null;
    pet_name: string;
    status: string;
    start_at: string;
    end_at: string;
  },
): Promise<BookedCarePlan[] | null> {
  const mayRead = viewerId === booking.owner_id || (viewerId === booking.sitter_id && careWindowOpen(booking, now()));
  if (!mayRead) return null;
  const pets = await bookedPets(booking);
  if (pets.length === 0) return null;
  return Promise.all(pets.map(async (pet) => ({ petName: pet.petName, plan: await carePlanOfPet(pet.petId) })));
}

/** The visit's checklist for every booked pet, each line named after its pet when there are several. */
export async function checklistOfBooking(booking: {
  id: string;
  pet_id: string | null;
  pet_name: string;
}): Promise<ChecklistEntry[]> {
  const pets = await bookedPets(booking);
  const lists = await Promise.all(
    pets.map(async (pet) => ({ pet, entries: checklistOf(await carePlanOfPet(pet.petId)) })),
  );
  return lists.flatMap(({ pet, entries }) =>
    entries.map((entry) => (pets.length > 1 ? { ...entry, label: `${pet.petName}: ${entry.label}` } : entry)),
  );
}

/** Whether the viewer may read this pet's plan through any of their bookings now. */
export async function mayReadCarePlan(viewerId: string, petId: string): Promise<boolean> {
  const pet = await db.selectFrom("pets").select("owner_id").where("id", "=", petId).executeTakeFirst();
  if (!pet) return false;
  if (pet.owner_id === viewerId) return true;
  const bookings = await db
    .selectFrom("bookings")
    .select(["status", "start_at", "end_at"])
    .where((eb) =>
      eb.or([
        eb("pet_id", "=", petId),
        eb("id", "in", eb.selectFrom("booking_pets").select("booking_id").where("booking_pets.pet_id", "=", petId)),
      ]),
    )
    .where("sitter_id", "=", viewerId)
    .where("status", "in", ["confirmed", "in-progress", "completed"])
    .execute();
  const at = now();
  return bookings.some((booking) => careWindowOpen(booking, at));
}

export interface ChecklistEntry {
  kind: "feeding" | "medication" | "walk";
  label: string;
}

/** The visit's checklist: each feeding, each dose and each walk of the plan, in that order. */
export function checklistOf(plan: CarePlanView): ChecklistEntry[] {
  return [
    ...careLines(plan.feeding).map((label) => ({ kind: "feeding" as const, label })),
    ...careLines(plan.medication).map((label) => ({ kind: "medication" as const, label })),
    ...careLines(plan.walks).map((label) => ({ kind: "walk" as const, label })),
  ];
}

/** For the visit's own rules (check-in happens inside the window); never handed to a page as is. */
export async function carePlanOfPet(petId: string | null): Promise<CarePlanView> {
  const row = petId ? await planRow(petId) : undefined;
  return row ? toView(row) : { ...EMPTY_CARE_PLAN };
}
