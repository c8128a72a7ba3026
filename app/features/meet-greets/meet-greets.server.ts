import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database, MeetGreet, MeetGreetPlace } from "~db/schema";
import { db, lockedForDecision, lockPeople } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { instantAt } from "~/platform/time";
import { notify } from "~/features/notifications/index.server";
import { isOwner, isSitter } from "~/features/profiles/index.server";
import { mayReach } from "~/features/safety/index.server";
import { meetGreetEmail } from "./emails.server";
import {
  REMIND_BEFORE_MS,
  decideMeetGreet,
  type MeetGreetActor,
  type MeetGreetChange,
  type MeetGreetEvent,
  type MeetGreetRefusal,
  type Side,
} from "./machine";

export interface ProposalInput {
  /** Made by the form, so sending it twice proposes once. */
  id: string;
  sitterId: string;
  day: string;
  time: string;
  place: MeetGreetPlace;
  placeNote: string;
}

export type MeetGreetResult =
  | { ok: true; meetGreet: MeetGreet }
  | { ok: false; refusal: MeetGreetRefusal | "notFound" | "sitterNotFound" | "duplicate" };

/** The sitter an owner may ask for a meet & greet: verified, a sitter, not blocked either way. */
export async function meetableSitter(ownerId: string, sitterId: string) {
  const sitter = await db
    .selectFrom("users")
    .select(["id", "name", "role", "time_zone"])
    .where("id", "=", sitterId)
    .where("email_verified_at", "is not", null)
    .executeTakeFirst();
  if (!sitter || !isSitter(sitter.role) || sitter.id === ownerId || !(await mayReach(ownerId, sitter.id))) return null;
  return { id: sitter.id, name: sitter.name, timeZone: sitter.time_zone };
}

