export { deleteAccount } from "./erasure.server";
export type { DeletionResult } from "./erasure.server";
export {
  checkEmailChangeToken,
  confirmEmailChange,
  EMAIL_CHANGE_LIFETIME_MS,
  requestEmailChange,
} from "./email-change.server";
export { currentExport, exportArchive, personalData, requestExport } from "./export.server";
export type { DataExport } from "./export.server";
export {
  checkUnsubscribeToken,
  emailPreferencesOf,
  saveEmailPreferences,
  saveTimeZone,
  unsubscribe,
} from "./preferences.server";
export { personalDataSections } from "./sections.server";
