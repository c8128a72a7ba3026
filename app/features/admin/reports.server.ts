import type { Transaction } from "kysely";
import type { Database, ReportReason, ReportResolution, ReportSubject } from "~db/schema";
import { db, lockedForDecision, lockPeople } from "~/platform/db.server";
import { recordAudit } from "~/platform/audit.server";
import { nowIso } from "~/platform/clock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { photoUrl } from "~/features/media/index.server";
import { accountNoticeEmail } from "./emails.server";
import { finishSuspension, suspendIn } from "./suspension.server";
import { closeReports } from "~/features/safety/index.server";
import { hideMessage } from "~/features/messages/index.server";
import { hideReview } from "~/features/reviews/index.server";

export const REPORT_ACTIONS = ["dismiss", "hide", "warn", "suspend"] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export type ReportStatus = "open" | "closed";
export type ResolveResult = "done" | "not-found" | "closed" | "not-hideable" | "already-suspended" | "self";

export async function openReportCount(): Promise<number> {
  const row = await db
    .selectFrom("reports")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("status", "=", "open")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export type ReportedThing =
  | { kind: "profile"; name: string; bio: string }
  | {
      kind: "message";
      body: string;
      sentAt: string;
      hidden: boolean;
      media: { url: string; previewUrl: string; type: "image" | "video" } | null;
    }
  | { kind: "review"; rating: number; comment: string; hidden: boolean }
  | { kind: "booking"; petName: string; startAt: string; status: string }
  | { kind: "missing" };

export interface QueuedReport {
  id: string;
  createdAt: string;
  status: ReportStatus;
  resolution: ReportResolution | null;
  resolvedAt: string | null;
  reason: ReportReason;
  words: string;
  subjectType: ReportSubject;
  subjectId: string;
  reporter: { id: string; name: string };
  reported: { id: string; name: string; suspended: boolean };
  thing: ReportedThing;
}

const PAGE = 50;

/** The queue, newest first: each report with what was reported, read from its own table. */
export async function listReports(
  status: ReportStatus,
  { reportedUserId, limit = PAGE }: { reportedUserId?: string; limit?: number } = {},
): Promise<QueuedReport[]> {
  let query = db
    .selectFrom("reports as r")
    .innerJoin("users as reporter", "reporter.id", "r.reporter_id")
    .innerJoin("users as reported", "reported.id", "r.reported_user_id")
    .select([
      "r.id",
      "r.created_at",
      "r.status",
      "r.resolution",
      "r.resolved_at",
      "r.reason",
      "r.details",
      "r.subject_type",
      "r.subject_id",
      "reporter.id as reporter_id",
      "reporter.name as reporter_name",
      "reported.id as reported_id",
      "reported.name as reported_name",
      "reported.bio as reported_bio",
      "reported.suspended_at as reported_suspended_at",
    ])
    .where("r.status", "=", status);
  if (reportedUserId) query = query.where("r.reported_user_id", "=", reportedUserId);
  const rows = await query.orderBy("r.created_at", "desc").orderBy("r.id", "desc").limit(limit).execute();

  const ids = (type: ReportSubject) => rows.filter((row) => row.subject_type === type).map((row) => row.subject_id);
  const messageIds = ids("message").map(Number).filter(Number.isSafeInteger);
  const [messages, reviews, bookings] = await Promise.all([
    messageIds.length ? db.selectFrom("messages").selectAll().where("id", "in", messageIds).execute() : [],
    ids("review").length
      ? db
          .selectFrom("reviews")
          .select(["id", "rating", "comment", "hidden_at"])
          .where("id", "in", ids("review"))
          .execute()
      : [],
    ids("booking").length
      ? db
          .selectFrom("bookings")
          .select(["id", "pet_name", "start_at", "status"])
          .where("id", "in", ids("booking"))
          .execute()
      : [],
  ]);
  const thingOf = (row: (typeof rows)[number]): ReportedThing => {
    if (row.subject_type === "profile") return { kind: "profile", name: row.reported_name, bio: row.reported_bio };
    if (row.subject_type === "message") {
      const message = messages.find((m) => String(m.id) === row.subject_id);
      if (!message) return { kind: "missing" };
      const media =
        message.media_key && message.media_type
          ? {
              url: photoUrl(message.media_key),
              previewUrl: photoUrl(message.media_preview_key ?? message.media_key),
              type: message.media_type,
            }
          : null;
      return {
        kind: "message",
        body: message.body,
        sentAt: message.created_at,
        hidden: Boolean(message.hidden_at),
        media,
      };
    }
    if (row.subject_type === "review") {
      const review = reviews.find((r) => r.id === row.subject_id);
      return review
        ? { kind: "review", rating: review.rating, comment: review.comment, hidden: Boolean(review.hidden_at) }
        : { kind: "missing" };
    }
    const booking = bookings.find((b) => b.id === row.subject_id);
    return booking
      ? { kind: "booking", petName: booking.pet_name, startAt: booking.start_at, status: booking.status }
      : { kind: "missing" };
  };
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    status: row.status,
    resolution: row.resolution,
    resolvedAt: row.resolved_at,
    reason: row.reason,
    words: row.details,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    reporter: { id: row.reporter_id, name: row.reporter_name },
    reported: { id: row.reported_id, name: row.reported_name, suspended: Boolean(row.reported_suspended_at) },
    thing: thingOf(row),
  }));
}