export async function proposeMeetGreet(
  owner: { id: string; role: Database["users"]["role"] },
  input: ProposalInput,
): Promise<MeetGreetResult> {
  if (!isOwner(owner.role)) return { ok: false, refusal: "notYours" };
  const sitter = await meetableSitter(owner.id, input.sitterId);
  if (!sitter) return { ok: false, refusal: "sitterNotFound" };
  const startAt = instantAt(sitter.timeZone, input.day, input.time).toISOString();
  return db.transaction().execute(async (trx): Promise<MeetGreetResult> => {
    await lockPeople(trx, owner.id);
    const existing = await trx.selectFrom("meet_greets").selectAll().where("id", "=", input.id).executeTakeFirst();
    if (existing)
      return existing.owner_id === owner.id ? { ok: true, meetGreet: existing } : { ok: false, refusal: "duplicate" };
    const decision = decideMeetGreet(
      null,
      { side: "owner", userId: owner.id },
      { type: "propose", proposal: { startAt, place: input.place, placeNote: input.placeNote } },
      now(),
    );
    if (!decision.ok) return decision;
    const stamp = now().toISOString();
    const meetGreet = await trx
      .insertInto("meet_greets")
      .values({
        id: input.id,
        owner_id: owner.id,
        sitter_id: sitter.id,
        start_at: decision.change.set.start_at!,
        place: decision.change.set.place!,
        place_note: decision.change.set.place_note ?? "",
        status: "proposed",
        proposed_by: "owner",
        reminded_at: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tell(trx, meetGreet, decision.change.notify);
    return { ok: true, meetGreet };
  });
}

/** An answer, a new time or a cancellation by one of the two people; anyone else finds nothing. */
export async function actOnMeetGreet(
  user: { id: string },
  id: string,
  event: Exclude<MeetGreetEvent, { type: "propose" | "remind" }>,
): Promise<MeetGreetResult> {
  const result = await db.transaction().execute(async (trx): Promise<MeetGreetResult> => {
    const meeting = await trx
      .selectFrom("meet_greets")
      .selectAll()
      .where("id", "=", id)
      .$call(lockedForDecision)
      .executeTakeFirst();
    if (!meeting || (meeting.owner_id !== user.id && meeting.sitter_id !== user.id))
      return { ok: false, refusal: "notFound" };
    const side: Side = meeting.owner_id === user.id ? "owner" : "sitter";
    if (!(await mayReach(user.id, side === "owner" ? meeting.sitter_id : meeting.owner_id, trx)))
      return { ok: false, refusal: "notFound" };
    return apply(trx, meeting, { side, userId: user.id }, event);
  });
  if (result.ok) deliverSoon();
  return result;
}

async function apply(
  trx: Transaction<Database>,
  meeting: MeetGreet,
  actor: MeetGreetActor,
  event: MeetGreetEvent,
): Promise<MeetGreetResult> {
  const decision = decideMeetGreet(meeting, actor, event, now());
  if (!decision.ok) return decision;
  const updated = await trx
    .updateTable("meet_greets")
    .set({ ...decision.change.set, updated_at: now().toISOString() })
    .where("id", "=", meeting.id)
    // Only from the state the decision was made on: two answers at once change it once.
    .where("status", "=", meeting.status)
    .where("updated_at", "=", meeting.updated_at)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return { ok: false, refusal: "wrongState" };
  await tell(trx, updated, decision.change.notify);
  return { ok: true, meetGreet: updated };
}

async function tell(trx: Kysely<Database>, meeting: MeetGreet, notices: MeetGreetChange["notify"]) {
  if (notices.length === 0) return;
  const people = await trx
    .selectFrom("users")
    .select(["id", "name", "email", "language", "time_zone"])
    .where("id", "in", [meeting.owner_id, meeting.sitter_id])
    .execute();
  const personOf = (side: Side) =>
    people.find((person) => person.id === (side === "owner" ? meeting.owner_id : meeting.sitter_id))!;
  for (const { to, notice } of notices) {
    const reader = personOf(to);
    const other = personOf(to === "owner" ? "sitter" : "owner");
    await notify(
      {
        userId: reader.id,
        type: "booking_status_update",
        data: { kind: `meetGreet_${notice}`, name: other.name, start: meeting.start_at },
        link: `/meet/${meeting.id}`,
      },
      trx,
    );
    await enqueueEmail(await meetGreetEmail(reader, notice, { other: other.name, meeting }), trx);
  }
}

/** The scheduler's round: a reminder to both people 2 hours before each accepted meet & greet, once. */
export async function runDueMeetGreetReminders(): Promise<number> {
  const at = now();
  const due = await db
    .selectFrom("meet_greets")
    .selectAll()
    .where("status", "=", "accepted")
    .where("reminded_at", "is", null)
    .where("start_at", ">", at.toISOString())
    .where("start_at", "<=", new Date(at.getTime() + REMIND_BEFORE_MS).toISOString())
    .execute();
  let sent = 0;
  for (const meeting of due) {
    const result = await db.transaction().execute((trx) => apply(trx, meeting, { side: "system" }, { type: "remind" }));
    if (result.ok) sent += 1;
  }
  if (sent > 0) deliverSoon();
  return sent;
}

export interface MeetGreetView {
  id: string;
  as: Side;
  other: { id: string; name: string };
  status: MeetGreet["status"];
  startAt: string;
  timeZone: string;
  place: MeetGreetPlace;
  placeNote: string;
  /** The time on the table waits for this person's answer. */
  awaitsMe: boolean;
  can: { accept: boolean; decline: boolean; move: boolean; cancel: boolean };
  /** Over, accepted, and the viewer is the owner: offered to book the sitter. */
  bookNext: boolean;
}

function viewOf(meeting: MeetGreet & { other_name: string; sitter_time_zone: string }, userId: string): MeetGreetView {
  const as: Side = meeting.owner_id === userId ? "owner" : "sitter";
  const actor: MeetGreetActor = { side: as, userId };
  const at = now();
  const may = (event: MeetGreetEvent) => decideMeetGreet(meeting, actor, event, at).ok;
  const later = {
    startAt: new Date(at.getTime() + 2 * 24 * 3600_000).toISOString(),
    place: meeting.place,
    placeNote: "x",
  };
  return {
    id: meeting.id,
    as,
    other: { id: as === "owner" ? meeting.sitter_id : meeting.owner_id, name: meeting.other_name },
    status: meeting.status,
    startAt: meeting.start_at,
    timeZone: meeting.sitter_time_zone,
    place: meeting.place,
    placeNote: meeting.place_note,
    awaitsMe: meeting.status === "proposed" && meeting.proposed_by !== as,
    can: {
      accept: may({ type: "accept" }),
      decline: may({ type: "decline" }),
      move: may({ type: "move", proposal: later }),
      cancel: may({ type: "cancel" }),
    },
    bookNext: as === "owner" && meeting.status === "accepted" && new Date(meeting.start_at).getTime() <= at.getTime(),
  };
}

function meetingsWithNames(userId: string) {
  return db
    .selectFrom("meet_greets")
    .innerJoin("users as other", (join) =>
      join.on((eb) =>
        eb.or([
          eb.and([eb("meet_greets.owner_id", "=", userId), eb("other.id", "=", eb.ref("meet_greets.sitter_id"))]),
          eb.and([eb("meet_greets.sitter_id", "=", userId), eb("other.id", "=", eb.ref("meet_greets.owner_id"))]),
        ]),
      ),
    )
    .innerJoin("users as sitter", "sitter.id", "meet_greets.sitter_id")
    .selectAll("meet_greets")
    .select(["other.name as other_name", "sitter.time_zone as sitter_time_zone"]);
}

/** One meet & greet for one of its two people; null for anyone else. */
export async function meetGreetView(userId: string, id: string): Promise<MeetGreetView | null> {
  const row = await meetingsWithNames(userId).where("meet_greets.id", "=", id).executeTakeFirst();
  return row ? viewOf(row, userId) : null;
}

/** A person's meet & greets from a week ago on, soonest first: what their bookings page lists. */
export async function meetGreetsOf(userId: string): Promise<MeetGreetView[]> {
  const since = new Date(now().getTime() - 7 * 24 * 3600_000).toISOString();
  const rows = await meetingsWithNames(userId)
    .where("meet_greets.start_at", ">=", since)
    .where("meet_greets.status", "in", ["proposed", "accepted"])
    .orderBy("meet_greets.start_at")
    .limit(20)
    .execute();
  return rows.map((row) => viewOf(row, userId));
}

/** A new id for the proposal form. */
export const newProposalId = () => randomUUID();

const FIELD_OF: Partial<Record<string, "day" | "placeNote">> = {
  tooSoon: "day",
  tooFar: "day",
  placeNoteRequired: "placeNote",
  tooLong: "placeNote",
};

/** A refused proposal or answer as its form shows it: under the field it concerns, or above the form. */
export function meetGreetRefusalReply(refusal: Exclude<MeetGreetResult, { ok: true }>["refusal"]) {
  const message = `meetGreets:errors.${refusal === "notFound" ? "wrongState" : refusal}`;
  const field = FIELD_OF[refusal];
  return field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] };
}
