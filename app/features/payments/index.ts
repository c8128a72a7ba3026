export { CardEntryForm } from "./card-entry-form";
export { failureMessage } from "./provider";
export type {
  CardInput,
  PaymentFailureCode,
  PaymentProvider,
  PaymentResult,
  ProviderSubscription,
  SubscriptionBilling,
} from "./provider";
export { STRIPE_CSP } from "./stripe-card-entry";
export { stripeCardResultSchema, stripeConfirmedSchema } from "./stripe-card-result";
export { failureCodeOf } from "./stripe-codes";
export { SavedCardForm } from "./saved-card-form";
export type { SavedCardOption } from "./saved-card-form";
