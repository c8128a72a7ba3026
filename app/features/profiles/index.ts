export { BIO_MAX, EXPERIENCE, HOURLY_RATE_DEFAULT, HOURLY_RATE_MAX, HOURLY_RATE_MIN } from "./options";
export { ProfilePage } from "./profile-page";
export { Initials, ProfileView, profileText } from "./profile-view";
export { profileEditSchema, sitterSetupSchema } from "./schema";
export type { SitterSetupInput } from "./schema";
