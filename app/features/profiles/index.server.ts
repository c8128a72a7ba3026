export { actingRole, completeSitterProfile, getPublicProfile, isOwner, isSitter, profilePage, switchActingRole, updateProfile } from "./profiles.server";
