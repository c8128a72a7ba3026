export {
  BIO_MAX,
  EXPERIENCE,
  HOURLY_RATE_DEFAULT,
  HOURLY_RATE_MAX,
  HOURLY_RATE_MIN,
  YEARS_EXPERIENCE_MAX,
} from "./options";
export {
  CANCELLATION_POLICIES,
  DEFAULT_CANCELLATION_POLICY,
  POLICY_TERMS,
  isCancellationPolicy,
} from "./cancellation-policies";
export type { CancellationPolicy } from "./cancellation-policies";
export { ProfilePage } from "./profile-page";
export { Initials, ProfileView, profileText } from "./profile-view";
export { SitterDetailsFields } from "./sitter-details-fields";
export type { ServiceId, StayService } from "./services";
export { STAY_SERVICES, isStayService, termsOf } from "./services";
export { profileEditSchema, sitterDetailsSchema, sitterSetupSchema } from "./schema";
export type { SitterDetailsInput, SitterSetupInput } from "./schema";

export { NoHourlyRateBoundary } from "./no-hourly-rate";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadProfileSchemas = () => import("./schema");
