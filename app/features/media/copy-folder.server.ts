import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { isMediaKey, type FileStorage } from "./file-storage.server";

export interface FolderCopy {
  copied: number;
  alreadyThere: number;
  /** Files in the folder that are not media the app wrote (partial writes, strays): left where they are. */
  skipped: string[];
}

/**
 * Copies the photos and attachments of a media folder (DATA_DIR/media) into another store, such as
 * the bucket of MEDIA_STORAGE=s3, under the same keys. A file already there with the same size is not
 * sent again, so an interrupted copy can simply be run again; afterwards every file is checked.
 */
export async function copyMediaFolder(
  folder: string,
  target: FileStorage,
  log: (line: string) => void = () => {},
): Promise<FolderCopy> {
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const result: FolderCopy = { copied: 0, alreadyThere: 0, skipped: [] };
  const keys = names.filter((name) => {
    if (isMediaKey(name)) return true;
    result.skipped.push(name);
    return false;
  });
  for (const [index, key] of keys.entries()) {
    const { size } = await stat(path.join(folder, key));
    if ((await target.size(key)) === size) {
      result.alreadyThere += 1;
    } else {
      await target.put(key, await readFile(path.join(folder, key)));
      if ((await target.size(key)) !== size)
        throw new Error(`${key}: the copy in the target store does not have the folder's ${size} bytes`);
      result.copied += 1;
    }
    if ((index + 1) % 500 === 0) log(`media: ${index + 1} of ${keys.length} files`);
  }
  return result;
}
