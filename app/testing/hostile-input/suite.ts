import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { randomUUID } from "node:crypto";
import type { RouteConfigEntry } from "@remix-run/route-config";
import { db } from "~/platform/db.server";
import { startSession } from "~/platform/session.server";
import { resetClock } from "~/testing/clock";
import routes from "~/routes";
import type { Forms } from "./form";
import {
  EXAMPLES,
  type Submission,
  answerOf,
  isTranslated,
  looksLikeKey,
  mutate,
  requestFor,
  submission,
} from "./submissions";
import { controlsIn, snapshot, world } from "./world";

/**
 * Every form of the app, posted with hostile variations of a valid submission: script tags, SQL,
 * control characters, broken UTF-8, megabyte strings, repeated and bracketed keys, missing and
 * unknown fields, JSON and multipart bodies where a urlencoded form is expected, no body at all.
 * Each answer is below 500; a refusal (a 4xx, or a redirect with an error toast) carries a
 * translated message and changes nothing; an accepted one stores no control character and puts no
 * markup into an email. How stored markup is shown: tests/e2e/hostile-input.spec.ts. Every route
 * module with an action must be in one area's forms (app/hostile-input/coverage.test.ts); a new form
 * fails that test until it joins. Each area is a test file of its own: vitest runs them side by side,
 * each on a database of its own, which stays small enough to be read whole before and after each post.
 *
 * FC_SEED=<n> replays a run; FC_RUNS=<n> changes the number of submissions per form.
 */

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
const RUNS = Number(process.env.FC_RUNS ?? 20);

function routeFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.file, ...routeFiles(entry.children ?? [])]);
}

type RouteModule = { action?: (args: unknown) => Promise<unknown> };
const load = (file: string) => import(/* @vite-ignore */ `../../${file}`) as Promise<RouteModule>;

/** Every route module that has an action, as app/routes.ts names it. */
export async function routesWithAction(): Promise<string[]> {
  const files = [...new Set(routeFiles(routes))];
  const withAction: string[] = [];
  for (const file of files) if ((await load(file)).action) withAction.push(file);
  return withAction;
}

/** One test per form: its hostile submissions, each on a fresh world of people and records. */
export function hostileInputTests(area: string, forms: Forms) {
  describe(`hostile input: ${area}`, () => {
    for (const [file, formsOfFile] of Object.entries(forms)) {
      for (const form of formsOfFile) {
        it(`${form.name} (${file}) answers hostile submissions below 500; a refusal has a message and changes nothing`, async () => {
          const w = await world();
          const { action } = await load(file);
          const userId = form.who === "anonymous" ? null : w[form.who].id;
          try {
            await fc.assert(
              fc.asyncProperty(submission, async ({ mutations, body: shape, jsonValue }) => {
                const cookie = userId ? (await startSession(userId)).split(";")[0]! : null;
                const headers = {
                  ...(cookie ? { Cookie: cookie } : {}),
                  Origin: "http://localhost",
                  ...form.headers?.(w),
                };
                const parts = mutate(form.fields(w), mutations);
                const request = requestFor(
                  form.url(w),
                  parts,
                  form.encoding ?? "urlencoded",
                  shape,
                  jsonValue,
                  headers,
                );
                const before = await snapshot();
                const answer = await answerOf(() =>
                  action!({
                    request,
                    params: form.params?.(w) ?? {},
                    context: { clientAddress: randomUUID(), cspNonce: "n" },
                  }),
                );
                expect(answer.status, "status").toBeLessThan(500);
                if (answer.refused && !(form.errorToastIsOutcome && answer.status < 400)) {
                  expect(answer.messages.length, `a refusal (${answer.status}) without a message`).toBeGreaterThan(0);
                  const untranslated = answer.messages.filter(
                    (message) => looksLikeKey(message) && !isTranslated(message),
                  );
                  expect(untranslated, "messages missing from locales/en").toEqual([]);
                  expect(await snapshot(), "a refused submission changed the database").toBe(before);
                } else {
                  expect(controlsIn(await snapshot()), "control characters stored by an accepted submission").toBe(
                    controlsIn(before),
                  );
                }
                const markup = await db
                  .selectFrom("email_outbox")
                  .select("html_body")
                  .where("html_body", "like", "%<script%")
                  .executeTakeFirst();
                expect(markup?.html_body, "an email carries markup from a submission").toBeUndefined();
              }),
              {
                numRuns: EXAMPLES.length + RUNS,
                seed: SEED,
                endOnFailure: true,
                examples: EXAMPLES.map((example): [Submission] => [example]),
              },
            );
          } finally {
            resetClock();
          }
        });
      }
    }
  });
}
