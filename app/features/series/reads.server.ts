import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { paymentProvider, usableCardOf, usableCardsOf } from "~/features/payments/index.server";

// What both the series' own acts, its generator and its page read.

/** The owner's default card that can still pay through the running provider, if any. */
export async function defaultCardOf(ownerId: string) {
  const provider = paymentProvider().name;
  const card = (await usableCardsOf(ownerId, provider)).find((saved) => saved.isDefault);
  const usable = card ? await usableCardOf(ownerId, card.id, provider) : null;
  return usable && card
    ? { cardRef: usable.cardRef, cardLabel: usable.label, brand: card.brand, last4: card.last4 }
    : null;
}

/** From a day on: the dates skipped before they were booked, and the occurrences made (with their state). */
export async function datesTaken(seriesId: string, fromDay: string) {
  const [skips, made] = await Promise.all([
    db
      .selectFrom("care_series_skips")
      .select("day")
      .where("series_id", "=", seriesId)
      .where("day", ">=", fromDay)
      .execute(),
    db
      .selectFrom("bookings")
      .select(["id", "series_day", "series_schedule_id", "status"])
      .where("series_id", "=", seriesId)
      .where("series_day", ">=", fromDay)
      .execute(),
  ]);
  return { skipped: new Set(skips.map((skip) => skip.day)), made };
}

export const schedulesOf = (database: Kysely<Database>, seriesId: string) =>
  database
    .selectFrom("care_series_schedules")
    .selectAll()
    .where("series_id", "=", seriesId)
    .orderBy("from_day")
    .orderBy("created_at")
    .execute();
