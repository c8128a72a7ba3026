import type { CancellationPolicy } from "~db/schema";

export type { CancellationPolicy };

/** Stored ids, in the order a sitter sees them; labels and explanations are translated (profile:cancellation.<id>). */
export const CANCELLATION_POLICIES = [
  "flexible",
  "moderate",
  "strict",
] as const satisfies readonly CancellationPolicy[];
export const DEFAULT_CANCELLATION_POLICY: CancellationPolicy = "flexible";

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Each policy has one deadline, `noticeMs` before the start: an owner who cancels strictly before it gets
 * `refundPercent` of the price back, from it on `lateRefundPercent`.
 */
export const POLICY_TERMS: Record<
  CancellationPolicy,
  { noticeMs: number; refundPercent: number; lateRefundPercent: number }
> = {
  flexible: { noticeMs: DAY_MS, refundPercent: 100, lateRefundPercent: 0 },
  moderate: { noticeMs: 3 * DAY_MS, refundPercent: 100, lateRefundPercent: 50 },
  strict: { noticeMs: 7 * DAY_MS, refundPercent: 50, lateRefundPercent: 0 },
};

export const isCancellationPolicy = (value: unknown): value is CancellationPolicy =>
  typeof value === "string" && (CANCELLATION_POLICIES as readonly string[]).includes(value);
