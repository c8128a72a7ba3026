/** What the forms and the pages share; no server code here. */

export const PROBLEM_REASONS = ["noShow", "shortVisit", "petUnwell", "damage", "conduct", "other"] as const;
export type ProblemReason = (typeof PROBLEM_REASONS)[number];
export const POST_MAX = 2000;
export const DISPUTE_PHOTOS_MAX = 4;
export const OPERATOR_NOTE_MAX = 1000;
export const SETTLEMENTS = ["release", "partial", "refund"] as const;
export type SettlementKind = (typeof SETTLEMENTS)[number];
/** Above any booking's total (6 h at a sitter's highest rate), so a longer number is a typo, not money. */
const AMOUNT = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/;

/** "14.40", "14,4" or "14" euros in whole cents; null for anything else. */
export function centsOf(text: string | undefined | null): number | null {
  const match = AMOUNT.exec(text ?? "");
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
  return cents > 0 ? cents : null;
}
