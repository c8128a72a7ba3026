import type { Kysely } from "kysely";
import type { Database, VisitItemKind, VisitStatus } from "~db/schema";
import { db, json } from "~/platform/db.server";
import { QUICK_NOTES, type QuickNote } from "./machine";

export interface VisitReport {
  /** A stay's day, or '' for a single visit's report. */
  day: string;
  status: VisitStatus;
  checkedInAt: string;
  checkedOutAt: string | null;
  items: { position: number; kind: VisitItemKind; label: string; doneAt: string | null }[];
  quickNotes: QuickNote[];
  note: string;
  media: { key: string; previewKey: string | null; type: "image" | "video" }[];
  walk: { route: [number, number, number][] | null; distanceM: number; durationS: number } | null;
}

function parseList(text: string | null): unknown[] {
  try {
    const value = json<unknown>().read(text ?? "[]");
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** The days a booking has reports for, in order ('' alone for a booking that is not a stay). */
export async function reportDays(database: Kysely<Database>, bookingId: string): Promise<string[]> {
  const rows = await database
    .selectFrom("visits")
    .select("day")
    .where("booking_id", "=", bookingId)
    .orderBy("day")
    .execute();
  return rows.map((row) => row.day);
}

/** One report of a booking: a stay's update of `day`, or any other booking's report (day ''). */
export async function readReport(
  database: Kysely<Database> = db,
  bookingId: string,
  day: string,
): Promise<VisitReport | null> {
  const visit = await database
    .selectFrom("visits")
    .selectAll()
    .where("booking_id", "=", bookingId)
    .where("day", "=", day)
    .executeTakeFirst();
  if (!visit) return null;
  const items = await database
    .selectFrom("visit_items")
    .select(["position", "kind", "label", "done_at"])
    .where("booking_id", "=", bookingId)
    .where("day", "=", day)
    .orderBy("position")
    .execute();
  const media = await database
    .selectFrom("visit_media")
    .select(["key", "preview_key", "media_type"])
    .where("booking_id", "=", bookingId)
    .where("day", "=", day)
    .orderBy("created_at")
    .orderBy("key")
    .execute();
  return {
    day: visit.day,
    status: visit.status,
    checkedInAt: visit.checked_in_at,
    checkedOutAt: visit.checked_out_at,
    items: items.map((item) => ({ position: item.position, kind: item.kind, label: item.label, doneAt: item.done_at })),
    quickNotes: parseList(visit.quick_notes).filter((note): note is QuickNote =>
      (QUICK_NOTES as readonly unknown[]).includes(note),
    ),
    note: visit.note,
    media: media.map((row) => ({ key: row.key, previewKey: row.preview_key, type: row.media_type })),
    walk:
      visit.walk_distance_m !== null && visit.walk_duration_s !== null
        ? {
            route: visit.walk_route ? (parseList(visit.walk_route) as [number, number, number][]) : null,
            distanceM: visit.walk_distance_m,
            durationS: visit.walk_duration_s,
          }
        : null,
  };
}

/** An item left undone when the visit closed: shown (and emailed) as missed. */
export const isMissed = (report: Pick<VisitReport, "status">, item: { doneAt: string | null }) =>
  report.status === "checked-out" && !item.doneAt;
