import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { Database, DisputeOutcome } from "~db/schema";
import { db, lockedForDecision } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { deliverSoon } from "~/platform/email.server";
import { recordAudit } from "~/platform/audit.server";
import { applyEvent, findBooking, runPaymentTasks } from "~/features/bookings/index.server";
import { refusalKey, type Settlement } from "~/features/bookings";
import { notify } from "~/features/notifications/index.server";
import { processImages, removeImage, storeImage } from "~/features/media/index.server";
import type { ProblemReason } from "./rules";

/*
 * A dispute is the thread of a problem the owner reported on a completed booking. Whether the
 * release waits, and how the money is settled, is the booking machine's decision (report-problem,
 * resolve-dispute); this module keeps the words and photos around it.
 */

export type DisputeRefusal = { ok: false; notFound: true } | { ok: false; notFound?: false; message: string };
export type DisputeResult = { ok: true; disputeId: string } | DisputeRefusal;

const notFound: DisputeRefusal = { ok: false, notFound: true };
const refused = (message: string): DisputeRefusal => ({ ok: false, message });

type StoredPhoto = { cardKey: string; fullKey: string; width: number; height: number };

/** Photos are checked and stored before the transaction (no slow work under the database lock); a refusal removes them again. */
async function storePhotos(
  images: Buffer[],
): Promise<{ ok: true; photos: StoredPhoto[] } | { ok: false; message: string }> {
  const processed = await processImages(images);
  if (!processed.ok)
    return {
      ok: false,
      message: `disputes:errors.${processed.problem === "media.tooLarge" ? "photoTooLarge" : "photoInvalid"}`,
    };
  const photos: StoredPhoto[] = [];
  for (const image of processed.processed)
    photos.push({ ...(await storeImage(image)), width: image.width, height: image.height });
  return { ok: true, photos };
}

const discard = (photos: StoredPhoto[]) => Promise.all(photos.map((photo) => removeImage(photo)));

async function writePost(
  trx: Transaction<Database>,
  disputeId: string,
  authorId: string,
  body: string,
  photos: StoredPhoto[],
  at: string,
) {
  const postId = randomUUID();
  await trx
    .insertInto("dispute_posts")
    .values({ id: postId, dispute_id: disputeId, author_id: authorId, body, created_at: at })
    .execute();
  if (photos.length > 0) {
    await trx
      .insertInto("dispute_photos")
      .values(
        photos.map((photo, position) => ({
          id: randomUUID(),
          post_id: postId,
          card_key: photo.cardKey,
          full_key: photo.fullKey,
          width: photo.width,
          height: photo.height,
          position,
        })),
      )
      .execute();
  }
}

/** Operators are told of new problems and of what the parties add (suspended operators are not). */
const operatorsOf = async (trx: Transaction<Database>) =>
  (
    await trx.selectFrom("users").select("id").where("is_admin", "=", 1).where("suspended_at", "is", null).execute()
  ).map((row) => row.id);

async function tellOperators(
  trx: Transaction<Database>,
  kind: "disputeOpened" | "disputePost",
  disputeId: string,
  data: Record<string, string>,
) {
  for (const userId of await operatorsOf(trx)) {
    await notify(
      { userId, type: "booking_status_update", data: { kind, ...data }, link: `/admin/disputes/${disputeId}` },
      trx,
    );
  }
}

export async function reportProblem(
  ownerId: string,
  bookingId: string,
  input: { reason: ProblemReason; details: string; images: Buffer[] },
): Promise<DisputeResult> {
  const booking = await findBooking(bookingId);
  if (!booking || booking.owner_id !== ownerId) return notFound;
  const stored = await storePhotos(input.images);
  if (!stored.ok) return refused(stored.message);
  const outcome = await db.transaction().execute(async (trx): Promise<DisputeResult> => {
    const applied = await applyEvent(trx, bookingId, { kind: "owner", userId: ownerId }, { type: "report-problem" });
    if (!applied.ok) return applied.refusal === "notFound" ? notFound : refused(refusalKey(applied.refusal));
    const at = nowIso();
    const disputeId = randomUUID();
    await trx
      .insertInto("disputes")
      .values({ id: disputeId, booking_id: bookingId, reason: input.reason, created_at: at })
      .execute();
    await writePost(trx, disputeId, ownerId, input.details, stored.photos, at);
    await tellOperators(trx, "disputeOpened", disputeId, {
      pet: applied.booking.pet_name,
      name: await nameOf(trx, ownerId),
    });
    return { ok: true, disputeId };
  });
  if (!outcome.ok) await discard(stored.photos);
  else deliverSoon();
  return outcome;
}

const nameOf = async (trx: Transaction<Database>, userId: string) =>
  (await trx.selectFrom("users").select("name").where("id", "=", userId).executeTakeFirst())?.name ?? "";

