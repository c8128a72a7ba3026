import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { dateTimeFormat, listOf } from "~/platform/format";
import { photoUrl } from "~/features/media/index.server";
import { bookedPetNames } from "~/features/bookings/index.server";
import { carePlansThroughBooking, type BookedCarePlan } from "~/features/care/index.server";
import { PLAN_OPENS_BEFORE_MS } from "~/features/care";
import { decideVisit } from "./machine";
import { isMissed, readReport, reportDays, type VisitReport } from "./report.server";
import { distanceText, durationText } from "./emails.server";
import { hasDailyUpdates, reportDayAt, visitBookingOf, visitFacts } from "./visits.server";
import { routeOutline } from "./walk";

export interface VisitPageData {
  booking: { id: string; petName: string; otherName: string; as: "owner" | "sitter"; status: string; when: string };
  /** Each booked pet's care plan, as the viewer may see it now. */
  plans: BookedCarePlan[] | null;
  /** When a sitter's view of the plan opens, while it is still closed. */
  planOpens: string | null;
  visit: VisitView | null;
  /** A stay: one update a day, of which `visit` is today's. */
  daily: boolean;
  /** A stay's updates of earlier days, newest first. */
  earlier: (VisitView & { day: string; dayLabel: string })[];
  can: { checkIn: boolean; act: boolean; checkOut: boolean; walk: boolean; media: boolean };
}

export interface VisitView {
  status: "checked-in" | "checked-out";
  checkedIn: string;
  checkedOut: string | null;
  items: {
    position: number;
    kind: "feeding" | "medication" | "walk";
    label: string;
    done: string | null;
    missed: boolean;
  }[];
  quickNotes: string[];
  note: string;
  media: { url: string; previewUrl: string; type: "image" | "video" }[];
  walk: { outline: string; distance: string; duration: string } | null;
}

/** A report as the page shows it, times in the reader's time zone. */
function reportView(report: VisitReport, time: Intl.DateTimeFormat, language: string): VisitView {
  return {
    status: report.status,
    checkedIn: time.format(new Date(report.checkedInAt)),
    checkedOut: report.checkedOutAt ? time.format(new Date(report.checkedOutAt)) : null,
    items: report.items.map((item) => ({
      position: item.position,
      kind: item.kind,
      label: item.label,
      done: item.doneAt ? time.format(new Date(item.doneAt)) : null,
      missed: isMissed(report, item),
    })),
    quickNotes: report.quickNotes,
    note: report.note,
    media: report.media.map((media) => ({
      url: photoUrl(media.key),
      previewUrl: photoUrl(media.previewKey ?? media.key),
      type: media.type,
    })),
    walk: report.walk && {
      outline: report.walk.route ? routeOutline(report.walk.route) : "",
      distance: distanceText(report.walk.distanceM, language),
      duration: durationText(report.walk.durationS, language),
    },
  };
}

/** Everything the visit page shows, for one of the booking's two people; null for anyone else. */
export async function visitPage(
  viewer: { id: string; time_zone: string },
  bookingId: string,
  language: string,
): Promise<VisitPageData | null> {
  const booking = await visitBookingOf(viewer.id, bookingId);
  if (!booking) return null;
  const as = booking.owner_id === viewer.id ? "owner" : "sitter";
  const other = await otherName(as === "owner" ? booking.sitter_id : booking.owner_id);
  const at = now();
  const time = dateTimeFormat(language, { timeStyle: "short", timeZone: viewer.time_zone });
  const moment = dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: viewer.time_zone });
  const plans = await carePlansThroughBooking(viewer.id, booking);
  const day = reportDayAt(booking, at);
  const report = await readReport(db, booking.id, day);
  const currentFacts = await visitFacts(db, booking, day);
  const allowed = (type: "check-in" | "details" | "check-out" | "walk" | "add-media") =>
    as === "sitter" &&
    decideVisit(
      currentFacts,
      viewer.id,
      type === "check-in"
        ? { type, checklist: [] }
        : type === "details"
          ? { type, quickNotes: [], note: "" }
          : type === "walk"
            ? { type, walk: { route: null, distanceM: 1, durationS: 60 } }
            : { type },
      at,
    ).ok;
  const planClosed =
    as === "sitter" &&
    !plans &&
    ["confirmed", "in-progress", "completed"].includes(booking.status) &&
    at.getTime() < new Date(booking.start_at).getTime() - PLAN_OPENS_BEFORE_MS;
  return {
    booking: {
      id: booking.id,
      petName: listOf(language, (await bookedPetNames([booking.id])).get(booking.id) ?? [booking.pet_name]),
      otherName: other,
      as,
      status: booking.status,
      when: moment.format(new Date(booking.start_at)),
    },
    plans,
    planOpens: planClosed ? moment.format(new Date(new Date(booking.start_at).getTime() - PLAN_OPENS_BEFORE_MS)) : null,
    visit: report && reportView(report, time, language),
    daily: hasDailyUpdates(booking),
    earlier: await earlierUpdates(booking.id, day, language, (earlier) => reportView(earlier, time, language)),
    can: {
      checkIn: allowed("check-in"),
      act: allowed("details"),
      checkOut: allowed("check-out"),
      walk: allowed("walk"),
      media: allowed("add-media"),
    },
  };
}

/** A stay's updates of other days than today's, newest first, each with its day in words. */
async function earlierUpdates(
  bookingId: string,
  today: string,
  language: string,
  view: (report: VisitReport) => VisitView,
): Promise<(VisitView & { day: string; dayLabel: string })[]> {
  if (today === "") return [];
  const dayLabel = dateTimeFormat(language, { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
  const days = (await reportDays(db, bookingId)).filter((day) => day !== today && day !== "").reverse();
  const reports = await Promise.all(days.map((day) => readReport(db, bookingId, day)));
  return reports
    .filter((report): report is VisitReport => report !== null)
    .map((report) => ({
      ...view(report),
      day: report.day,
      dayLabel: dayLabel.format(new Date(`${report.day}T12:00:00Z`)),
    }));
}

async function otherName(id: string): Promise<string> {
  const row = await db.selectFrom("users").select("name").where("id", "=", id).executeTakeFirst();
  return row?.name ?? "";
}
