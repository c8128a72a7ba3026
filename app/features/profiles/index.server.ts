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
  switchActingRole,
  updateProfile,
  updateSitterDetails,
} from "./profiles.server";