/** The owner or the sitter adds words and photos to an open dispute; the other side and the operators are told. */
export async function addPost(
  userId: string,
  bookingId: string,
  input: { body: string; images: Buffer[] },
): Promise<DisputeResult> {
  const found = await db
    .selectFrom("disputes as d")
    .innerJoin("bookings as b", "b.id", "d.booking_id")
    .select(["d.id", "d.status", "b.owner_id", "b.sitter_id", "b.pet_name"])
    .where("d.booking_id", "=", bookingId)
    .executeTakeFirst();
  if (!found || (found.owner_id !== userId && found.sitter_id !== userId)) return notFound;
  if (found.status !== "open") return refused("disputes:refusals.closed");
  const stored = await storePhotos(input.images);
  if (!stored.ok) return refused(stored.message);
  const outcome = await db.transaction().execute(async (trx): Promise<DisputeResult> => {
    // Settled meanwhile: nothing more is added.
    const open = await trx
      .selectFrom("disputes")
      .select("id")
      .where("id", "=", found.id)
      .where("status", "=", "open")
      .$call(lockedForDecision)
      .executeTakeFirst();
    if (!open) return refused("disputes:refusals.closed");
    await writePost(trx, found.id, userId, input.body, stored.photos, nowIso());
    const other = found.owner_id === userId ? found.sitter_id : found.owner_id;
    const name = await nameOf(trx, userId);
    await notify(
      {
        userId: other,
        type: "booking_status_update",
        data: { kind: "disputePost", name, pet: found.pet_name },
        link: `/bookings/${bookingId}/problem`,
      },
      trx,
    );
    await tellOperators(trx, "disputePost", found.id, { name, pet: found.pet_name });
    return { ok: true, disputeId: found.id };
  });
  if (!outcome.ok) await discard(stored.photos);
  return outcome;
}

/** The operator settles an open dispute: the booking machine decides, the provider is asked after the commit. */
export async function resolveDispute(
  operatorId: string,
  disputeId: string,
  input: { settlement: Settlement; note: string },
): Promise<DisputeResult> {
  const outcome = await db.transaction().execute(async (trx): Promise<DisputeResult> => {
    const dispute = await trx
      .selectFrom("disputes")
      .select(["id", "booking_id", "status"])
      .where("id", "=", disputeId)
      .executeTakeFirst();
    if (!dispute) return notFound;
    if (dispute.status !== "open") return refused("disputes:refusals.noOpenDispute");
    const applied = await applyEvent(
      trx,
      dispute.booking_id,
      { kind: "operator", userId: operatorId },
      { type: "resolve-dispute", settlement: input.settlement },
    );
    if (!applied.ok) return applied.refusal === "notFound" ? notFound : refused(refusalKey(applied.refusal));
    const refundCents =
      input.settlement.kind === "partial"
        ? input.settlement.refundCents
        : input.settlement.kind === "refund"
          ? applied.booking.total_cents
          : null;
    const kind: DisputeOutcome = refundCents === applied.booking.total_cents ? "refund" : input.settlement.kind;
    await trx
      .updateTable("disputes")
      .set({
        status: "resolved",
        outcome: kind,
        refund_cents: refundCents,
        resolution_note: input.note,
        resolved_by: operatorId,
        resolved_at: nowIso(),
      })
      .where("id", "=", disputeId)
      .execute();
    await recordAudit(trx, {
      operatorId,
      action: "dispute.resolve",
      subjectType: "dispute",
      subjectId: disputeId,
      reason: input.note,
      details: { bookingId: dispute.booking_id, outcome: kind, refundCents },
    });
    return { ok: true, disputeId };
  });
  if (outcome.ok) {
    deliverSoon();
    const dispute = await db
      .selectFrom("disputes")
      .select("booking_id")
      .where("id", "=", disputeId)
      .executeTakeFirstOrThrow();
    await runPaymentTasks([dispute.booking_id]);
  }
  return outcome;
}

/** Whether a stored file may be shown to this person: dispute photos only to the booking's two people and operators. */
/** Whether the person is the booking's owner or sitter (anyone else: a 404 before the upload is read). */
export async function takesPart(userId: string, bookingId: string): Promise<boolean> {
  const booking = await findBooking(bookingId);
  return Boolean(booking && (booking.owner_id === userId || booking.sitter_id === userId));
}

export async function mayViewDisputeMedia(viewerId: string, key: string, isOperator: boolean): Promise<boolean> {
  if (isOperator) return true;
  const photo = await db
    .selectFrom("dispute_photos as p")
    .innerJoin("dispute_posts as dp", "dp.id", "p.post_id")
    .innerJoin("disputes as d", "d.id", "dp.dispute_id")
    .innerJoin("bookings as b", "b.id", "d.booking_id")
    .select(["b.owner_id", "b.sitter_id"])
    .where((eb) => eb.or([eb("p.full_key", "=", key), eb("p.card_key", "=", key)]))
    .executeTakeFirst();
  return !photo || photo.owner_id === viewerId || photo.sitter_id === viewerId;
}
