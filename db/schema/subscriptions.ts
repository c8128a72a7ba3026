// Written by features/subscriptions: the plans (seeded by db/plans.ts), subscriptions and their payments.

import type { Generated, Selectable } from "kysely";
import type { IsoTime } from "./shared";

export type PlanInterval = "month" | "6months" | "year";

export interface SubscriptionPlansTable {
  id: string;
  name: string;
  price_cents: number;
  currency: Generated<string>;
  interval: PlanInterval;
  /** JSON array of feature ids. */
  features: Generated<string>;
  popular: Generated<number>;
  position: Generated<number>;
  stripe_price_id: string | null;
  active: Generated<number>;
  created_at: IsoTime;
}

export type SubscriptionStatus = "incomplete" | "active" | "past_due" | "unpaid" | "canceled";

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  plan_id: string;
  status: Generated<SubscriptionStatus>;
  provider: string;
  provider_subscription_ref: string | null;
  billing_anchor: IsoTime | null;
  period_index: Generated<number>;
  current_period_start: IsoTime | null;
  current_period_end: IsoTime | null;
  cancel_at_period_end: Generated<number>;
  pending_plan_id: string | null;
  billing_task: "charge" | null;
  failed_attempts: Generated<number>;
  next_retry_at: IsoTime | null;
  last_payment_error: string | null;
  canceled_at: IsoTime | null;
  ended_at: IsoTime | null;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export interface SubscriptionPaymentsTable {
  id: string;
  subscription_id: string;
  user_id: string;
  plan_id: string;
  amount_cents: number;
  status: "paid" | "failed";
  provider_ref: string | null;
  failure_code: string | null;
  idempotency_key: string;
  created_at: IsoTime;
}

export type SubscriptionPlan = Selectable<SubscriptionPlansTable>;
export type Subscription = Selectable<SubscriptionsTable>;

export interface SubscriptionTables {
  subscription_plans: SubscriptionPlansTable;
  subscriptions: SubscriptionsTable;
  subscription_payments: SubscriptionPaymentsTable;
}
