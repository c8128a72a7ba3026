import type { Transaction } from "kysely";
import type { Database } from "~db/schema";
import { db, lockPeople } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { wallClockIn } from "~/platform/time";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { recordEvents } from "~/platform/events/events.server";
import { notify } from "~/features/notifications/index.server";
import { bookedPetNames } from "~/features/bookings/index.server";
import { listOf } from "~/platform/format";
import { postCard } from "~/features/messages/index.server";
import { checklistOfBooking } from "~/features/care/index.server";
import { isStayService } from "~/features/profiles";
import { coordinatesOfCity, type Coordinates } from "~/features/geo/index.server";
import {
  decideVisit,
  erasureOf,
  type VisitChange,
  type VisitEvent,
  type VisitFacts,
  type VisitRefusal,
} from "./machine";
import { reportEmail, reportCardText } from "./emails.server";
import { readReport } from "./report.server";
import { routeAround } from "./walk";
import { scrubbedText, type ErasedPerson } from "~/platform/personal-data.server";

export type VisitCommand = Exclude<VisitEvent, { type: "check-in" }> | { type: "check-in" };
export type StoredMedia = { type: "image" | "video"; key: string; previewKey: string | null };
export type VisitResult =
  { ok: true; changed: boolean } | { ok: false; refusal: VisitRefusal | "routeFarAway" | "notFound" };

const BOOKING_COLUMNS = [
  "b.id",
  "b.owner_id",
  "b.sitter_id",
  "b.pet_id",
  "b.pet_name",
  "b.status",
  "b.start_at",
  "b.end_at",
  "b.service_type",
  "s.time_zone as sitter_time_zone",
] as const;

/** A booking the person takes part in, with what the visit rules need; anyone else gets nothing. */
export async function visitBookingOf(userId: string, bookingId: string) {
  const booking = await db
    .selectFrom("bookings as b")
    .innerJoin("users as s", "s.id", "b.sitter_id")
    .select(BOOKING_COLUMNS)
    .where("b.id", "=", bookingId)
    .executeTakeFirst();
  return booking && (booking.owner_id === userId || booking.sitter_id === userId) ? booking : undefined;
}

/** Whether the booking's reports are a stay's daily updates (one per day) rather than one visit's. */
export const hasDailyUpdates = (booking: { service_type: string }) => isStayService(booking.service_type);

/**
 * Which report a sitter's action at `at` writes: a stay's update of the sitter's calendar day then, any other
 * booking's single report ('').
 */
export function reportDayAt(booking: { service_type: string; sitter_time_zone: string }, at: Date): string {
  return hasDailyUpdates(booking) ? wallClockIn(booking.sitter_time_zone, at).day : "";
}

export async function visitFacts(
  database: Transaction<Database> | typeof db,
  booking: VisitFacts["booking"] & { id: string },
  day: string,
): Promise<VisitFacts> {
  const visit = await database
    .selectFrom("visits")
    .select(["status", "walk_distance_m"])
    .where("booking_id", "=", booking.id)
    .where("day", "=", day)
    .executeTakeFirst();
  const items = await database
    .selectFrom("visit_items")
    .select(["position", "done_at"])
    .where("booking_id", "=", booking.id)
    .where("day", "=", day)
    .execute();
  const media = await database
    .selectFrom("visit_media")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("booking_id", "=", booking.id)
    .where("day", "=", day)
    .executeTakeFirstOrThrow();
  return { booking, visit: visit ?? null, items, mediaCount: Number(media.count) };
}

/**
 * Where a booking happens: the owner's home area, their stored position (a ~1 km cell) or else
 * their city in the gazetteer. Null when neither is known (an erased owner): then only the
 * route's own pace is checked.
 */
async function bookingPlace(ownerId: string): Promise<Coordinates | null> {
  const owner = await db
    .selectFrom("users")
    .select(["latitude", "longitude", "city", "time_zone"])
    .where("id", "=", ownerId)
    .executeTakeFirst();
  if (!owner) return null;
  if (owner.latitude !== null && owner.longitude !== null)
    return { latitude: owner.latitude, longitude: owner.longitude };
  return owner.city ? coordinatesOfCity(owner.city, owner.time_zone) : null;
}

/** The one writer of visits, visit_items and visit_media: every change is decided by machine.ts. */
export async function applyVisitEvent(
  bookingId: string,
  userId: string,
  command: VisitCommand,
  media?: StoredMedia,
): Promise<VisitResult> {
  const booking = await visitBookingOf(userId, bookingId);
  if (!booking) return { ok: false, refusal: "notFound" };
  // Read before the transaction: the database has one connection, held by the transaction.
  const event: VisitEvent =
    command.type === "check-in" ? { type: "check-in", checklist: await checklistOfBooking(booking) } : command;
  if (event.type === "add-media" && !media) throw new Error("add-media needs the stored file");
  if (event.type === "walk" && event.walk.route) {
    const place = await bookingPlace(booking.owner_id);
    if (place && !routeAround(event.walk.route, place)) return { ok: false, refusal: "routeFarAway" };
  }
  const at = now();
  const day = reportDayAt(booking, at);
  const result = await db.transaction().execute(async (trx): Promise<VisitResult> => {
    await lockPeople(trx, booking.sitter_id);
    const facts = await visitFacts(trx, booking, day);
    const decision = decideVisit(facts, userId, event, at);
    if (!decision.ok) return decision;
    if (!decision.change) return { ok: true, changed: false };
    await write(trx, { bookingId, day }, decision.change, media);
    await tell(trx, booking, day, decision.change);
    return { ok: true, changed: true };
  });
  if (result.ok && result.changed) deliverSoon();
  return result;
}

