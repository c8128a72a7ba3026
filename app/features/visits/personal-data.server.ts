// The visits' part of a person's data export and erasure: the visit reports of their bookings, with
// their photos and videos, and the route of a walk.
import type { PersonalDataSection } from "~/platform/personal-data.server";
import { visitReportsForExport } from "./export.server";
import { eraseVisitsOf } from "./visits.server";

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
    return eraseVisitsOf(person, trx);
  },
};
