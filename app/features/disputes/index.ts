export { DISPUTE_PHOTOS_MAX, OPERATOR_NOTE_MAX, POST_MAX, PROBLEM_REASONS, SETTLEMENTS, centsOf } from "./rules";
export type { ProblemReason, SettlementKind } from "./rules";
export { postSchema, refundSchema, reportSchema, resolveSchema } from "./schema";
export { DisputeThread } from "./dispute-thread";
export { MoneyTable, Pager, pageOf } from "./operator-parts";
export type { MoneyText } from "./operator-parts";
export { BookingHistory } from "./booking-history";
export type { ShownHistoryEntry } from "./booking-history";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadDisputeSchemas = () => import("./schema");
