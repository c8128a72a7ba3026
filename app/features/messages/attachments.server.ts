import { db } from "~/platform/db.server";
import { ImageRejected, processImage, signatureFormat } from "~/features/media/images.server";
import { CHAT_FILE_MAX_BYTES } from "~/features/media/limits";
import { fileStorage, removeImage, storeImage, storeVideo } from "~/features/media/storage.server";

/**
 * Chat attachments: images are re-encoded like profile photos (metadata such as GPS position
 * removed), in a full size and a preview; MP4 and WebM videos are kept as sent. The type is
 * read from the file's bytes, never from its name or the type the browser declared.
 */

export interface StoredAttachment {
  type: "image" | "video";
  key: string;
  previewKey: string | null;
}

export type AttachmentRefusal = "messages:errors.invalidType" | "messages:errors.tooLarge";

/** ISO base media brands of MP4 video (HEIF and AVIF images share the container and are refused). */
const MP4_BRANDS = new Set(["isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "M4V ", "mmp4", "MSNV"]);

/** mp4 or webm when the bytes are one, else null. */
export function videoFormat(data: Buffer): "mp4" | "webm" | null {
  if (data.length >= 12 && data.subarray(4, 8).toString("latin1") === "ftyp" && MP4_BRANDS.has(data.subarray(8, 12).toString("latin1"))) return "mp4";
  // Matroska's EBML header, whose DocType says "webm" within its first bytes.
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3 && data.subarray(0, 64).includes("webm", 0, "latin1")) return "webm";
  return null;
}

export async function storeAttachment(data: Buffer): Promise<StoredAttachment | { refusal: AttachmentRefusal }> {
  if (data.length > CHAT_FILE_MAX_BYTES) return { refusal: "messages:errors.tooLarge" };
  const video = videoFormat(data);
  if (video) return { type: "video", key: await storeVideo(data, video), previewKey: null };
  if (!signatureFormat(data)) return { refusal: "messages:errors.invalidType" };
  try {
    const image = await processImage(data, { maxBytes: CHAT_FILE_MAX_BYTES });
    const keys = await storeImage(image);
    return { type: "image", key: keys.fullKey, previewKey: keys.cardKey };
  } catch (error) {
    if (error instanceof ImageRejected) return { refusal: error.reason === "media.tooLarge" ? "messages:errors.tooLarge" : "messages:errors.invalidType" };
    throw error;
  }
}

/** An attachment whose message was never written. */
export async function discardAttachment(attachment: StoredAttachment): Promise<void> {
  if (attachment.previewKey) await removeImage({ fullKey: attachment.key, cardKey: attachment.previewKey });
  else await fileStorage.remove(attachment.key);
}

/**
 * Who may see a stored file: a chat attachment only the two people of its conversation; any
 * other media (profile and pet photos) every signed-in person.
 */
export async function mayViewMedia(viewerId: string, key: string): Promise<boolean> {
  const message = await db
    .selectFrom("messages as m")
    .innerJoin("conversations as c", "c.id", "m.conversation_id")
    .select(["c.user_a_id", "c.user_b_id"])
    .where((eb) => eb.or([eb("m.media_key", "=", key), eb("m.media_preview_key", "=", key)]))
    .executeTakeFirst();
  return !message || message.user_a_id === viewerId || message.user_b_id === viewerId;
}
