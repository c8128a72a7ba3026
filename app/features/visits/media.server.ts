import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { discardAttachment, storeAttachment } from "~/features/messages/index.server";
import { decideVisit } from "./machine";
import { applyVisitEvent, reportDayAt, visitBookingOf, visitFacts, type VisitResult } from "./visits.server";

/**
 * A photo or short video through the chat's media pipeline (checked by content, re-encoded). The
 * rules are asked first, so nobody else makes the server decode files; the file goes again if refused.
 */
export async function storeVisitMedia(
  bookingId: string,
  userId: string,
  file: Buffer,
  declaredType: string,
): Promise<VisitResult | { ok: false; refusal: "invalidMedia" | "tooLarge" }> {
  const booking = await visitBookingOf(userId, bookingId);
  if (!booking) return { ok: false, refusal: "notFound" };
  const at = now();
  const early = decideVisit(await visitFacts(db, booking, reportDayAt(booking, at)), userId, { type: "add-media" }, at);
  if (!early.ok) return early;
  const stored = await storeAttachment(file, declaredType);
  if ("refusal" in stored)
    return { ok: false, refusal: stored.refusal === "messages:errors.tooLarge" ? "tooLarge" : "invalidMedia" };
  const result = await applyVisitEvent(bookingId, userId, { type: "add-media" }, stored).catch(
    async (error: unknown) => {
      await discardAttachment(stored);
      throw error;
    },
  );
  if (!result.ok) await discardAttachment(stored);
  return result;
}
