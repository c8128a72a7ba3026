export { LoginScreen, SignupForm, SignupRoleStep } from "./auth-screens";
export { RoleChoices } from "./role-choices";
export {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
  signupSchema,
} from "./schema";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadAuthSchemas = () => import("./schema");
