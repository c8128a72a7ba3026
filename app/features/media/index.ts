export { CHAT_FILE_MAX_BYTES, CHAT_FILE_TYPES, PHOTOS_MAX } from "./limits";
export { PhotoGrid } from "./photo-grid";
export { PhotoPicker } from "./photo-picker";
export { PhotoUploadForm } from "./photo-upload-form";
