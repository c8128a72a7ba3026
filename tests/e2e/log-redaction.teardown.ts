import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { dataDir } from "./data-dir";
import { PASSWORD } from "./support";

// The teardown of the end-to-end projects (playwright.config.ts): once every test has run, the server's
// log of the whole run (kept by tests/e2e/start-server.js) must hold no test person's email address,
// password or chat message, however it was written (as typed, URL-encoded or inside a JSON string).
const LOG = path.join(dataDir, "server.log");

/** What the tests typed that must never be logged: the shared password and messages.spec.ts's messages. */
const TYPED = [PASSWORD, "Hi! <b>Pip</b> looks lovely. When do you need me?", "Saturday morning, if you can!"];
/** The test people's addresses (uniqueEmail in support.ts, the placeholders of the seeded data, a@b.co). */
const TEST_EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)(?:(?:placeholder\.)?example\.com|b\.co\b)/i;

const forms = (text: string) => [...new Set([text, encodeURIComponent(text), JSON.stringify(text).slice(1, -1)])];

test("the server's log of the whole run holds no test person's email address, password or message", () => {
  expect(existsSync(LOG), `${LOG}, written by tests/e2e/start-server.js`).toBe(true);
  const lines = readFileSync(LOG, "utf8").split("\n").filter(Boolean);
  // Not passing by accident on an empty file: the run's requests were logged.
  expect(lines.filter((line) => line.includes('"event":"request"')).length).toBeGreaterThan(0);

  const leaks = (found: (line: string) => boolean) =>
    lines.flatMap((line, index) => (found(line) ? [`line ${index + 1}: ${line.slice(0, 300)}`] : []));
  expect(
    leaks((line) => TEST_EMAIL.test(line)),
    "email addresses in the log",
  ).toEqual([]);
  for (const text of TYPED)
    expect(
      leaks((line) => forms(text).some((form) => line.includes(form))),
      `"${text}" in the log`,
    ).toEqual([]);
});
