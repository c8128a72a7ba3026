/** Limits of the seed, shared by forms in the browser and checks on the server. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTOS_MAX = 6;
/** A chat attachment: an image or a short video, up to 10 MB. */
export const CHAT_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const CHAT_FILE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp", "video/mp4", "video/webm"] as const;
