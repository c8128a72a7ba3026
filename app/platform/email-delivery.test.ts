import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { speakSmtp, type ReceivedMail } from "~/testing/smtp";

/**
 * A mail server on a local port whose behaviour the tests switch: one that accepts and never
 * answers, one that hangs up at once, and one that speaks enough SMTP to take the mail. Speaking,
 * it refuses recipients for good (550) when their address starts with "gone", and for now (451)
 * when it starts with "busy".
 */
type Mode = "hang" | "hang-up" | "serve";
let mode: Mode = "serve";
let connections = 0;
const received: ReceivedMail[] = [];
const open = new Set<Socket>();

/** Refuses for good the addresses starting with "gone", for now those starting with "busy". */
const answerRcpt = (to: string) =>
  to.startsWith("gone") ? "550 5.1.1 no such mailbox" : to.startsWith("busy") ? "451 4.7.1 try again later" : "250 OK";

const server = createServer((socket) => {
  connections += 1;
  open.add(socket);
  socket.on("close", () => open.delete(socket));
  socket.on("error", () => undefined);
  if (mode === "hang-up") socket.destroy();
  else if (mode === "serve") speakSmtp(socket, received, answerRcpt);
  // "hang": the connection stays open and silent.
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;
// Short timeouts for the test, given in the URL as an operator could; the code's own are 10-30 s.
process.env.SMTP_URL = `smtp://127.0.0.1:${port}?connectionTimeout=2000&greetingTimeout=300&socketTimeout=2000`;

const { db } = await import("./db.server");
const { logger } = await import("./log.server");
const { advanceClock, resetClockAfterEach } = await import("~/testing/clock");
const { deliverPendingEmails, enqueueEmail, nextTryDelayMs, RETRY, SMTP_TIMEOUTS } = await import("./email.server");
const { signUp } = await import("~/features/auth/accounts.server");
const { signupInput } = await import("~/testing/people");

resetClockAfterEach();
afterAll(async () => {
  for (const socket of open) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const outboxOf = (to: string) =>
  db.selectFrom("email_outbox").selectAll().where("to_address", "=", to).executeTakeFirstOrThrow();
const pendingCount = async () =>
  Number(
    (
      await db
        .selectFrom("email_outbox")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("sent_at", "is", null)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("email delivery when the mail server is down or slow", () => {
  it("bounds every wait on the mail server", () => {
    for (const ms of Object.values(SMTP_TIMEOUTS)) expect(ms).toBeLessThanOrEqual(30_000);
  });

  it("a sign-up succeeds while the mail server hangs; the email waits in the outbox, then goes once the server works", async () => {
    mode = "hang";
    const before = connections;
    const first = signupInput({ name: "Ines Inbox" });
    const result = await signUp(first, "en");
    expect(result.status).toBe("created");
    // The answer came before the mail server had even been reached; delivery goes on behind it.
    expect((await outboxOf(first.email)).sent_at).toBeNull();
    await expect.poll(() => connections).toBeGreaterThan(before);

    // The delivery the sign-up started gives up at the greeting timeout and keeps the reason.
    await deliverPendingEmails();
    const afterHang = await outboxOf(first.email);
    expect(afterHang.sent_at).toBeNull();
    expect(afterHang.last_error).toMatch(/greeting|timeout/i);

    expect(afterHang.attempts).toBe(1);
    expect(Date.parse(afterHang.next_try_at!) - Date.now()).toBeGreaterThan(50_000);

    // A server that hangs up at once. The first email waits its minute; the later one is due, is
    // tried, and its failed connection stops the batch.
    mode = "hang-up";
    const second = signupInput({ name: "Ines Inbox" });
    expect((await signUp(second, "en")).status).toBe("created");
    await deliverPendingEmails();
    expect((await outboxOf(second.email)).last_error).toMatch(/close/i);
    expect((await outboxOf(first.email)).attempts).toBe(1);
    // Tried again at once, nothing is due: the server is not asked.
    const tries = connections;
    await deliverPendingEmails();
    expect(connections).toBe(tries);
    // Two minutes on, both are due; the first one's failure stops the batch before the second.
    advanceClock(2 * 60_000);
    await deliverPendingEmails();
    expect(connections - tries).toBe(1);
    expect((await outboxOf(first.email)).attempts).toBe(2);
    expect((await outboxOf(second.email)).attempts).toBe(1);
    expect(await pendingCount()).toBeGreaterThanOrEqual(2);

    // The server is back: the next try after the emails' waits sends each email once.
    mode = "serve";
    advanceClock(RETRY.maxDelayMs);
    await deliverPendingEmails();
    expect(await pendingCount()).toBe(0);
    for (const { email } of [first, second]) {
      const row = await outboxOf(email);
      expect(row.sent_at).not.toBeNull();
      expect(row.last_error).toBeNull();
      expect(received.filter((message) => message.to === email)).toHaveLength(1);
      expect(received.find((message) => message.to === email)?.data).toContain("Subject:");
    }
    await deliverPendingEmails();
    expect(received.filter((message) => message.to === first.email)).toHaveLength(1);
  });

  it("deliveries asked for at the same moment send each email once", async () => {
    mode = "serve";
    const addresses = ["a@example.com", "b@example.com", "c@example.com"];
    for (const to of addresses) await enqueueEmail({ to, subject: "Hello", text: "Hello", html: "<p>Hello</p>" });
    await Promise.all([deliverPendingEmails(), deliverPendingEmails(), deliverPendingEmails()]);
    for (const to of addresses) expect(received.filter((message) => message.to === to)).toHaveLength(1);
    expect(await pendingCount()).toBe(0);
  });

  it("waits longer after each failure, up to an hour", () => {
    expect([1, 2, 3, 4, 6, 7, 20].map((attempts) => nextTryDelayMs(attempts) / 60_000)).toEqual([
      1, 2, 4, 8, 32, 60, 60,
    ]);
  });

  it("gives up at once on an email the server refuses for good, and sends the ones behind it", async () => {
    mode = "serve";
    const gone = "gone@example.com";
    const after = "after-gone@example.com";
    await enqueueEmail({ to: gone, subject: "Hello", text: "Hello", html: "<p>Hello</p>" });
    await enqueueEmail({ to: after, subject: "Hello", text: "Hello", html: "<p>Hello</p>" });
    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    await deliverPendingEmails();
    const row = await outboxOf(gone);
    expect(row).toMatchObject({ sent_at: null, attempts: 1, next_try_at: null });
    expect(row.failed_at).not.toBeNull();
    expect(row.last_error).toMatch(/550/);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ event: "email.failed", attempts: 1 }),
      "Email given up",
    );
    logged.mockRestore();
    expect(received.filter((message) => message.to === after)).toHaveLength(1);
    // Never tried again.
    advanceClock(RETRY.maxDelayMs);
    await deliverPendingEmails();
    expect((await outboxOf(gone)).attempts).toBe(1);
  });

  it("tries an email refused for now again later, and gives it up a day after it was written", async () => {
    mode = "serve";
    const busy = "busy@example.com";
    await enqueueEmail({ to: busy, subject: "Hello", text: "Hello", html: "<p>Hello</p>" });
    await deliverPendingEmails();
    expect(await outboxOf(busy)).toMatchObject({ attempts: 1, failed_at: null, sent_at: null });
    expect((await outboxOf(busy)).last_error).toMatch(/451/);
    advanceClock(RETRY.firstDelayMs);
    await deliverPendingEmails();
    expect(await outboxOf(busy)).toMatchObject({ attempts: 2, failed_at: null });

    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    advanceClock(RETRY.giveUpAfterMs);
    await deliverPendingEmails();
    logged.mockRestore();
    const row = await outboxOf(busy);
    expect(row.attempts).toBe(3);
    expect(row.failed_at).not.toBeNull();
    expect(received.filter((message) => message.to === busy)).toHaveLength(0);
  });
});
