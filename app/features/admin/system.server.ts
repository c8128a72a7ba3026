import { sql } from "kysely";
import type { PaymentTask } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { openStreamCount } from "~/platform/events/stream.server";
import { backupStatus, type BackupStatus } from "~/platform/backup-schedule.server";
import type { QueueFigures } from "~/platform/metrics.server";
import { MAX_TASK_ATTEMPTS } from "~/features/bookings";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The queues an operator watches, as /metrics and the console's System panel show them. */
export async function queueFigures(at: Date = now()): Promise<QueueFigures> {
  const dayAgo = new Date(at.getTime() - DAY_MS).toISOString();
  const [emails, tasks, disputes] = await Promise.all([
    db
      .selectFrom("email_outbox")
      .select([
        sql<number>`sum(case when sent_at is null and failed_at is null and attempts = 0 then 1 else 0 end)`.as(
          "waiting",
        ),
        sql<number>`sum(case when sent_at is null and failed_at is null and attempts > 0 then 1 else 0 end)`.as(
          "retrying",
        ),
        sql<number>`sum(case when failed_at >= ${dayAgo} then 1 else 0 end)`.as("failed"),
      ])
      .where((eb) => eb.or([eb("sent_at", "is", null), eb("failed_at", ">=", dayAgo)]))
      .executeTakeFirst(),
    db
      .selectFrom("bookings")
      .select([
        sql<number>`sum(case when payment_task_attempts = 0 then 1 else 0 end)`.as("waiting"),
        sql<number>`sum(case when payment_task_attempts > 0 and payment_task_attempts < ${MAX_TASK_ATTEMPTS} then 1 else 0 end)`.as(
          "retrying",
        ),
        sql<number>`sum(case when payment_task_attempts >= ${MAX_TASK_ATTEMPTS} then 1 else 0 end)`.as("failed"),
      ])
      .where((eb) => eb.or([eb("payment_task", "is not", null), eb("refund_due_cents", "is not", null)]))
      .executeTakeFirst(),
    db
      .selectFrom("disputes")
      .select((eb) => eb.fn.countAll<number>().as("open"))
      .where("status", "=", "open")
      .executeTakeFirst(),
  ]);
  return {
    emailsWaiting: Number(emails?.waiting ?? 0),
    emailsRetrying: Number(emails?.retrying ?? 0),
    emailsFailed: Number(emails?.failed ?? 0),
    paymentTasks: {
      waiting: Number(tasks?.waiting ?? 0),
      retrying: Number(tasks?.retrying ?? 0),
      failed: Number(tasks?.failed ?? 0),
    },
    disputesOpen: Number(disputes?.open ?? 0),
  };
}

export interface FailingTask {
  bookingId: string;
  task: PaymentTask | "refund";
  attempts: number;
  failed: boolean;
  error: string | null;
}

export interface SystemPanel extends QueueFigures {
  streamsOpen: number;
  /** Bookings whose payment work has failed at least once, the given-up ones first (at most 20). */
  failingTasks: FailingTask[];
  backup: BackupStatus;
}

export const FAILING_TASKS_SHOWN = 20;

export async function systemPanel(at: Date = now()): Promise<SystemPanel> {
  const [figures, rows] = await Promise.all([
    queueFigures(at),
    db
      .selectFrom("bookings")
      .select(["id", "payment_task", "payment_task_attempts", "payment_error"])
      .where((eb) => eb.or([eb("payment_task", "is not", null), eb("refund_due_cents", "is not", null)]))
      .where("payment_task_attempts", ">", 0)
      .orderBy("payment_task_attempts", "desc")
      .orderBy("id")
      .limit(FAILING_TASKS_SHOWN)
      .execute(),
  ]);
  return {
    ...figures,
    backup: backupStatus(undefined, at),
    streamsOpen: openStreamCount(),
    failingTasks: rows.map((row) => ({
      bookingId: row.id,
      task: row.payment_task ?? "refund",
      attempts: row.payment_task_attempts,
      failed: row.payment_task_attempts >= MAX_TASK_ATTEMPTS,
      error: row.payment_error ? row.payment_error.slice(0, 200) : null,
    })),
  };
}
