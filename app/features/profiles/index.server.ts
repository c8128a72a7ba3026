export {
  actingRole,
  caresForColumns,
  completedBookingCounts,
  completeSitterProfile,
  getPublicProfile,
  isOwner,
  isSitter,
  masksCaringFor,
  profilePage,
  servicesOf,
  sitterDetailsDefaults,
  withHourly,
  switchActingRole,
  updateProfile,
  updateSitterDetails,
} from "./profiles.server";
export type { OfferedService } from "./profiles.server";
export { sitterWithoutHourlyRate } from "./no-hourly-rate.server";
export { profileSection, servicesSection } from "./personal-data.server";
