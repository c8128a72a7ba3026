export { cardEntryAttempt, cardEntryReply } from "./card-entry-reply.server";
export {
  addSavedCard,
  cardsOf,
  defaultCardOf,
  makeDefaultCard,
  removeSavedCard,
  startSavedCardEntry,
  storeCard,
  usableCardOf,
  usableCardsOf,
} from "./cards.server";
export type { AddCardOutcome, CardActionResult, CardView, SubscriptionRefOf } from "./cards.server";
export { connectStripeEvents, payoutOnboardingLink, payoutStatusOf, refreshPayoutStatus } from "./connect.server";
export type { PayoutStatus } from "./connect.server";
export { payerCustomer, storedCustomer } from "./customers.server";
export { paymentProvider, paysOutThroughStripe, useStripeClient } from "./payments.server";
export { STRIPE_MAX_RETRIES, STRIPE_TIMEOUT_MS, createStripeClient } from "./stripe-provider.server";
export { idOf, receiveStripeWebhook } from "./stripe-webhooks.server";
export type { WebhookHandler, WebhookHandlers, WebhookOutcome } from "./stripe-webhooks.server";
export { eraseSavedCards, savedCardsForExport } from "./personal-data.server";
