import { randomUUID } from "node:crypto";
import type { Pet } from "~db/schema";
import { db, jsonList } from "~/platform/db.server";
import { announceNewProfile } from "~/platform/events/deck-news.server";
import { nowIso } from "~/platform/clock.server";
import {
  addPhotos,
  adoptPendingUploads,
  listPhotos,
  removePhotoFiles,
  toPhotoView,
  type PhotoProblem,
  type PhotoView,
} from "~/features/media/index.server";
import type { PetInput } from "./schema";

export interface PetView {
  id: string;
  name: string;
  petType: Pet["pet_type"];
  age: string;
  breed: string;
  notes: string;
  temperament: string[];
  specialNeeds: string;
  energyLevel: Pet["energy_level"];
  photos: PhotoView[];
}

async function toPetView(pet: Pet): Promise<PetView> {
  const photos = await listPhotos({ userId: pet.owner_id, petId: pet.id });
  return {
    id: pet.id,
    name: pet.name,
    petType: pet.pet_type,
    age: pet.age,
    breed: pet.breed,
    notes: pet.notes,
    temperament: jsonList.read(pet.temperament),
    specialNeeds: pet.special_needs,
    energyLevel: pet.energy_level,
    photos: photos.map(toPhotoView),
  };
}

function columns(input: PetInput) {
  return {
    name: input.name,
    pet_type: input.petType,
    age: input.age,
    breed: input.breed,
    notes: input.notes,
    temperament: jsonList.write(input.temperament),
    special_needs: input.specialNeeds,
    energy_level: input.energyLevel,
  };
}

export async function listPets(ownerId: string): Promise<PetView[]> {
  const pets = await db
    .selectFrom("pets")
    .selectAll()
    .where("owner_id", "=", ownerId)
    .orderBy("created_at", "desc")
    .execute();
  return Promise.all(pets.map(toPetView));
}

export async function findOwnPet(ownerId: string, petId: string): Promise<PetView | null> {
  const pet = await db
    .selectFrom("pets")
    .selectAll()
    .where("id", "=", petId)
    .where("owner_id", "=", ownerId)
    .executeTakeFirst();
  return pet ? toPetView(pet) : null;
}

export const PET_FORM = "pet";

type CreateProblem = PhotoProblem | "media.pendingGone" | "validation.petPhotoRequired";

/** Photos are new files and/or the person's pending uploads of the pet form. If any is refused, no pet is left behind. */
export async function createPet(
  ownerId: string,
  input: PetInput,
  images: Buffer[],
  pendingIds: string[] = [],
): Promise<{ status: "created"; petId: string } | { status: "refused"; problem: CreateProblem }> {
  if (images.length === 0 && pendingIds.length === 0)
    return { status: "refused", problem: "validation.petPhotoRequired" };
  const petId = randomUUID();
  const owner = { userId: ownerId, petId };
  const at = nowIso();
  await db
    .insertInto("pets")
    .values({ id: petId, owner_id: ownerId, ...columns(input), created_at: at, updated_at: at })
    .execute();
  const undo = async () => {
    const photos = await listPhotos(owner);
    await db.deleteFrom("pets").where("id", "=", petId).execute();
    await removePhotoFiles(photos);
  };
  let added: Awaited<ReturnType<typeof addPhotos>> | Awaited<ReturnType<typeof adoptPendingUploads>>;
  try {
    added = await addPhotos(owner, images);
    if (added.status === "added") added = await adoptPendingUploads(owner, PET_FORM, pendingIds);
  } catch (error) {
    await undo();
    throw error;
  }
  if (added.status === "refused") {
    await undo();
    return added;
  }
  await db
    .updateTable("users")
    .set({ role: "both", acting_role: "owner", updated_at: nowIso() })
    .where("id", "=", ownerId)
    .where("role", "=", "sitter")
    .execute();
  await announceNewProfile(ownerId, "sitters");
  return { status: "created", petId };
}

export async function updatePet(ownerId: string, petId: string, input: PetInput): Promise<boolean> {
  const result = await db
    .updateTable("pets")
    .set({ ...columns(input), updated_at: nowIso() })
    .where("id", "=", petId)
    .where("owner_id", "=", ownerId)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function deletePet(ownerId: string, petId: string): Promise<boolean> {
  const photos = await listPhotos({ userId: ownerId, petId });
  const result = await db.deleteFrom("pets").where("id", "=", petId).where("owner_id", "=", ownerId).executeTakeFirst();
  if (result.numDeletedRows !== 1n) return false;
  await removePhotoFiles(photos);
  return true;
}
