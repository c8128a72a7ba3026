export {
  ChangeEmailSection,
  DeleteAccountSection,
  EmailChangeLanding,
  ExportSection,
  NotificationsSection,
  TimeZoneSection,
  UnsubscribeLanding,
} from "./settings-forms";
export type { EmailChangeLandingState, UnsubscribeLandingState } from "./settings-forms";
export {
  changeEmailSchema,
  deleteAccountSchema,
  emailChangeTokenSchema,
  notificationPreferencesSchema,
  timeZoneSchema,
} from "./schema";
