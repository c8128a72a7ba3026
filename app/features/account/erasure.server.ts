import type { Transaction } from "kysely";
import type { Database } from "~db/schema";
import { checkpointDatabase, db, lockPeople, transactionRetryingDeadlocks } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { endStreamsOf } from "~/platform/events/hub.server";
import { serialized } from "~/platform/lock.server";
import { checkOwnPassword } from "~/features/auth/index.server";
import { closeOpenBookingsIn, runPaymentTasks } from "~/features/bookings/index.server";
import { fileStorage } from "~/features/media/index.server";
import { actOnSubscription } from "~/features/subscriptions/index.server";
import { accountDeletedEmail } from "./emails.server";
import { DELETED_MEMBER, type ErasedPerson, type PersonalDataSection } from "~/platform/personal-data.server";
import { personalDataSections } from "./sections.server";

export type DeletionResult =
  | { status: "deleted" }
  | { status: "wrong-password" }
  | { status: "wait" }
  | { status: "gone" }
  | { status: "unavailable" };

/**
 * A subscription that could still charge: ended through the subscription machine before anything
 * else. False when the payment processor could not be reached: then nothing is erased yet.
 */
async function endSubscriptionsOf(userId: string): Promise<boolean> {
  const live = await db
    .selectFrom("subscriptions")
    .select("id")
    .where("user_id", "=", userId)
    .where("ended_at", "is", null)
    .where("status", "!=", "canceled")
    .execute();
  for (const subscription of live) {
    const result = await actOnSubscription(userId, subscription.id, "cancel");
    if (!result.ok && result.refusal === "unavailable") return false;
  }
  return true;
}

/**
 * Erases a person (GDPR art. 17): open bookings closed through the booking machine, premium ended
 * through the subscription machine, then every section erased and the row emptied in one
 * transaction; then the holds given back, the files deleted and the live streams ended. The row
 * stays, named "Deleted member", for the bookings and payments accounting must keep.
 */
export async function deleteAccount(
  userId: string,
  password: string,
  sections: readonly PersonalDataSection[] = personalDataSections,
): Promise<DeletionResult> {
  return serialized(`account-deletion:${userId}`, async () => {
    const user = await db.selectFrom("users").select(["id", "deleted_at"]).where("id", "=", userId).executeTakeFirst();
    if (!user || user.deleted_at) return { status: "gone" };
    const check = await checkOwnPassword(userId, password);
    if (check === "wait") return { status: "wait" };
    if (check === "wrong") return { status: "wrong-password" };
    if (!(await endSubscriptionsOf(userId))) return { status: "unavailable" };
    const erased = await transactionRetryingDeadlocks((trx) => eraseIn(trx, userId, sections));
    if (!erased) return { status: "gone" };
    await runPaymentTasks(erased.paymentTasks);
    for (const key of new Set(erased.mediaKeys)) await fileStorage.remove(key);
    endStreamsOf(userId);
    await checkpointDatabase();
    deliverSoon();
    return { status: "deleted" };
  });
}

async function eraseIn(trx: Transaction<Database>, userId: string, sections: readonly PersonalDataSection[]) {
  await lockPeople(trx, userId);
  const person = await trx
    .selectFrom("users")
    .select(["id", "name", "email", "phone", "language", "deleted_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!person || person.deleted_at) return null;
  const { tasks } = await closeOpenBookingsIn(trx, userId, "deleted");
  const erasedPerson: ErasedPerson = { id: person.id, name: person.name, email: person.email, phone: person.phone };
  const mediaKeys: string[] = [];
  for (const section of sections) mediaKeys.push(...((await section.erase(erasedPerson, trx)) ?? []));
  const at = nowIso();
  await trx
    .updateTable("users")
    .set({
      // Unique and undeliverable, so the address itself can sign up again.
      email: `deleted-${person.id}@deleted.invalid`,
      password_hash: "!",
      email_verified_at: null,
      name: DELETED_MEMBER,
      phone: "",
      city: "",
      postal_code: "",
      bio: "",
      latitude: null,
      longitude: null,
      location_enabled: 0,
      location_updated_at: null,
      hourly_rate_cents: null,
      max_pets: 1,
      extra_pet_cents: 0,
      years_experience: null,
      experience: "[]",
      cares_for: "[]",
      cares_for_mask: 0,
      acting_role: null,
      browse_mode: null,
      email_messages: 0,
      email_bookings: 0,
      email_reviews: 0,
      email_marketing: 0,
      deleted_at: at,
      updated_at: at,
    })
    .where("id", "=", person.id)
    .execute();
  await enqueueEmail(await accountDeletedEmail(person), trx);
  return { mediaKeys, paymentTasks: tasks };
}
