import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, ReportReason, ReportResolution } from "~db/schema";
import { db, lockPeople } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { now, nowIso } from "~/platform/clock.server";
import { hasBlocked, isInactive } from "./rules.server";
import type { ReportableSubject } from "./schema";

export type ReportResult = "reported" | "not-found" | "own" | "duplicate" | "limit" | "inactive";

export interface ReportInput {
  subjectType: ReportableSubject;
  subjectId: string;
  reason: ReportReason;
  details: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The person a report would be about, if the reporter may see the thing at all: a profile of a
 * member who is neither suspended nor deleted, a message of a conversation the reporter is in, or any review.
 * What a block hides from the reporter (the blocker's profile, their messages, reviews by them or
 * about them) is as unknown as a forged id: "not found", the answer their profile gives.
 */
export async function reportedPersonOf(
  reporterId: string,
  subjectType: ReportableSubject,
  subjectId: string,
): Promise<string | null> {
  const person = await subjectPersonOf(reporterId, subjectType, subjectId);
  if (!person) return null;
  const people = person.shownWith ? [person.id, person.shownWith] : [person.id];
  for (const someone of people) if (someone !== reporterId && (await hasBlocked(someone, reporterId))) return null;
  return person.id;
}

async function subjectPersonOf(
  reporterId: string,
  subjectType: ReportableSubject,
  subjectId: string,
): Promise<{ id: string; shownWith?: string } | null> {
  if (subjectId.length === 0 || subjectId.length > 64) return null;
  if (subjectType === "profile") {
    const user = await db
      .selectFrom("users")
      .select(["id", "suspended_at", "deleted_at"])
      .where("id", "=", subjectId)
      .executeTakeFirst();
    return user && !user.suspended_at && !user.deleted_at ? { id: user.id } : null;
  }
  if (subjectType === "message") {
    if (!/^[1-9]\d{0,15}$/.test(subjectId)) return null;
    const message = await db
      .selectFrom("messages as m")
      .innerJoin("conversations as c", "c.id", "m.conversation_id")
      .select(["m.sender_id", "c.user_a_id", "c.user_b_id"])
      .where("m.id", "=", Number(subjectId))
      .executeTakeFirst();
    if (!message || (message.user_a_id !== reporterId && message.user_b_id !== reporterId)) return null;
    return {
      id: message.sender_id,
      shownWith: message.user_a_id === reporterId ? message.user_b_id : message.user_a_id,
    };
  }
  // A review is shown on the profile of the person reviewed.
  const review = await db
    .selectFrom("reviews")
    .select(["reviewer_id", "reviewed_id"])
    .where("id", "=", subjectId)
    .executeTakeFirst();
  return review ? { id: review.reviewer_id, shownWith: review.reviewed_id } : null;
}

export async function fileReport(reporterId: string, input: ReportInput): Promise<ReportResult> {
  const reportedId = await reportedPersonOf(reporterId, input.subjectType, input.subjectId);
  if (!reportedId) return "not-found";
  if (reportedId === reporterId) return "own";
  // A suspended member is already with the operators and a deleted one is gone: nothing more to report.
  if (await isInactive(reportedId)) return "inactive";
  return db.transaction().execute(async (trx): Promise<ReportResult> => {
    await lockPeople(trx, reporterId);
    const earlier = await trx
      .selectFrom("reports")
      .select("id")
      .where("reporter_id", "=", reporterId)
      .where("subject_type", "=", input.subjectType)
      .where("subject_id", "=", input.subjectId)
      .executeTakeFirst();
    if (earlier) return "duplicate";
    const since = new Date(now().getTime() - DAY_MS).toISOString();
    const recent = await trx
      .selectFrom("reports")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("reporter_id", "=", reporterId)
      .where("created_at", ">", since)
      .executeTakeFirstOrThrow();
    if (Number(recent.count) >= env.REPORTS_PER_DAY) return "limit";
    await trx
      .insertInto("reports")
      .values({
        id: randomUUID(),
        reporter_id: reporterId,
        reported_user_id: reportedId,
        subject_type: input.subjectType,
        subject_id: input.subjectId,
        reason: input.reason,
        details: input.details,
        created_at: now().toISOString(),
      })
      .execute();
    return "reported";
  });
}

/** Closes these reports if still open, with the operator's resolution. */
export async function closeReports(
  trx: Kysely<Database>,
  ids: string[],
  operatorId: string,
  resolution: ReportResolution,
): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable("reports")
    .set({ status: "closed", resolution, resolved_by: operatorId, resolved_at: nowIso() })
    .where("id", "in", ids)
    .where("status", "=", "open")
    .execute();
}
