export { ChangeEmailSection, DeleteAccountSection, ExportSection, NotificationsSection, TimeZoneSection } from "./settings-forms";
export { changeEmailSchema, deleteAccountSchema, emailChangeTokenSchema, notificationPreferencesSchema, timeZoneSchema } from "./schema";
