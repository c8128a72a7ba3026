export { CONSOLE_SECTIONS, ConsoleNav } from "./console-nav";
export { ConsoleSection, DailyChart, ReasonForm, useConsoleFormat } from "./console-ui";
export { REASON_MAX, reportActionSchema, suspendSchema } from "./schema";
export { ReportSummary } from "./report-card";
export { PersonPage } from "./person-page";
export { SystemPanel } from "./system-panel";
export type { SystemPanelData } from "./system-panel";
