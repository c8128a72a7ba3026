import { randomUUID } from "node:crypto";
import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import type { Database, Photo } from "~db/schema";
import { db, lockPeople } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { PHOTOS_MAX, processImages } from "./images.server";
import { removeImage, storeImage } from "./storage.server";

export interface PhotoOwner {
  userId: string;
  petId: string | null;
}

export type PhotoProblem = "media.notAnImage" | "media.tooLarge" | "media.tooMany";

export const photoUrl = (key: string) => `/media/${key}`;

export interface PhotoView {
  id: string;
  cardUrl: string;
  fullUrl: string;
  width: number;
  height: number;
}

export function toPhotoView(photo: Pick<Photo, "id" | "card_key" | "full_key" | "width" | "height">): PhotoView {
  return {
    id: photo.id,
    cardUrl: photoUrl(photo.card_key),
    fullUrl: photoUrl(photo.full_key),
    width: photo.width,
    height: photo.height,
  };
}

export async function listPhotos(owner: PhotoOwner, database: Kysely<Database> = db): Promise<Photo[]> {
  let query = database.selectFrom("photos").selectAll().where("user_id", "=", owner.userId);
  query = owner.petId ? query.where("pet_id", "=", owner.petId) : query.where("pet_id", "is", null);
  return query.orderBy("position").execute();
}

// Images are re-encoded outside any transaction (it is slow); files of a refused or failed batch are removed again.
export async function addPhotos(
  owner: PhotoOwner,
  images: Buffer[],
  database: Kysely<Database> = db,
): Promise<{ status: "added"; count: number } | { status: "refused"; problem: PhotoProblem }> {
  if (images.length === 0) return { status: "added", count: 0 };
  if ((await listPhotos(owner, database)).length + images.length > PHOTOS_MAX)
    return { status: "refused", problem: "media.tooMany" };

  const result = await processImages(images);
  if (!result.ok) return { status: "refused", problem: result.problem };
  const { processed } = result;
  const stored: StoredImage[] = [];
  for (const image of processed)
    stored.push({ ...(await storeImage(image)), width: image.width, height: image.height });

  try {
    const added = await database.transaction().execute(async (trx) => appendPhotos(trx, owner, stored));
    if (!added) {
      await Promise.all(stored.map(removeImage));
      return { status: "refused", problem: "media.tooMany" };
    }
  } catch (error) {
    await Promise.all(stored.map(removeImage));
    throw error;
  }
  return { status: "added", count: stored.length };
}

export type StoredImage = { cardKey: string; fullKey: string; width: number; height: number };

/** Adds stored images after the owner's photos, in one transaction with the caller's checks; false when they would pass the limit. */
export async function appendPhotos(
  trx: Transaction<Database>,
  owner: PhotoOwner,
  images: StoredImage[],
): Promise<boolean> {
  await lockPeople(trx, owner.userId);
  const existing = await listPhotos(owner, trx);
  if (existing.length + images.length > PHOTOS_MAX) return false;
  const at = nowIso();
  await trx
    .insertInto("photos")
    .values(
      images.map((image, index) => ({
        id: randomUUID(),
        user_id: owner.userId,
        pet_id: owner.petId,
        position: existing.length + index,
        card_key: image.cardKey,
        full_key: image.fullKey,
        width: image.width,
        height: image.height,
        created_at: at,
      })),
    )
    .execute();
  return true;
}

export function findOwnPhoto(userId: string, photoId: string) {
  return db.selectFrom("photos").selectAll().where("id", "=", photoId).where("user_id", "=", userId).executeTakeFirst();
}

export async function deletePhoto(
  userId: string,
  photoId: string,
): Promise<"deleted" | "not-found" | "last-pet-photo"> {
  const removed = await db.transaction().execute(async (trx) => {
    await lockPeople(trx, userId);
    const photo = await trx
      .selectFrom("photos")
      .selectAll()
      .where("id", "=", photoId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!photo) return "not-found" as const;
    const siblings = await listPhotos({ userId, petId: photo.pet_id }, trx);
    if (photo.pet_id && siblings.length === 1) return "last-pet-photo" as const;
    await trx.deleteFrom("photos").where("id", "=", photo.id).execute();
    const rest = siblings.filter((other) => other.id !== photo.id);
    for (const [index, other] of rest.entries()) {
      if (other.position !== index)
        await trx.updateTable("photos").set({ position: index }).where("id", "=", other.id).execute();
    }
    return photo;
  });
  if (typeof removed === "string") return removed;
  await removeImage({ cardKey: removed.card_key, fullKey: removed.full_key });
  return "deleted";
}

export type PhotoMove = "main" | "earlier" | "later";

export async function movePhoto(userId: string, photoId: string, move: PhotoMove): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockPeople(trx, userId);
    const photo = await trx
      .selectFrom("photos")
      .selectAll()
      .where("id", "=", photoId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!photo) return false;
    const order = (await listPhotos({ userId, petId: photo.pet_id }, trx)).map((p) => p.id);
    const from = order.indexOf(photoId);
    const to = move === "main" ? 0 : move === "earlier" ? Math.max(0, from - 1) : Math.min(order.length - 1, from + 1);
    order.splice(from, 1);
    order.splice(to, 0, photoId);
    for (const [index, id] of order.entries()) {
      await trx.updateTable("photos").set({ position: index }).where("id", "=", id).execute();
    }
    return true;
  });
}

export async function removePhotoFiles(photos: Pick<Photo, "card_key" | "full_key">[]): Promise<void> {
  await Promise.all(photos.map((p) => removeImage({ cardKey: p.card_key, fullKey: p.full_key })));
}

/** The stored key of a person's first profile photo (card size) as a subquery on `personId`, a column such as "u.id"; null without one. */
export function profilePhotoKey(personId: string): RawBuilder<string | null> {
  return sql<
    string | null
  >`(select photo.card_key from photos photo where photo.user_id = ${sql.ref(personId)} and photo.pet_id is null order by photo.position limit 1)`;
}
