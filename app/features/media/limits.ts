/** Limits of the seed, shared by forms in the browser and checks on the server. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTOS_MAX = 6;
