// The visits' part of a person's data export and erasure: the visit reports of their bookings, with
// their photos and videos, and the route of a walk.
import { mentions, scrubbed, type PersonalDataSection } from "~/platform/personal-data.server";
import { visitReportsForExport } from "./export.server";

export const visitReportsSection: PersonalDataSection = {
  name: "visitReports",
  // As owner: the reports of their pets' visits; as sitter: the visits they made.
  async exportOf(userId) {
    return (await visitReportsForExport(userId)).reports;
  },
  async filesOf(userId) {
    const { reports } = await visitReportsForExport(userId);
    return reports.flatMap((report) =>
      report.media.map((media) => ({ key: media.key, name: `visits/${report.bookingId}/${media.key}` })),
    );
  },
  // The visit stays (times and checklist, for the booking's record); photos, videos and the walk's
  // route (where the sitter went, starting at the owner's home) go, whichever side is erased.
  async erase(person, trx) {
    const bookings = trx
      .selectFrom("bookings")
      .select("id")
      .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]));
    const media = await trx
      .selectFrom("visit_media")
      .select(["key", "preview_key"])
      .where("booking_id", "in", bookings)
      .execute();
    await trx.deleteFrom("visit_media").where("booking_id", "in", bookings).execute();
    await trx
      .updateTable("visits")
      .set({ walk_route: null })
      .where("booking_id", "in", bookings)
      .where("walk_route", "is not", null)
      .execute();
    await trx
      .updateTable("visits")
      .set({ note: scrubbed("note", person) })
      .where("booking_id", "in", bookings)
      .where(mentions("note", person))
      .execute();
    await trx
      .updateTable("visit_items")
      .set({ label: scrubbed("label", person) })
      .where("booking_id", "in", bookings)
      .where(mentions("label", person))
      .execute();
    return media.flatMap((row) => [row.key, row.preview_key]).filter((key): key is string => key !== null);
  },
};