async function write(
  trx: Transaction<Database>,
  { bookingId, day }: { bookingId: string; day: string },
  change: VisitChange,
  media?: StoredMedia,
) {
  if (change.create) {
    await trx
      .insertInto("visits")
      .values({
        booking_id: bookingId,
        day,
        status: "checked-in",
        checked_in_at: change.visit!.checked_in_at!,
        checked_out_at: null,
        walk_route: null,
        walk_distance_m: null,
        walk_duration_s: null,
      })
      .execute();
    if (change.items?.length)
      await trx
        .insertInto("visit_items")
        .values(change.items.map((item) => ({ booking_id: bookingId, day, ...item, done_at: null })))
        .execute();
  } else if (change.visit && Object.keys(change.visit).length > 0) {
    await trx
      .updateTable("visits")
      .set(change.visit)
      .where("booking_id", "=", bookingId)
      .where("day", "=", day)
      .execute();
  }
  if (change.tick) {
    await trx
      .updateTable("visit_items")
      .set({ done_at: change.tick.at })
      .where("booking_id", "=", bookingId)
      .where("day", "=", day)
      .where("position", "=", change.tick.position)
      .where("done_at", "is", null)
      .execute();
  }
  for (const { position, label } of change.relabel ?? [])
    await trx
      .updateTable("visit_items")
      .set({ label })
      .where("booking_id", "=", bookingId)
      .where("day", "=", day)
      .where("position", "=", position)
      .execute();
  if (change.removeMedia)
    await trx.deleteFrom("visit_media").where("booking_id", "=", bookingId).where("day", "=", day).execute();
  if (change.addMedia && media) {
    await trx
      .insertInto("visit_media")
      .values({
        key: media.key,
        booking_id: bookingId,
        day,
        preview_key: media.previewKey,
        media_type: media.type,
        created_at: now().toISOString(),
      })
      .execute();
  }
}

async function tell(
  trx: Transaction<Database>,
  booking: { id: string; owner_id: string; sitter_id: string; pet_name: string; start_at: string },
  day: string,
  change: VisitChange,
) {
  // The owner's open booking page reloads on this (live updates); the sitter's other tabs too.
  const payload = { bookingId: booking.id };
  await recordEvents(
    [
      { userId: booking.owner_id, type: "booking", payload },
      { userId: booking.sitter_id, type: "booking", payload },
    ],
    trx,
  );
  if (!change.tellOwner) return;
  const people = await trx
    .selectFrom("users")
    .select(["id", "name", "email", "language", "time_zone"])
    .where("id", "in", [booking.owner_id, booking.sitter_id])
    .execute();
  const owner = people.find((person) => person.id === booking.owner_id)!;
  const sitter = people.find((person) => person.id === booking.sitter_id)!;
  const link = `/bookings/${booking.id}/visit`;
  // Every booked pet, named in the owner's language.
  const petNames = (await bookedPetNames([booking.id], trx)).get(booking.id) ?? [booking.pet_name];
  const pets = listOf(owner.language, petNames);
  await notify(
    {
      userId: owner.id,
      type: "booking_status_update",
      data: {
        kind: change.tellOwner === "checkedIn" ? "visitStarted" : "visitReport",
        name: sitter.name,
        pet: pets,
        start: booking.start_at,
      },
      link,
    },
    trx,
  );
  if (change.tellOwner !== "checkedOut") return;
  const report = await readReport(trx, booking.id, day);
  if (!report) return;
  await enqueueEmail(await reportEmail(owner, { sitter: sitter.name, pet: pets, bookingId: booking.id }, report), trx);
  await postCard(trx, {
    senderId: sitter.id,
    recipientId: owner.id,
    body: await reportCardText(owner, pets, report),
    link,
  });
}

/**
 * The visits of an erased person's bookings (either side), each changed as the machine's `erasureOf` says and
 * written like any other visit change; the keys of the files to delete once the erasure commits.
 */
export async function eraseVisitsOf(person: ErasedPerson, trx: Transaction<Database>): Promise<string[]> {
  const bookings = trx
    .selectFrom("bookings")
    .select("id")
    .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]));
  const visits = await trx
    .selectFrom("visits")
    .select(["booking_id", "day", "note", "walk_route"])
    .where("booking_id", "in", bookings)
    .execute();
  if (visits.length === 0) return [];
  const items = await trx
    .selectFrom("visit_items")
    .select(["booking_id", "day", "position", "label"])
    .where("booking_id", "in", bookings)
    .execute();
  const media = await trx
    .selectFrom("visit_media")
    .select(["key", "preview_key"])
    .where("booking_id", "in", bookings)
    .execute();
  const scrub = (text: string) => scrubbedText(text, person);
  for (const visit of visits) {
    const own = items.filter((item) => item.booking_id === visit.booking_id && item.day === visit.day);
    await write(trx, { bookingId: visit.booking_id, day: visit.day }, erasureOf(visit, own, scrub));
  }
  return media.flatMap((row) => [row.key, row.preview_key]).filter((key): key is string => key !== null);
}
