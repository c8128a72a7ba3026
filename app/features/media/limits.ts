export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTOS_MAX = 6;
export const CHAT_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const CHAT_FILE_TYPES = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "video/mp4",
  "video/webm",
] as const;
