export {
  CheckOutForm,
  Checklist,
  DetailsForm,
  EarlierUpdates,
  MediaForm,
  ReportExtras,
  VisitStatus,
  WalkForms,
  WalkSummary,
} from "./visit-page";
export type { VisitReplies } from "./visit-page";
export { detailsSchema, routeSchema, tickSchema, typedWalkSchema } from "./schema";
export { CHECK_IN_EARLY_MS, QUICK_NOTES, TRANSITIONS, VISIT_MEDIA_MAX, decideVisit } from "./machine";
export type { VisitEvent, VisitRefusal } from "./machine";
