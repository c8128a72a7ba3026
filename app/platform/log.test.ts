import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, notePerson, runWithRequestLog } from "./log.server";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  const logger = createLogger(destination as never, "debug");
  return { logger, lines, text: () => lines.join("\n"), parsed: () => lines.map((line) => JSON.parse(line) as never) };
}

const EMAIL = "nina.nueva+test@example.org";
const PASSWORD = "walkies-at-dawn-42";
const MESSAGE = "The spare key is under the blue flowerpot";
const TOKEN = "reset-token-9f8e7d6c5b4a";

describe("the log", () => {
  it("never writes a password, token, card number, message text, email address or position", () => {
    const { logger, text } = capture();
    logger.info(
      {
        event: "request",
        form: { email: EMAIL, password: PASSWORD, newPassword: PASSWORD, token: TOKEN, text: MESSAGE },
        headers: { authorization: `Bearer ${TOKEN}`, cookie: `__session=${TOKEN}` },
        card: { number: "4242424242424242", cvc: "123" },
        place: { latitude: 40.41678, longitude: -3.70379 },
        email: EMAIL,
      },
      "sign-in",
    );
    logger.warn(`Could not deliver to ${EMAIL}`);
    logger.error({ event: "email.failed", error: `550 <${EMAIL}> mailbox unavailable` }, "Email given up");
    logger.error(new Error(`SMTP refused ${EMAIL}`));
    logger.error({ err: new Error(`refused ${EMAIL}`) }, "failed");
    const written = text();
    for (const secret of [EMAIL, "nina.nueva", PASSWORD, MESSAGE, TOKEN, "4242424242424242", "40.41678", "-3.70379"])
      expect(written, secret).not.toContain(secret);
    expect(written).toContain("[redacted]");
    expect(written).toContain("[email]");
    expect(written).toContain("sign-in");
  });

  it("carries the request's id and person into every line the request causes, and JSON one line each", async () => {
    const { logger, parsed } = capture();
    await runWithRequestLog({ requestId: "request-1" }, async () => {
      logger.info("before sign-in");
      await new Promise((resolve) => setTimeout(resolve, 5));
      notePerson("person-1");
      logger.info({ event: "booking.requested" }, "after");
    });
    logger.info("outside");
    const [before, after, outside] = parsed() as Record<string, unknown>[];
    expect(before).toMatchObject({ level: "info", reqId: "request-1", msg: "before sign-in" });
    expect(before).not.toHaveProperty("personId");
    expect(after).toMatchObject({ reqId: "request-1", personId: "person-1", event: "booking.requested" });
    expect(outside).not.toHaveProperty("reqId");
    expect(typeof before!.time).toBe("string");
  });
});
