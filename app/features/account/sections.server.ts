import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "~db/schema";
import { containsText, json } from "~/platform/db.server";
import { visitReportsForExport } from "~/features/visits/index.server";
import { bookingMoney } from "~/features/bookings";
import { bookedPetNames } from "~/features/bookings/index.server";
import { exportCalendarFeed, stopCalendarFeed } from "~/features/calendar/index.server";
import { eraseSubscriptions, exportSubscriptions } from "~/features/push/index.server";

/**
 * Everything held about a person, one section per area. Export and erasure both walk this list, so
 * an area that adds a table adds its section here and both stay complete. A section's `exportOf`
 * returns plain JSON (never a password hash, token, card number or provider secret); its `erase`
 * runs inside the erasure transaction and returns the media keys to delete once it commits.
 */
export interface PersonalDataSection {
  name: string;
  exportOf(userId: string, database: Kysely<Database>): Promise<unknown>;
  /** Files for the archive (media keys), named inside it. */
  filesOf?(userId: string, database: Kysely<Database>): Promise<{ key: string; name: string }[]>;
  erase(person: ErasedPerson, trx: Transaction<Database>): Promise<string[] | void>;
}

export interface ErasedPerson {
  id: string;
  name: string;
  email: string;
  phone: string;
}

/** Shown where an erased person's messages, reviews and bookings remain. */
export const DELETED_MEMBER = "Deleted member";

const photoFiles = (rows: { id: string; full_key: string; pet_id: string | null }[]) =>
  rows.map((row) => ({ key: row.full_key, name: `photos/${row.pet_id ? `pet-${row.pet_id}-` : ""}${row.id}.webp` }));