async function openReportsWhere(
  trx: Transaction<Database>,
  filter: { subjectType: ReportSubject; subjectId: string } | { reportedUserId: string },
): Promise<string[]> {
  let query = trx.selectFrom("reports").select("id").where("status", "=", "open");
  query =
    "reportedUserId" in filter
      ? query.where("reported_user_id", "=", filter.reportedUserId)
      : query.where("subject_type", "=", filter.subjectType).where("subject_id", "=", filter.subjectId);
  return (await query.execute()).map((row) => row.id);
}

/**
 * One operator decision on an open report, audited with its reason. Hiding closes every open
 * report of that content; suspending closes every open report about that person.
 */
export async function resolveReport(
  operatorId: string,
  reportId: string,
  action: ReportAction,
  reason: string,
): Promise<ResolveResult> {
  let suspended: { userId: string; tasks: string[] } | null = null;
  const result = await db.transaction().execute(async (trx): Promise<ResolveResult> => {
    // The reported person first (a suspension locks them), then the report: the order every decision keeps.
    const seen = await trx
      .selectFrom("reports")
      .select("reported_user_id")
      .where("id", "=", reportId)
      .executeTakeFirst();
    if (!seen) return "not-found";
    await lockPeople(trx, seen.reported_user_id);
    const report = await trx
      .selectFrom("reports")
      .selectAll()
      .where("id", "=", reportId)
      .$call(lockedForDecision)
      .executeTakeFirst();
    if (!report) return "not-found";
    if (report.status !== "open") return "closed";
    const audit = { operatorId, reason, details: { reportId } };
    if (action === "dismiss") {
      await closeReports(trx, [report.id], operatorId, "dismissed");
      await recordAudit(trx, { ...audit, action: "report.dismiss", subjectType: "report", subjectId: report.id });
      return "done";
    }
    if (action === "hide") {
      if (report.subject_type !== "message" && report.subject_type !== "review") return "not-hideable";
      const at = nowIso();
      const table = report.subject_type === "message" ? "messages" : "reviews";
      const hidden =
        table === "messages"
          ? await hideMessage(trx, Number(report.subject_id), operatorId, at)
          : await hideReview(trx, report.subject_id, operatorId, at);
      const ids = await openReportsWhere(trx, { subjectType: report.subject_type, subjectId: report.subject_id });
      await closeReports(trx, ids, operatorId, "hidden");
      await recordAudit(trx, {
        ...audit,
        action: `${report.subject_type}.hide`,
        subjectType: report.subject_type,
        subjectId: report.subject_id,
        details: { reportId, closedReports: ids, alreadyHidden: !hidden },
      });
      return "done";
    }
    if (action === "warn") {
      const person = await trx
        .selectFrom("users")
        .select(["email", "name", "language", "time_zone"])
        .where("id", "=", report.reported_user_id)
        .executeTakeFirstOrThrow();
      await enqueueEmail(await accountNoticeEmail(person, "warning", reason), trx);
      await closeReports(trx, [report.id], operatorId, "warned");
      await recordAudit(trx, {
        ...audit,
        action: "user.warn",
        subjectType: "user",
        subjectId: report.reported_user_id,
      });
      return "done";
    }
    const outcome = await suspendIn(trx, operatorId, report.reported_user_id, reason, { reportId });
    if (outcome.status === "already") return "already-suspended";
    if (outcome.status !== "suspended") return outcome.status;
    await closeReports(
      trx,
      await openReportsWhere(trx, { reportedUserId: report.reported_user_id }),
      operatorId,
      "suspended",
    );
    suspended = { userId: report.reported_user_id, tasks: outcome.tasks };
    return "done";
  });
  if (result === "done") deliverSoon();
  const done = suspended as { userId: string; tasks: string[] } | null;
  if (done) await finishSuspension(done.userId, done.tasks);
  return result;
}
