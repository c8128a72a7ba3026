import { z } from "~/platform/validation";
import {
  AUTO_RELEASE_AFTER_MS,
  DELAYED_HOLD_BEFORE_MS,
  HOLD_NOW_WITHIN_MS,
  PLATFORM_FEE_RATE,
  UNPAID_REQUEST_TTL_MS,
} from "~/features/bookings/index.server";
import { FREE_DAILY_LIKES } from "~/features/discovery/index.server";
import { numberFormat } from "~/platform/format";
import type { Language } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "~/platform/session.server";

/**
 * The long texts of the legal and help pages live in namespaces of their own (`legal-terms` …),
 * which no page loads up front: each page's loader reads its own, in the asker's language, and
 * the server renders it. The figures in them come from the rules that apply them.
 */
export const LEGAL_DOCUMENTS = ["terms", "privacy", "cookies", "help"] as const;
export type LegalDocumentName = (typeof LEGAL_DOCUMENTS)[number];

/** The date the texts last changed in substance; shown on every legal page. */
export const LEGAL_TEXTS_UPDATED = "2026-11-25";

const text = z.string().check(z.minLength(1));
const block = z.union([text, z.array(text).check(z.minLength(1))]);
const table = z.object({
  caption: text,
  head: z.array(text).check(z.minLength(2)),
  rows: z.array(z.array(text).check(z.minLength(2))).check(z.minLength(1)),
});

export const legalDocumentSchema = z.object({
  intro: z.array(block),
  sections: z
    .array(
      z.object({
        id: z.string().check(z.regex(/^[a-z][a-z0-9-]*$/)),
        heading: text,
        body: z.array(block).check(z.minLength(1)),
        table: z.optional(table),
        after: z.optional(z.array(block)),
      }),
    )
    .check(z.minLength(1)),
});
export type LegalDocument = z.infer<typeof legalDocumentSchema>;

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export function legalFigures(language: Language) {
  return {
    fee: numberFormat(language, { style: "percent" }).format(PLATFORM_FEE_RATE),
    autoReleaseHours: AUTO_RELEASE_AFTER_MS / HOUR_MS,
    holdWithinDays: HOLD_NOW_WITHIN_MS / DAY_MS,
    holdBeforeDays: DELAYED_HOLD_BEFORE_MS / DAY_MS,
    unpaidMinutes: UNPAID_REQUEST_TTL_MS / 60_000,
    sessionDays: SESSION_ABSOLUTE_MS / DAY_MS,
    idleDays: SESSION_IDLE_MS / DAY_MS,
    freeLikes: FREE_DAILY_LIKES,
  };
}

/** `operator` and `contact`: the operator's name and email address (or words pointing to the imprint). */
export async function legalDocument(
  name: LegalDocumentName,
  language: Language,
  operator: { operator: string; contact: string },
): Promise<LegalDocument> {
  const t = await translatorFor(language, `legal-${name}`);
  const text: unknown = t("document", { returnObjects: true, ...legalFigures(language), ...operator });
  // A broken translation fails here, loudly, and in the unit test that reads every language.
  return legalDocumentSchema.parse(text);
}
