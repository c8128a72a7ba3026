import { randomUUID } from "node:crypto";
import type { PendingUpload } from "~db/schema";
import { db, lockPeople } from "~/platform/db.server";
import { now, nowIso } from "~/platform/clock.server";
import { PHOTOS_MAX, processImages } from "./images.server";
import { appendPhotos, photoUrl, type PhotoOwner, type PhotoProblem } from "./photos.server";
import { removeImage, storeImage } from "./storage.server";

// Photos sent with a refused form (JavaScript off), so that the corrected form need not pick them again.
export const PENDING_UPLOAD_TTL_MS = 60 * 60 * 1000;

export interface PendingUploadView {
  id: string;
  cardUrl: string;
}

const keysOf = (upload: Pick<PendingUpload, "card_key" | "full_key">) => ({
  cardKey: upload.card_key,
  fullKey: upload.full_key,
});
const freshSince = () => new Date(now().getTime() - PENDING_UPLOAD_TTL_MS).toISOString();

export async function purgeExpiredPendingUploads(): Promise<number> {
  const expired = await db
    .deleteFrom("pending_uploads")
    .where("created_at", "<", freshSince())
    .returningAll()
    .execute();
  await Promise.all(expired.map((upload) => removeImage(keysOf(upload))));
  return expired.length;
}

/** A kept photo is its person's alone until the form that uses it is sent. */
export async function mayViewPendingUpload(viewerId: string, key: string): Promise<boolean> {
  const upload = await db
    .selectFrom("pending_uploads")
    .select("user_id")
    .where((eb) => eb.or([eb("card_key", "=", key), eb("full_key", "=", key)]))
    .executeTakeFirst();
  return !upload || upload.user_id === viewerId;
}

export async function listPendingUploads(userId: string, form: string): Promise<PendingUploadView[]> {
  await purgeExpiredPendingUploads();
  const rows = await db
    .selectFrom("pending_uploads")
    .select(["id", "card_key"])
    .where("user_id", "=", userId)
    .where("form", "=", form)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ id: row.id, cardUrl: photoUrl(row.card_key) }));
}

/** Re-encoded like every photo; a file that is not an image keeps nothing. */
export async function keepPendingUploads(
  userId: string,
  form: string,
  images: Buffer[],
): Promise<{ status: "kept" } | { status: "refused"; problem: PhotoProblem }> {
  if (images.length === 0) return { status: "kept" };
  if ((await listPendingUploads(userId, form)).length + images.length > PHOTOS_MAX)
    return { status: "refused", problem: "media.tooMany" };
  const result = await processImages(images);
  if (!result.ok) return { status: "refused", problem: result.problem };
  const { processed } = result;
  const at = nowIso();
  for (const image of processed) {
    const keys = await storeImage(image);
    await db
      .insertInto("pending_uploads")
      .values({
        id: randomUUID(),
        user_id: userId,
        form,
        card_key: keys.cardKey,
        full_key: keys.fullKey,
        width: image.width,
        height: image.height,
        created_at: at,
      })
      .execute();
  }
  return { status: "kept" };
}

export async function removePendingUpload(userId: string, form: string, id: string): Promise<boolean> {
  const removed = await db
    .deleteFrom("pending_uploads")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("form", "=", form)
    .returningAll()
    .executeTakeFirst();
  if (removed) await removeImage(keysOf(removed));
  return Boolean(removed);
}

/** Whether every id is a fresh pending upload of this person and form. */
export async function havePendingUploads(userId: string, form: string, ids: string[]): Promise<boolean> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return true;
  const found = await db
    .selectFrom("pending_uploads")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("id", "in", unique)
    .where("user_id", "=", userId)
    .where("form", "=", form)
    .where("created_at", ">=", freshSince())
    .executeTakeFirstOrThrow();
  return Number(found.count) === unique.length;
}

/** Turns pending uploads into the owner's photos (their files move as they are), all or none. */
export async function adoptPendingUploads(
  photoOwner: PhotoOwner,
  form: string,
  ids: string[],
): Promise<{ status: "added"; count: number } | { status: "refused"; problem: "media.pendingGone" | "media.tooMany" }> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return { status: "added", count: 0 };
  return db.transaction().execute(async (trx) => {
    await lockPeople(trx, photoOwner.userId);
    const uploads = await trx
      .selectFrom("pending_uploads")
      .selectAll()
      .where("id", "in", unique)
      .where("user_id", "=", photoOwner.userId)
      .where("form", "=", form)
      .where("created_at", ">=", freshSince())
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    if (uploads.length !== unique.length) return { status: "refused", problem: "media.pendingGone" } as const;
    const images = uploads.map((upload) => ({
      cardKey: upload.card_key,
      fullKey: upload.full_key,
      width: upload.width,
      height: upload.height,
    }));
    if (!(await appendPhotos(trx, photoOwner, images))) return { status: "refused", problem: "media.tooMany" } as const;
    await trx.deleteFrom("pending_uploads").where("id", "in", unique).execute();
    return { status: "added", count: uploads.length } as const;
  });
}
