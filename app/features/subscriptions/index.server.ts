export { addCard, removeCard, setDefaultCard, startSubscriptionCardEntry } from "./cards.server";
export { actOnSubscription, checkout, checkoutOffer } from "./checkout.server";
export { checkoutRedirect, checkoutRefused } from "./checkout-redirect.server";
export { subscriptionPage } from "./page.server";
export { finishCheckout, subscriptionStripeEvents } from "./processor.server";
export { runDueSubscriptionWork } from "./renewals.server";
export { hasPremium, isPremiumUser, premiumFilterSql, premiumSql } from "./subscriptions.server";
export type { CheckoutOutcome } from "./subscriptions.server";
export { paymentsSection } from "./personal-data.server";
