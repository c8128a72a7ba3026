export { LoginScreen, SignupForm, SignupRoleStep } from "./auth-screens";
export { RoleChoices } from "./role-choices";
export { changePasswordSchema, forgotPasswordSchema, loginSchema, resendConfirmationSchema, resetPasswordSchema, signupSchema } from "./schema";
