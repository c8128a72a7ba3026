import { randomUUID } from "node:crypto";
import path from "node:path";
import { env } from "~/platform/env.server";
import { localFileStorage, type FileStorage } from "./file-storage.server";
import type { ProcessedImage } from "./images.server";
import { s3FileStorage } from "./s3-storage.server";

export { contentTypeOf, isMediaKey, localFileStorage } from "./file-storage.server";
export type { ByteRange, FileStorage, MediaStream } from "./file-storage.server";
export { s3FileStorage, type S3Settings } from "./s3-storage.server";

/** The store chosen by MEDIA_STORAGE: DATA_DIR/media (the default) or an S3-compatible bucket. */
export const fileStorage: FileStorage = env.s3
  ? s3FileStorage(env.s3)
  : localFileStorage(path.join(env.DATA_DIR, "media"));

export interface StoredImageKeys {
  cardKey: string;
  fullKey: string;
}

// Fresh random names: nothing about the person or the upload is in the key.
export async function storeImage(image: ProcessedImage): Promise<StoredImageKeys> {
  const id = randomUUID();
  const keys = { cardKey: `${id}-card.webp`, fullKey: `${id}-full.webp` };
  try {
    await fileStorage.put(keys.fullKey, image.full);
    await fileStorage.put(keys.cardKey, image.card);
  } catch (error) {
    await removeImage(keys);
    throw error;
  }
  return keys;
}

export async function storeVideo(data: Buffer, format: "mp4" | "webm"): Promise<string> {
  const key = `${randomUUID()}.${format}`;
  await fileStorage.put(key, data);
  return key;
}

export async function removeImage(keys: StoredImageKeys): Promise<void> {
  await Promise.all([fileStorage.remove(keys.cardKey), fileStorage.remove(keys.fullKey)]);
}
