import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";

/**
 * A mail server on a local port whose behaviour the tests switch: one that accepts and never
 * answers, one that hangs up at once, and one that speaks enough SMTP to take the mail.
 */
type Mode = "hang" | "hang-up" | "serve";
let mode: Mode = "serve";
let connections = 0;
const received: { to: string; data: string }[] = [];
const open = new Set<Socket>();

function speakSmtp(socket: Socket) {
  let buffer = "";
  let inData = false;
  let to = "";
  socket.write("220 mail.test ESMTP\r\n");
  socket.on("data", (chunk) => {
    buffer += chunk.toString("utf8");
    for (;;) {
      if (inData) {
        const end = buffer.indexOf("\r\n.\r\n");
        if (end === -1) return;
        received.push({ to, data: buffer.slice(0, end) });
        buffer = buffer.slice(end + 5);
        inData = false;
        socket.write("250 2.0.0 queued\r\n");
        continue;
      }
      const lineEnd = buffer.indexOf("\r\n");
      if (lineEnd === -1) return;
      const line = buffer.slice(0, lineEnd);
      buffer = buffer.slice(lineEnd + 2);
      const command = line.slice(0, 4).toUpperCase();
      if (command === "EHLO") socket.write("250-mail.test\r\n250 8BITMIME\r\n");
      else if (command === "RCPT") {
        to = /<([^>]*)>/.exec(line)?.[1] ?? "";
        socket.write("250 OK\r\n");
      } else if (command === "DATA") {
        inData = true;
        socket.write("354 go ahead\r\n");
      } else if (command === "QUIT") socket.end("221 bye\r\n");
      else socket.write("250 OK\r\n");
    }
  });
}

const server = createServer((socket) => {
  connections += 1;
  open.add(socket);
  socket.on("close", () => open.delete(socket));
  socket.on("error", () => undefined);
  if (mode === "hang-up") socket.destroy();
  else if (mode === "serve") speakSmtp(socket);
  // "hang": the connection stays open and silent.
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;
// Short timeouts for the test, given in the URL as an operator could; the code's own are 10-30 s.
process.env.SMTP_URL = `smtp://127.0.0.1:${port}?connectionTimeout=2000&greetingTimeout=300&socketTimeout=2000`;

const { db } = await import("./db.server");
const { deliverPendingEmails, enqueueEmail, SMTP_TIMEOUTS } = await import("./email.server");
const { signUp } = await import("~/features/auth/accounts.server");

afterAll(async () => {
  for (const socket of open) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const outboxOf = (to: string) => db.selectFrom("email_outbox").selectAll().where("to_address", "=", to).executeTakeFirstOrThrow();
const pendingCount = async () =>
  Number((await db.selectFrom("email_outbox").select((eb) => eb.fn.countAll<number>().as("n")).where("sent_at", "is", null).executeTakeFirstOrThrow()).n);

let counter = 0;
const person = () => {
  counter += 1;
  return { role: "owner" as const, name: "Ines Inbox", city: "Madrid", postalCode: "28004", phone: "+34 600 111 222", email: `inbox${counter}@example.com`, password: "walkies-at-dawn" };
};

describe("email delivery when the mail server is down or slow", () => {
  it("bounds every wait on the mail server", () => {
    for (const ms of Object.values(SMTP_TIMEOUTS)) expect(ms).toBeLessThanOrEqual(30_000);
  });

  it("a sign-up succeeds while the mail server hangs; the email waits in the outbox, then goes once the server works", async () => {
    mode = "hang";
    const before = connections;
    const first = person();
    const result = await signUp(first, "en", "http://localhost:3000");
    expect(result.status).toBe("created");
    // The answer came before the mail server had even been reached; delivery goes on behind it.
    expect((await outboxOf(first.email)).sent_at).toBeNull();
    await expect.poll(() => connections).toBeGreaterThan(before);

    // The delivery the sign-up started gives up at the greeting timeout and keeps the reason.
    await deliverPendingEmails();
    const afterHang = await outboxOf(first.email);
    expect(afterHang.sent_at).toBeNull();
    expect(afterHang.last_error).toMatch(/greeting|timeout/i);

    // A server that hangs up at once: the next try fails too, and one failed connection stops the batch.
    mode = "hang-up";
    const second = person();
    expect((await signUp(second, "en", "http://localhost:3000")).status).toBe("created");
    await deliverPendingEmails();
    const tries = connections;
    await deliverPendingEmails();
    expect(connections - tries).toBe(1);
    expect(await pendingCount()).toBeGreaterThanOrEqual(2);
    expect((await outboxOf(first.email)).last_error).toMatch(/close/i);
    // The later email was not tried against a server known to be down.
    expect((await outboxOf(second.email)).last_error).toBeNull();

    // The server is back: the next try (the scheduler makes one every minute) sends each email once.
    mode = "serve";
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
    const addresses = ["a@example.com", "b@example.com", "c@example.com"].map((address) => `${counter}-${address}`);
    for (const to of addresses) await enqueueEmail({ to, subject: "Hello", text: "Hello", html: "<p>Hello</p>" });
    await Promise.all([deliverPendingEmails(), deliverPendingEmails(), deliverPendingEmails()]);
    for (const to of addresses) expect(received.filter((message) => message.to === to)).toHaveLength(1);
    expect(await pendingCount()).toBe(0);
  });
});
