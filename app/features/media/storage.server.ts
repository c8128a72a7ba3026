import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "~/platform/env.server";
import type { ProcessedImage } from "./images.server";

export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
}

// Keys are chosen by the server; anything else (a path, a dot-dot, another extension) is refused.
const MEDIA_KEY = /^[a-z0-9-]{1,100}\.(webp|mp4|webm)$/;

const CONTENT_TYPES = { webp: "image/webp", mp4: "video/mp4", webm: "video/webm" } as const;

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1) as keyof typeof CONTENT_TYPES] ?? "application/octet-stream";
}

export function isMediaKey(key: string): boolean {
  return MEDIA_KEY.test(key);
}

function assertMediaKey(key: string): void {
  if (!isMediaKey(key)) throw new Error(`Invalid media key: ${JSON.stringify(key.slice(0, 100))}`);
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

export function localFileStorage(directory: string): FileStorage {
  const fileOf = (key: string) => {
    assertMediaKey(key);
    return path.join(directory, key);
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(directory, { recursive: true });
      // Written aside then renamed, so a crash mid-write never leaves a half file under the real key.
      const partial = `${file}.${randomUUID()}.partial`;
      try {
        await writeFile(partial, data);
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async read(key) {
      const file = fileOf(key);
      try {
        return await readFile(file);
      } catch (error) {
        if (isMissingFile(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

export const fileStorage: FileStorage = localFileStorage(path.join(env.DATA_DIR, "media"));

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
