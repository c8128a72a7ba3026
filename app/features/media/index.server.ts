export { IMAGE_MAX_BYTES, ImageRejected, processImage, processImages, signatureFormat } from "./images.server";
export {
  addPhotos,
  deletePhoto,
  findOwnPhoto,
  listPhotos,
  movePhoto,
  photoUrl,
  profilePhotoKey,
  removePhotoFiles,
  toPhotoView,
} from "./photos.server";
export type { PhotoMove, PhotoProblem, PhotoView } from "./photos.server";
export {
  contentTypeOf,
  fileStorage,
  isMediaKey,
  localFileStorage,
  removeImage,
  s3FileStorage,
  storeImage,
  storeVideo,
} from "./storage.server";
export { copyMediaFolder, type FolderCopy } from "./copy-folder.server";
export type { ByteRange, FileStorage, MediaStream, S3Settings } from "./storage.server";
export { byteRange, mediaResponse } from "./serve.server";
export { readImageUpload } from "./upload.server";
export type { UploadProblem } from "./upload.server";
export { checkVideo, videoSignature } from "./videos.server";
export {
  havePendingUploads,
  keepPendingUploads,
  listPendingUploads,
  mayViewPendingUpload,
  PENDING_UPLOAD_TTL_MS,
  purgeExpiredPendingUploads,
  removePendingUpload,
  adoptPendingUploads,
} from "./pending-uploads.server";
export type { PendingUploadView } from "./pending-uploads.server";
export { photosSection } from "./personal-data.server";
