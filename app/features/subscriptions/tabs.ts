export const TABS = ["plans", "mine"] as const;
export type SubscriptionTab = (typeof TABS)[number];
