export { blockedBy, blockPerson, unblockPerson } from "./blocks.server";
export type { BlockedPerson, BlockResult } from "./blocks.server";
export { closeReports, fileReport, reportedPersonOf } from "./reports.server";
export type { ReportInput, ReportResult } from "./reports.server";
export { blockedBetween, hasBlocked, isInactive, mayReach, shownTo } from "./rules.server";
export { blocksSection, reportsSection } from "./personal-data.server";
