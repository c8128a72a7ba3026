import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { nowIso } from "~/platform/clock.server";
import { ownerWithPet, requested, sitterWithSlot } from "~/testing/bookings";
import { person } from "~/testing/people";
import { loader as metricsLoader } from "~/routes/metrics";
import { loader as overviewLoader } from "~/routes/admin-overview";
import { queueFigures, systemPanel } from "./system.server";

async function bookingWithTask(attempts: number) {
  const owner = await ownerWithPet();
  const booking = await requested(owner, await sitterWithSlot());
  await db
    .updateTable("bookings")
    .set({ payment_task: "capture", payment_task_attempts: attempts, payment_error: "card_declined" })
    .where("id", "=", booking.id)
    .execute();
  return booking.id;
}

const email = (values: { sent?: boolean; attempts?: number; failed?: boolean }) =>
  db
    .insertInto("email_outbox")
    .values({
      to_address: `${randomUUID()}@example.org`,
      subject: "s",
      text_body: "t",
      html_body: "h",
      created_at: nowIso(),
      sent_at: values.sent ? nowIso() : null,
      attempts: values.attempts ?? 0,
      failed_at: values.failed ? nowIso() : null,
    })
    .execute();

describe("the queues' figures", () => {
  it("counts emails and payment tasks by state, and open disputes", async () => {
    const before = await queueFigures();
    await email({});
    await email({ attempts: 2 });
    await email({ attempts: 5, failed: true });
    await email({ sent: true });
    const waiting = await bookingWithTask(0);
    await bookingWithTask(3);
    const failed = await bookingWithTask(8);
    await db
      .insertInto("disputes")
      .values({ id: randomUUID(), booking_id: waiting, reason: "r", created_at: nowIso() })
      .execute();
    const after = await queueFigures();
    expect(after.emailsWaiting - before.emailsWaiting).toBe(1);
    expect(after.emailsRetrying - before.emailsRetrying).toBe(1);
    expect(after.emailsFailed - before.emailsFailed).toBe(1);
    expect(after.paymentTasks.retrying - before.paymentTasks.retrying).toBe(1);
    expect(after.paymentTasks.failed - before.paymentTasks.failed).toBe(1);
    expect(after.disputesOpen - before.disputesOpen).toBe(1);

    const panel = await systemPanel();
    const shown = panel.failingTasks.find((task) => task.bookingId === failed);
    expect(shown).toMatchObject({ task: "capture", attempts: 8, failed: true, error: "card_declined" });
    expect(panel.failingTasks.some((task) => task.bookingId === waiting)).toBe(false);
  });
});

describe("GET /metrics", () => {
  const original = env.METRICS_TOKEN;
  afterEach(() => {
    env.METRICS_TOKEN = original;
  });
  const scrape = (authorization?: string) =>
    metricsLoader({
      request: new Request("http://localhost/metrics", {
        headers: authorization ? { Authorization: authorization } : {},
      }),
      params: {},
      context: { cspNonce: "", clientAddress: "127.0.0.1" },
    });

  it("is not found without a token configured, whatever is sent", async () => {
    env.METRICS_TOKEN = undefined;
    expect((await scrape()).status).toBe(404);
    expect((await scrape("Bearer anything-at-all-long-enough")).status).toBe(404);
  });

  it("is not found with a wrong token or none, and answers Prometheus' text with the right one", async () => {
    env.METRICS_TOKEN = "scrape-token-for-the-tests";
    expect((await scrape()).status).toBe(404);
    expect((await scrape("Bearer another-token-entirely")).status).toBe(404);
    const answer = await scrape("Bearer scrape-token-for-the-tests");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toContain("text/plain");
    const text = await answer.text();
    expect(text).toContain('trusted_sitters_payment_tasks{state="failed"}');
    expect(text).toContain('trusted_sitters_emails{state="waiting"}');
    expect(text).toContain("trusted_sitters_disputes_open");
    expect(text).toMatch(/trusted_sitters_database_size_bytes [1-9]\d*/);
    expect(text).toContain("process_resident_memory_bytes");
  });
});

describe("the console's System panel", () => {
  it("shows the operator the failing payment tasks, each with its booking, beside the queues", async () => {
    const failed = await bookingWithTask(8);
    const operator = await person("owner", { signedIn: true, columns: { is_admin: 1 } });
    const data = await overviewLoader({
      request: new Request("http://localhost/admin", { headers: { Cookie: operator.cookie } }),
      params: {},
      context: { cspNonce: "", clientAddress: "127.0.0.1" },
    });
    expect(data.system.paymentTasks.failed).toBeGreaterThanOrEqual(1);
    expect(data.system.failingTasks).toContainEqual(
      expect.objectContaining({ bookingId: failed, task: "capture", failed: true }),
    );
    expect(data.system).toHaveProperty("streamsOpen");
  });

  it("is for operators only", async () => {
    const member = await person("owner", { signedIn: true });
    const asked = overviewLoader({
      request: new Request("http://localhost/admin", { headers: { Cookie: member.cookie } }),
      params: {},
      context: { cspNonce: "", clientAddress: "127.0.0.1" },
    });
    await expect(asked).rejects.toBeInstanceOf(Response);
  });
});
