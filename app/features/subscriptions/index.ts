export { CheckoutSummary } from "./checkout-summary";
export { MySubscription } from "./my-subscription";
export { PaymentErrorBox } from "./payment-error-box";
export { PlanList } from "./plan-card";
export { addCardSchema, checkoutSchema, expiryParts, manageSchema } from "./schema";
export { TABS, type SubscriptionTab } from "./tabs";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadSubscriptionSchemas = () => import("./schema");
