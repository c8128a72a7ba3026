export { actingRole, completedBookingCounts, completeSitterProfile, getPublicProfile, isOwner, isSitter, profilePage, switchActingRole, updateProfile, updateSitterDetails } from "./profiles.server";