/** People the person dealt with, and the operators (told of their problems and posts): their notifications and emails may carry the person's name. */
async function counterpartsOf(userId: string, trx: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    select owner_id as id from bookings where sitter_id = ${userId}
    union select sitter_id from bookings where owner_id = ${userId}
    union select user_a_id from conversations where user_b_id = ${userId}
    union select user_b_id from conversations where user_a_id = ${userId}
    union select user_a_id from matches where user_b_id = ${userId}
    union select user_b_id from matches where user_a_id = ${userId}
    union select reviewer_id from reviews where reviewed_id = ${userId}
    union select reviewed_id from reviews where reviewer_id = ${userId}
    union select owner_id from meet_greets where sitter_id = ${userId}
    union select sitter_id from meet_greets where owner_id = ${userId}
    union select owner_id from care_series where sitter_id = ${userId}
    union select sitter_id from care_series where owner_id = ${userId}
    union select id from users where is_admin = 1`.execute(trx);
  return rows.rows.map((row) => row.id).filter((id) => id !== userId);
}

/** The text with the person's name, email and phone taken out (SQLite's replace leaves text alone for an empty pattern). */
function scrubbed(column: string, person: ErasedPerson, name = person.name) {
  return sql<string>`replace(replace(replace(${sql.ref(column)}, ${name}, ${DELETED_MEMBER}), ${person.email}, ''), ${person.phone}, '')`;
}

const mentions = (column: string, person: ErasedPerson, name = person.name) =>
  sql<boolean>`(${containsText(column, name)} or ${containsText(column, person.email)} or (${person.phone} != '' and ${containsText(column, person.phone)}))`;

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export const personalDataSections: PersonalDataSection[] = [
  {
    name: "profile",
    async exportOf(userId, database) {
      return database
        .selectFrom("users")
        .select([
          "id",
          "email",
          "email_verified_at",
          "name",
          "phone",
          "city",
          "postal_code",
          "role",
          "bio",
          "latitude",
          "longitude",
          "location_enabled",
          "time_zone",
          "language",
          "hourly_rate_cents",
          "max_pets",
          "extra_pet_cents",
          "years_experience",
          "experience",
          "cares_for",
          "acting_role",
          "browse_mode",
          "filter_pet_type",
          "filter_max_distance_km",
          "filter_min_rating",
          "filter_max_price_cents",
          "filter_sort",
          "filter_service",
          "filter_first_day",
          "filter_last_day",
          "filter_pets",
          "rating_average",
          "review_count",
          "sounds_enabled",
          "email_messages",
          "email_bookings",
          "email_reviews",
          "email_marketing",
          "terms_accepted_at",
          "created_at",
          "updated_at",
        ])
        .where("id", "=", userId)
        .executeTakeFirst();
    },
    // The row itself is emptied last, by the erasure, once every other section has used the name.
    async erase() {},
  },
  {
    name: "photos",
    async exportOf(userId, database) {
      return database
        .selectFrom("photos")
        .select(["id", "pet_id", "position", "width", "height", "created_at"])
        .where("user_id", "=", userId)
        .orderBy("position")
        .execute();
    },
    async filesOf(userId, database) {
      return photoFiles(
        await database
          .selectFrom("photos")
          .select(["id", "full_key", "pet_id"])
          .where("user_id", "=", userId)
          .orderBy("position")
          .execute(),
      );
    },
    async erase(person, trx) {
      const photos = await trx
        .selectFrom("photos")
        .select(["card_key", "full_key"])
        .where("user_id", "=", person.id)
        .execute();
      const pending = await trx
        .selectFrom("pending_uploads")
        .select(["card_key", "full_key"])
        .where("user_id", "=", person.id)
        .execute();
      await trx.deleteFrom("photos").where("user_id", "=", person.id).execute();
      await trx.deleteFrom("pending_uploads").where("user_id", "=", person.id).execute();
      return [...photos, ...pending].flatMap((row) => [row.card_key, row.full_key]);
    },
  },
  {
    name: "carePlans",
    async exportOf(userId, database) {
      return database
        .selectFrom("care_plans as c")
        .innerJoin("pets as p", "p.id", "c.pet_id")
        .select([
          "c.pet_id",
          "p.name as pet_name",
          "c.feeding",
          "c.medication",
          "c.walks",
          "c.house_notes",
          "c.vet_name",
          "c.vet_phone",
          "c.vet_address",
          "c.emergency_name",
          "c.emergency_phone",
          "c.updated_at",
        ])
        .where("p.owner_id", "=", userId)
        .execute();
    },
    // Erased with the pets: nothing of a plan is needed once the person is gone.
    async erase(person, trx) {
      await trx
        .deleteFrom("care_plans")
        .where("pet_id", "in", trx.selectFrom("pets").select("id").where("owner_id", "=", person.id))
        .execute();
    },
  },
  {
    name: "pets",
    async exportOf(userId, database) {
      return database
        .selectFrom("pets")
        .select([
          "id",
          "name",
          "pet_type",
          "age",
          "breed",
          "notes",
          "temperament",
          "special_needs",
          "energy_level",
          "created_at",
          "updated_at",
        ])
        .where("owner_id", "=", userId)
        .execute();
    },
    async erase(person, trx) {
      await trx.deleteFrom("pets").where("owner_id", "=", person.id).execute();
    },
  },
  {
    name: "availability",
    async exportOf(userId, database) {
      return database
        .selectFrom("availability_slots")
        .select(["id", "start_at", "end_at", "status", "booking_id", "created_at"])
        .where("sitter_id", "=", userId)
        .orderBy("start_at")
        .execute();
    },
    async erase(person, trx) {
      await trx.deleteFrom("availability_slots").where("sitter_id", "=", person.id).execute();
    },
  },
  {
    name: "services",
    async exportOf(userId, database) {
      return database
        .selectFrom("sitter_services")
        .select(["service", "price_cents", "duration_minutes"])
        .where("sitter_id", "=", userId)
        .orderBy("service")
        .execute();
    },
    async erase(person, trx) {
      await trx.deleteFrom("sitter_services").where("sitter_id", "=", person.id).execute();
    },
  },
  {
    name: "daysNotFree",
    async exportOf(userId, database) {
      return database
        .selectFrom("sitter_days_off")
        .select("day")
        .where("sitter_id", "=", userId)
        .orderBy("day")
        .execute()
        .then((rows) => rows.map((row) => row.day));
    },
    async erase(person, trx) {
      await trx.deleteFrom("sitter_days_off").where("sitter_id", "=", person.id).execute();
    },
  },
  {
    name: "swipes",
    async exportOf(userId, database) {
      return database
        .selectFrom("swipes")
        .select(["target_user_id", "target_pet_id", "decision", "created_at"])
        .where("swiper_id", "=", userId)
        .orderBy("id")
        .execute();
    },
    async erase(person, trx) {
      await trx
        .deleteFrom("swipes")
        .where((eb) => eb.or([eb("swiper_id", "=", person.id), eb("target_user_id", "=", person.id)]))
        .execute();
    },
  },
  {
    name: "matches",
    async exportOf(userId, database) {
      return database
        .selectFrom("matches")
        .select(["id", "user_a_id", "user_b_id", "created_at"])
        .where((eb) => eb.or([eb("user_a_id", "=", userId), eb("user_b_id", "=", userId)]))
        .execute();
    },
    async erase(person, trx) {
      await trx
        .deleteFrom("matches")
        .where((eb) => eb.or([eb("user_a_id", "=", person.id), eb("user_b_id", "=", person.id)]))
        .execute();
    },
  },
  {
    name: "messages",
    async exportOf(userId, database) {
      return database
        .selectFrom("messages as m")
        .innerJoin("conversations as c", "c.id", "m.conversation_id")
        .select(["m.id", "m.conversation_id", "m.sender_id", "m.body", "m.media_type", "m.created_at"])
        .where((eb) => eb.or([eb("c.user_a_id", "=", userId), eb("c.user_b_id", "=", userId)]))
        .orderBy("m.id")
        .execute();
    },
    // The text stays in the other person's conversation, under "Deleted member"; attachments go.
    async erase(person, trx) {
      const sent = await trx
        .selectFrom("messages")
        .select(["media_key", "media_preview_key"])
        .where("sender_id", "=", person.id)
        .where("media_key", "is not", null)
        .execute();
      await trx
        .updateTable("messages")
        .set({ media_key: null, media_type: null, media_preview_key: null })
        .where("sender_id", "=", person.id)
        .execute();
      await trx.deleteFrom("conversation_reads").where("user_id", "=", person.id).execute();
      // Their name, address or phone typed into a conversation goes too, whoever typed it.
      const theirs = trx
        .selectFrom("conversations")
        .select("id")
        .where((eb) => eb.or([eb("user_a_id", "=", person.id), eb("user_b_id", "=", person.id)]));
      await trx
        .updateTable("messages")
        .set({ body: scrubbed("body", person) })
        .where("conversation_id", "in", theirs)
        .where(mentions("body", person))
        .execute();
      return sent.flatMap((row) => [row.media_key, row.media_preview_key]).filter((key): key is string => key !== null);
    },
  },
  {
    name: "bookings",
    async exportOf(userId, database) {
      const bookings = await database
        .selectFrom("bookings")
        .select([
          "id",
          "owner_id",
          "sitter_id",
          "pet_id",
          "pet_name",
          "service_type",
          "location",
          "notes",
          "start_at",
          "end_at",
          "hours",
          "hourly_rate_cents",
          "extra_pet_cents",
          "subtotal_cents",
          "fee_cents",
          "total_cents",
          "status",
          "payment_status",
          "payment_provider",
          "card_label",
          "cancel_reason",
          "cancelled_by",
          "confirmed_at",
          "completed_at",
          "released_at",
          "created_at",
          "updated_at",
          "payment_task",
          "capture_cents",
          "refund_due_cents",
          "refunded_cents",
        ])
        .where((eb) => eb.or([eb("owner_id", "=", userId), eb("sitter_id", "=", userId)]))
        .orderBy("start_at")
        .execute();
      const petsOf = await bookedPetNames(
        bookings.map((booking) => booking.id),
        database,
      );
      // What was paid, refunded and kept, as every page shows it; every pet booked, in order.
      return bookings.map((booking) => {
        const money = bookingMoney(booking);
        return {
          ...booking,
          pets: petsOf.get(booking.id) ?? [booking.pet_name],
          money: {
            paid_cents: money.paidCents,
            refunded_cents: money.refundedCents,
            sitter_keeps_cents: money.sitterKeepsCents,
            platform_fee_cents: money.platformFeeCents,
            pending: money.pending,
          },
        };
      });
    },
    // Kept for accounting, without what the owner wrote about their home.
    async erase(person, trx) {
      await trx.updateTable("bookings").set({ location: "", notes: "" }).where("owner_id", "=", person.id).execute();
    },
  },
  {
    name: "payments",
    async exportOf(userId, database) {
      const [cards, subscriptions, subscriptionPayments] = await Promise.all([
        database
          .selectFrom("payment_methods")
          .select(["provider", "brand", "last4", "exp_month", "exp_year", "is_default", "created_at"])
          .where("user_id", "=", userId)
          .execute(),
        database
          .selectFrom("subscriptions")
          .select([
            "id",
            "plan_id",
            "status",
            "provider",
            "current_period_start",
            "current_period_end",
            "cancel_at_period_end",
            "canceled_at",
            "ended_at",
            "created_at",
          ])
          .where("user_id", "=", userId)
          .execute(),
        database
          .selectFrom("subscription_payments")
          .select(["subscription_id", "plan_id", "amount_cents", "status", "failure_code", "created_at"])
          .where("user_id", "=", userId)
          .execute(),
      ]);
      return { cards, subscriptions, subscriptionPayments };
    },
    // Subscriptions and their payments are accounting records; saved cards are not.
    async erase(person, trx) {
      await trx.deleteFrom("payment_methods").where("user_id", "=", person.id).execute();
    },
  },
  {
    name: "reviews",
    async exportOf(userId, database) {
      const columns = [
        "id",
        "booking_id",
        "reviewer_id",
        "reviewed_id",
        "rating",
        "comment",
        "created_at",
        "reply",
        "replied_at",
      ] as const;
      const [given, received] = await Promise.all([
        database.selectFrom("reviews").select(columns).where("reviewer_id", "=", userId).execute(),
        database.selectFrom("reviews").select(columns).where("reviewed_id", "=", userId).execute(),
      ]);
      return { given, received };
    },
    // Reviews and their replies stay (under "Deleted member"), without the person's details in their text.
    async erase(person, trx) {
      await trx
        .updateTable("reviews")
        .set({ comment: scrubbed("comment", person) })
        .where((eb) => eb.or([eb("reviewer_id", "=", person.id), eb("reviewed_id", "=", person.id)]))
        .where(mentions("comment", person))
        .execute();
      await trx
        .updateTable("reviews")
        .set({ reply: scrubbed("reply", person) })
        .where((eb) => eb.or([eb("reviewer_id", "=", person.id), eb("reviewed_id", "=", person.id)]))
        .where("reply", "is not", null)
        .where(mentions("reply", person))
        .execute();
    },
  },
  {
    name: "visitReports",
    // As owner: the reports of their pets' visits; as sitter: the visits they made.
    async exportOf(userId) {
      return (await visitReportsForExport(userId)).reports;
    },
    async filesOf(userId) {
      const { reports } = await visitReportsForExport(userId);
      return reports.flatMap((report) =>
        report.media.map((media) => ({ key: media.key, name: `visits/${report.bookingId}/${media.key}` })),
      );
    },
    // The visit stays (times and checklist, for the booking's record); photos, videos and the walk's
    // route (where the sitter went, starting at the owner's home) go, whichever side is erased.
    async erase(person, trx) {
      const bookings = trx
        .selectFrom("bookings")
        .select("id")
        .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]));
      const media = await trx
        .selectFrom("visit_media")
        .select(["key", "preview_key"])
        .where("booking_id", "in", bookings)
        .execute();
      await trx.deleteFrom("visit_media").where("booking_id", "in", bookings).execute();
      await trx
        .updateTable("visits")
        .set({ walk_route: null })
        .where("booking_id", "in", bookings)
        .where("walk_route", "is not", null)
        .execute();
      await trx
        .updateTable("visits")
        .set({ note: scrubbed("note", person) })
        .where("booking_id", "in", bookings)
        .where(mentions("note", person))
        .execute();
      await trx
        .updateTable("visit_items")
        .set({ label: scrubbed("label", person) })
        .where("booking_id", "in", bookings)
        .where(mentions("label", person))
        .execute();
      return media.flatMap((row) => [row.key, row.preview_key]).filter((key): key is string => key !== null);
    },
  },
  {
    name: "disputes",
    // The problems on their bookings, and only their own words and photos in them.
    async exportOf(userId, database) {
      const disputes = await database
        .selectFrom("disputes as d")
        .innerJoin("bookings as b", "b.id", "d.booking_id")
        .select([
          "d.id",
          "d.booking_id",
          "d.reason",
          "d.status",
          "d.outcome",
          "d.refund_cents",
          "d.resolved_at",
          "d.created_at",
        ])
        .where((eb) => eb.or([eb("b.owner_id", "=", userId), eb("b.sitter_id", "=", userId)]))
        .orderBy("d.created_at")
        .execute();
      const posts = await database
        .selectFrom("dispute_posts")
        .select(["id", "dispute_id", "body", "created_at"])
        .where("author_id", "=", userId)
        .orderBy("created_at")
        .execute();
      const photos = await database
        .selectFrom("dispute_photos as ph")
        .innerJoin("dispute_posts as p", "p.id", "ph.post_id")
        .select(["ph.id", "ph.post_id", "ph.width", "ph.height", "ph.position"])
        .where("p.author_id", "=", userId)
        .orderBy("ph.position")
        .execute();
      return disputes.map((dispute) => ({
        ...dispute,
        posts: posts
          .filter((post) => post.dispute_id === dispute.id)
          .map((post) => ({
            id: post.id,
            body: post.body,
            created_at: post.created_at,
            photos: photos.filter((photo) => photo.post_id === post.id).map(({ post_id: _post, ...photo }) => photo),
          })),
      }));
    },
    async filesOf(userId, database) {
      const rows = await database
        .selectFrom("dispute_photos as ph")
        .innerJoin("dispute_posts as p", "p.id", "ph.post_id")
        .select(["ph.id", "ph.full_key", "p.dispute_id"])
        .where("p.author_id", "=", userId)
        .orderBy("ph.position")
        .execute();
      return rows.map((row) => ({ key: row.full_key, name: `disputes/${row.dispute_id}/${row.id}.webp` }));
    },
    // The dispute and its settlement stay for accounting; the person's photos go, and their name,
    // email and phone leave every post and note of their disputes, whoever wrote them.
    async erase(person, trx) {
      const photos = await trx
        .selectFrom("dispute_photos")
        .select(["card_key", "full_key"])
        .where("post_id", "in", trx.selectFrom("dispute_posts").select("id").where("author_id", "=", person.id))
        .execute();
      await trx
        .deleteFrom("dispute_photos")
        .where("post_id", "in", trx.selectFrom("dispute_posts").select("id").where("author_id", "=", person.id))
        .execute();
      const theirs = trx
        .selectFrom("disputes as d")
        .innerJoin("bookings as b", "b.id", "d.booking_id")
        .select("d.id")
        .where((eb) => eb.or([eb("b.owner_id", "=", person.id), eb("b.sitter_id", "=", person.id)]));
      await trx
        .updateTable("dispute_posts")
        .set({ body: scrubbed("body", person) })
        .where("dispute_id", "in", theirs)
        .where(mentions("body", person))
        .execute();
      await trx
        .updateTable("disputes")
        .set({ resolution_note: scrubbed("resolution_note", person) })
        .where("id", "in", theirs)
        .where("resolution_note", "is not", null)
        .where(mentions("resolution_note", person))
        .execute();
      // The booking history stays too, without the person's details in the reasons it carries.
      const bookings = trx
        .selectFrom("bookings")
        .select("id")
        .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]));
      await trx
        .updateTable("booking_history")
        .set({ detail: scrubbed("detail", person) })
        .where("booking_id", "in", bookings)
        .where(mentions("detail", person))
        .execute();
      return photos.flatMap((row) => [row.card_key, row.full_key]);
    },
  },
  {
    name: "reports",
    // Only the reports the person made: who reported them is never shown to them.
    async exportOf(userId, database) {
      return database
        .selectFrom("reports")
        .select([
          "id",
          "reported_user_id",
          "subject_type",
          "subject_id",
          "reason",
          "details",
          "status",
          "resolution",
          "resolved_at",
          "created_at",
        ])
        .where("reporter_id", "=", userId)
        .orderBy("created_at")
        .execute();
    },
    // Their own reports go; reports about them stay for the operators' record, without their details in the text.
    async erase(person, trx) {
      await trx.deleteFrom("reports").where("reporter_id", "=", person.id).execute();
      await trx
        .updateTable("reports")
        .set({ details: scrubbed("details", person) })
        .where("reported_user_id", "=", person.id)
        .where(mentions("details", person))
        .execute();
    },
  },
  {
    name: "blocks",
    async exportOf(userId, database) {
      return database
        .selectFrom("blocks")
        .select(["blocked_id", "created_at"])
        .where("blocker_id", "=", userId)
        .orderBy("created_at")
        .execute();
    },
    async erase(person, trx) {
      await trx
        .deleteFrom("blocks")
        .where((eb) => eb.or([eb("blocker_id", "=", person.id), eb("blocked_id", "=", person.id)]))
        .execute();
    },
  },
  {
    // Web Push: the devices (their endpoints and keys are the browser's secrets, not exported), and
    // the pushes written for the person or naming them.
    name: "push-devices",
    exportOf: (userId, database) => exportSubscriptions(userId, database),
    async erase(person, trx) {
      await eraseSubscriptions(person.id, trx);
      await trx
        .deleteFrom("push_outbox")
        .where((eb) =>
          eb.or([
            eb("user_id", "=", person.id),
            eb("source_user_id", "=", person.id),
            ...(person.name ? [mentions("title", person, person.name), mentions("body", person, person.name)] : []),
          ]),
        )
        .execute();
    },
  },
  {
    // Meet & greets on either side; erased with the person (the other side's record of it goes too).
    name: "meetGreets",
    async exportOf(userId, database) {
      return database
        .selectFrom("meet_greets")
        .select([
          "id",
          "owner_id",
          "sitter_id",
          "start_at",
          "place",
          "place_note",
          "status",
          "proposed_by",
          "created_at",
          "updated_at",
        ])
        .where((eb) => eb.or([eb("owner_id", "=", userId), eb("sitter_id", "=", userId)]))
        .orderBy("start_at")
        .execute();
    },
    async erase(person, trx) {
      await trx
        .deleteFrom("meet_greets")
        .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]))
        .execute();
    },
  },
  {
    // Weekly care on either side, with its schedules, pets and skipped dates; erased with the person (its
    // occurrences are bookings, kept like any other).
    name: "weeklyCare",
    async exportOf(userId, database) {
      const series = await database
        .selectFrom("care_series")
        .selectAll()
        .where((eb) => eb.or([eb("owner_id", "=", userId), eb("sitter_id", "=", userId)]))
        .orderBy("created_at")
        .execute();
      const ids = series.map((row) => row.id);
      if (ids.length === 0) return [];
      const [schedules, pets, skips] = await Promise.all([
        database.selectFrom("care_series_schedules").selectAll().where("series_id", "in", ids).execute(),
        database.selectFrom("care_series_pets").selectAll().where("series_id", "in", ids).execute(),
        database.selectFrom("care_series_skips").selectAll().where("series_id", "in", ids).execute(),
      ]);
      return series.map((row) => ({
        ...row,
        schedules: schedules.filter((schedule) => schedule.series_id === row.id),
        pets: pets.filter((pet) => pet.series_id === row.id).map(({ pet_id, pet_name }) => ({ pet_id, pet_name })),
        skipped: skips.filter((skip) => skip.series_id === row.id).map(({ day, skipped_by }) => ({ day, skipped_by })),
      }));
    },
    async erase(person, trx) {
      const ids = (
        await trx
          .selectFrom("care_series")
          .select("id")
          .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]))
          .execute()
      ).map((row) => row.id);
      if (ids.length === 0) return;
      await trx.deleteFrom("care_series_skips").where("series_id", "in", ids).execute();
      await trx.deleteFrom("care_series_pets").where("series_id", "in", ids).execute();
      await trx.deleteFrom("care_series_schedules").where("series_id", "in", ids).execute();
      await trx.deleteFrom("care_series").where("id", "in", ids).execute();
    },
  },
  {
    // Whether the person has a calendar address, and since when; the address itself is a secret.
    name: "calendar-address",
    exportOf: (userId, database) => exportCalendarFeed(userId, database),
    async erase(person, trx) {
      await stopCalendarFeed(person.id, trx);
    },
  },
  {
    name: "notifications",
    async exportOf(userId, database) {
      const rows = await database
        .selectFrom("notifications")
        .select(["type", "data", "link", "is_read", "created_at"])
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .execute();
      return rows.map((row) => ({ ...row, data: json<unknown>().read(row.data) }));
    },
    async erase(person, trx) {
      await trx.deleteFrom("notifications").where("user_id", "=", person.id).execute();
      await trx.deleteFrom("live_events").where("user_id", "=", person.id).execute();
      const others = await counterpartsOf(person.id, trx);
      if (others.length === 0 || !person.name) return;
      // Other people's news named the person ("Ana accepted your booking") or quoted their messages.
      await trx
        .updateTable("notifications")
        .set({ data: scrubbed("data", person) })
        .where("user_id", "in", others)
        .where(mentions("data", person))
        .execute();
    },
  },
  {
    name: "emails",
    async exportOf() {
      return undefined;
    },
    async erase(person, trx) {
      await trx.deleteFrom("email_outbox").where("to_address", "=", person.email).execute();
      await trx.deleteFrom("email_tokens").where("user_id", "=", person.id).execute();
      await trx.deleteFrom("email_changes").where("user_id", "=", person.id).execute();
      const others = await counterpartsOf(person.id, trx);
      if (others.length === 0 || !person.name) return;
      const addresses = trx.selectFrom("users").select("email").where("id", "in", others);
      for (const [column, name] of [
        ["subject", person.name],
        ["text_body", person.name],
        ["html_body", escapeHtml(person.name)],
      ] as const) {
        await trx
          .updateTable("email_outbox")
          .set({ [column]: scrubbed(column, person, name) })
          .where("to_address", "in", addresses)
          .where(mentions(column, person, name))
          .execute();
      }
    },
  },
  {
    name: "security",
    async exportOf(userId, database) {
      return {
        sessions: await database
          .selectFrom("sessions")
          .select(["created_at", "last_seen_at", "expires_at"])
          .where("user_id", "=", userId)
          .execute(),
      };
    },
    async erase(person, trx) {
      await trx.deleteFrom("sessions").where("user_id", "=", person.id).execute();
      await trx.deleteFrom("data_exports").where("user_id", "=", person.id).execute();
      const email = person.email.toLowerCase();
      // Rate-limit and back-off counters are keyed by address or id.
      for (const table of ["rate_limits", "rate_limit_hits", "backoffs"] as const) {
        await trx
          .deleteFrom(table)
          .where((eb) => eb.or([eb("key", "like", `%${email}%`), eb("key", "like", `%${person.id}%`)]))
          .execute();
      }
    },
  },
];
