export { LoginScreen, SignupForm, SignupRoleStep } from "./auth-screens";
export { RoleChoices } from "./role-choices";
export { changePasswordSchema, forgotPasswordSchema, resendConfirmationSchema, resetPasswordSchema, signupSchema } from "./schema";
