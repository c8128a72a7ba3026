import type { readImageUpload } from "~/features/media/index.server";
import { formDataOf } from "~/platform/forms.server";
import { languageOf, translatorFor } from "~/platform/i18n.server";
import { discardAttachment, storeAttachment } from "./attachments.server";
import { sendMessage } from "./messages.server";
import { sendSchema } from "./schema";

export type Upload = Awaited<ReturnType<typeof readImageUpload>> | null;

export type SendAnswer =
  { status: "sent"; conversationId: string } | { status: "not-found" } | { status: "refused"; error: string };

/**
 * One message from a posted form, for the page's own form and for the upload that reports its
 * progress: the route reads the upload (its size limits apply before anything is kept), this does the rest.
 */
export async function sendFromForm(senderId: string, request: Request, upload: Upload): Promise<SendAnswer> {
  if (upload && "error" in upload)
    return {
      status: "refused",
      error: upload.error === "media.tooLarge" ? "messages:errors.tooLarge" : "messages:errors.send",
    };
  const parsed = sendSchema.safeParse(Object.fromEntries(upload ? upload.formData : await formDataOf(request)));
  if (!parsed.success) return { status: "refused", error: "messages:errors.send" };
  const file = upload?.images[0];
  const attachment = file ? await storeAttachment(file, upload?.declaredTypes[0]) : null;
  if (attachment && "refusal" in attachment) return { status: "refused", error: attachment.refusal };
  const t = await translatorFor(await languageOf(request), "messages");
  const result = await sendMessage(senderId, parsed.data.conversationId, parsed.data.body, attachment, {
    image: t("media.image"),
    video: t("media.video"),
  });
  if (result.status !== "sent" && attachment) await discardAttachment(attachment);
  if (result.status === "not-found") return { status: "not-found" };
  if (result.status === "empty") return { status: "refused", error: "messages:errors.empty" };
  if (result.status === "closed") return { status: "refused", error: "safety:chat.closed" };
  return { status: "sent", conversationId: parsed.data.conversationId };
}
