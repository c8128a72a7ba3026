import { db } from "~/platform/db.server";
import { readReport } from "./report.server";

export interface ExportedVisitReport {
  bookingId: string;
  /** A stay's daily update: its day; null for a visit's single report. */
  day: string | null;
  role: "owner" | "sitter";
  pet: string;
  bookingStart: string;
  bookingEnd: string;
  status: "checked-in" | "checked-out";
  checkedInAt: string;
  checkedOutAt: string | null;
  checklist: { kind: string; label: string; doneAt: string | null; missed: boolean }[];
  quickNotes: string[];
  note: string;
  walk: { distanceMetres: number; durationSeconds: number; route: [number, number, number][] | null } | null;
  media: { type: "image" | "video"; key: string }[];
}

/**
 * The visit reports of a person's bookings, as owner or as sitter, for their data export: plain
 * JSON, and the keys of the files (originals, not previews) to put beside it.
 */
export async function visitReportsForExport(
  userId: string,
): Promise<{ reports: ExportedVisitReport[]; mediaKeys: string[] }> {
  const bookings = await db
    .selectFrom("visits as v")
    .innerJoin("bookings as b", "b.id", "v.booking_id")
    .select(["b.id", "b.owner_id", "b.pet_name", "b.start_at", "b.end_at", "v.day"])
    .where((eb) => eb.or([eb("b.owner_id", "=", userId), eb("b.sitter_id", "=", userId)]))
    .orderBy("b.start_at")
    .orderBy("v.day")
    .execute();
  const reports: ExportedVisitReport[] = [];
  for (const booking of bookings) {
    const report = await readReport(db, booking.id, booking.day);
    if (!report) continue;
    reports.push({
      bookingId: booking.id,
      day: booking.day || null,
      role: booking.owner_id === userId ? "owner" : "sitter",
      pet: booking.pet_name,
      bookingStart: booking.start_at,
      bookingEnd: booking.end_at,
      status: report.status,
      checkedInAt: report.checkedInAt,
      checkedOutAt: report.checkedOutAt,
      checklist: report.items.map((item) => ({
        kind: item.kind,
        label: item.label,
        doneAt: item.doneAt,
        missed: report.status === "checked-out" && !item.doneAt,
      })),
      quickNotes: report.quickNotes,
      note: report.note,
      walk: report.walk && {
        distanceMetres: report.walk.distanceM,
        durationSeconds: report.walk.durationS,
        route: report.walk.route,
      },
      media: report.media.map((media) => ({ type: media.type, key: media.key })),
    });
  }
  return { reports, mediaKeys: reports.flatMap((report) => report.media.map((media) => media.key)) };
}

/** Visit files are shown only to the booking's two people; null when the key is not a visit's. */
export async function mayViewVisitMedia(viewerId: string, key: string): Promise<boolean> {
  const row = await db
    .selectFrom("visit_media as m")
    .innerJoin("bookings as b", "b.id", "m.booking_id")
    .select(["b.owner_id", "b.sitter_id"])
    .where((eb) => eb.or([eb("m.key", "=", key), eb("m.preview_key", "=", key)]))
    .executeTakeFirst();
  return !row || row.owner_id === viewerId || row.sitter_id === viewerId;
}
