import type { User } from "~db/schema";
import { db, flag } from "~/platform/db.server";
import {
  ImageRejected,
  processImage,
  signatureFormat,
  fileStorage,
  removeImage,
  storeImage,
  storeVideo,
  checkVideo,
  videoSignature,
} from "~/features/media/index.server";
import { CHAT_FILE_MAX_BYTES } from "~/features/media";

// The type is read from the file's bytes, never from its name or the declared type.

export interface StoredAttachment {
  type: "image" | "video";
  key: string;
  previewKey: string | null;
}

export type AttachmentRefusal = "messages:errors.invalidType" | "messages:errors.tooLarge";

export async function storeAttachment(
  data: Buffer,
  declaredType = "",
): Promise<StoredAttachment | { refusal: AttachmentRefusal }> {
  if (data.length > CHAT_FILE_MAX_BYTES) return { refusal: "messages:errors.tooLarge" };
  if (videoSignature(data) || declaredType.startsWith("video/")) {
    const video = checkVideo(data);
    if (!video.ok) return { refusal: "messages:errors.invalidType" };
    return { type: "video", key: await storeVideo(data, video.format), previewKey: null };
  }
  if (!signatureFormat(data)) return { refusal: "messages:errors.invalidType" };
  try {
    const image = await processImage(data, { maxBytes: CHAT_FILE_MAX_BYTES });
    const keys = await storeImage(image);
    return { type: "image", key: keys.fullKey, previewKey: keys.cardKey };
  } catch (error) {
    if (error instanceof ImageRejected)
      return {
        refusal: error.reason === "media.tooLarge" ? "messages:errors.tooLarge" : "messages:errors.invalidType",
      };
    throw error;
  }
}

export async function discardAttachment(attachment: StoredAttachment): Promise<void> {
  if (attachment.previewKey) await removeImage({ fullKey: attachment.key, cardKey: attachment.previewKey });
  else await fileStorage.remove(attachment.key);
}

/**
 * A chat file is for the two people of its conversation, until an operator removes the message;
 * an operator sees the file of a message someone reported (the report queue shows it).
 */
export async function mayViewMedia(viewer: Pick<User, "id" | "is_admin">, key: string): Promise<boolean> {
  const message = await db
    .selectFrom("messages as m")
    .innerJoin("conversations as c", "c.id", "m.conversation_id")
    .select(["m.id", "m.hidden_at", "c.user_a_id", "c.user_b_id"])
    .where((eb) => eb.or([eb("m.media_key", "=", key), eb("m.media_preview_key", "=", key)]))
    .executeTakeFirst();
  if (!message) return true;
  if (flag.read(viewer.is_admin)) {
    const reported = await db
      .selectFrom("reports")
      .select("id")
      .where("subject_type", "=", "message")
      .where("subject_id", "=", String(message.id))
      .executeTakeFirst();
    if (reported) return true;
  }
  return !message.hidden_at && (message.user_a_id === viewer.id || message.user_b_id === viewer.id);
}
