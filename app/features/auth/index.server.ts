export {
  changePassword,
  checkConfirmationToken,
  checkOwnPassword,
  timeZoneFor,
  checkResetToken,
  confirmEmail,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  saveLanguage,
  setupPathFor,
  signUp,
} from "./accounts.server";
export { authPageOf } from "./auth-page.server";
export { authenticate } from "./authenticator.server";
export { knownAccountsOf, rememberDevice } from "./known-devices.server";
export { refusePublicForm } from "./guard.server";
export { readableOutbox, rememberAddress } from "./outbox-access.server";
export { hashPassword } from "./passwords.server";
export { issueEmailToken, removeExpiredEmailTokens } from "./tokens.server";
export { eraseEmailTokens } from "./personal-data.server";
