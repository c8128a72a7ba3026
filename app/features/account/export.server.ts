import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { ZipFile } from "yazl";
import { db, lockPeople } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { fileStorage } from "~/features/media/index.server";
import type { PersonalDataSection } from "~/platform/personal-data.server";
import { personalDataSections } from "./sections.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface DataExport {
  id: string;
  createdAt: string;
  expiresAt: string;
}

/** The export asked for in the last 24 hours, whose link still works. */
export async function currentExport(userId: string): Promise<DataExport | null> {
  const row = await db
    .selectFrom("data_exports")
    .select(["id", "created_at", "expires_at"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now().toISOString())
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row ? { id: row.id, createdAt: row.created_at, expiresAt: row.expires_at } : null;
}

export type ExportRequest = { status: "ready"; export: DataExport } | { status: "too-soon"; export: DataExport };

/** One a day: a second request within 24 hours changes nothing and points at the first. */
export async function requestExport(userId: string): Promise<ExportRequest> {
  return db.transaction().execute(async (trx): Promise<ExportRequest> => {
    await lockPeople(trx, userId);
    const at = now();
    const recent = await trx
      .selectFrom("data_exports")
      .select(["id", "created_at", "expires_at"])
      .where("user_id", "=", userId)
      .where("created_at", ">", new Date(at.getTime() - DAY_MS).toISOString())
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    if (recent)
      return {
        status: "too-soon",
        export: { id: recent.id, createdAt: recent.created_at, expiresAt: recent.expires_at },
      };
    const created = {
      id: randomUUID(),
      user_id: userId,
      created_at: at.toISOString(),
      expires_at: new Date(at.getTime() + DAY_MS).toISOString(),
    };
    await trx.insertInto("data_exports").values(created).execute();
    return {
      status: "ready",
      export: { id: created.id, createdAt: created.created_at, expiresAt: created.expires_at },
    };
  });
}

/** Everything held about the person, as one JSON document, section by section. */
export async function personalData(
  userId: string,
  sections: readonly PersonalDataSection[] = personalDataSections,
): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = { exportedAt: now().toISOString() };
  for (const section of sections) {
    const value = await section.exportOf(userId, db);
    if (value !== undefined) data[section.name] = value;
  }
  return data;
}

/**
 * The archive of an export the asker owns and whose link still works, else null. Streamed: each
 * photo is read from storage only when the archive reaches it, so memory holds one file at a time.
 */
export async function exportArchive(
  userId: string,
  exportId: string,
  sections: readonly PersonalDataSection[] = personalDataSections,
): Promise<Readable | null> {
  const row = await db
    .selectFrom("data_exports")
    .select(["id", "expires_at"])
    .where("id", "=", exportId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row || Date.parse(row.expires_at) <= now().getTime()) return null;
  const data = await personalData(userId, sections);
  const files = (await Promise.all(sections.map((section) => section.filesOf?.(userId, db) ?? []))).flat();
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(data, null, 2)), "data.json");
  for (const file of files) {
    zip.addReadStreamLazy(file.name, { compress: false }, (callback) => {
      fileStorage.read(file.key).then(
        (content) => callback(null, Readable.from(content ? [content] : [])),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), Readable.from([])),
      );
    });
  }
  zip.end();
  return zip.outputStream as Readable;
}
