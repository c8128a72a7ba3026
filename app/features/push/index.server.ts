export { handlePushAction, pushSettingsOf } from "./actions.server";
export type { PushActionAnswer } from "./actions.server";
export { deliverPendingPushes, enqueuePush, pruneSentPushes } from "./outbox.server";
export type { PushNews } from "./outbox.server";
export { vapidKeys } from "./keys.server";
export { MAX_SUBSCRIPTIONS_PER_PERSON, removeSubscription, saveSubscription } from "./subscriptions.server";
export { pushDevicesSection } from "./personal-data.server";
