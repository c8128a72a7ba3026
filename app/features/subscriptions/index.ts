export { CheckoutSummary } from "./checkout-summary";
export { MySubscription } from "./my-subscription";
export { PaymentErrorBox } from "./payment-error-box";
export { PlanList } from "./plan-card";
export { TABS, addCardSchema, checkoutSchema, expiryParts, manageSchema } from "./schema";
export type { SubscriptionTab } from "./schema";
