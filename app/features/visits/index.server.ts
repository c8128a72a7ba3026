export { applyVisitEvent, visitBookingOf } from "./visits.server";
export type { StoredMedia, VisitCommand, VisitResult } from "./visits.server";
export { visitPage } from "./views.server";
export type { VisitPageData } from "./views.server";
export { mayViewVisitMedia } from "./export.server";
export type { ExportedVisitReport } from "./export.server";
export { walkFromRoute, walkFromTyped } from "./walk";
export { storeVisitMedia } from "./media.server";
export { visitReportsSection } from "./personal-data.server";
