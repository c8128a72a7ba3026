// The "payments" section of a person's data export and erasure: their premium subscriptions and
// their payments, with the saved cards the payments feature keeps.
import type { PersonalDataSection } from "~/platform/personal-data.server";
import { eraseSavedCards, savedCardsForExport } from "~/features/payments/index.server";

export const paymentsSection: PersonalDataSection = {
  name: "payments",
  async exportOf(userId, database) {
    const [cards, subscriptions, subscriptionPayments] = await Promise.all([
      savedCardsForExport(userId, database),
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
    await eraseSavedCards(person.id, trx);
  },
};
