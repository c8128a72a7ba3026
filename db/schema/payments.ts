// Written by features/payments: saved cards, Stripe's events, and the offline test provider's records.

import type { Generated, Selectable } from "kysely";
import type { IsoTime } from "./shared";

export interface PaymentMethodsTable {
  id: string;
  user_id: string;
  provider: string;
  provider_ref: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: Generated<number>;
  default_since: IsoTime | null;
  created_at: IsoTime;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  payload: string;
  received_at: IsoTime;
  processed_at: IsoTime | null;
  outcome: string | null;
}

export interface TestPaymentsTable {
  ref: string;
  kind: "card" | "hold" | "charge";
  amount_cents: number | null;
  card_last4: string;
  status: string;
  created_at: IsoTime;
}

/** The offline provider's payouts to sitters (migration 0044). */
export interface TestTransfersTable {
  ref: string;
  charge_ref: string;
  payee_ref: string;
  amount_cents: number;
  reversed_cents: Generated<number>;
  created_at: IsoTime;
}

export interface PaymentIdempotencyTable {
  key: string;
  result: string;
  created_at: IsoTime;
}

export type PaymentMethod = Selectable<PaymentMethodsTable>;

export interface PaymentTables {
  payment_methods: PaymentMethodsTable;
  stripe_events: StripeEventsTable;
  test_payments: TestPaymentsTable;
  test_transfers: TestTransfersTable;
  payment_idempotency: PaymentIdempotencyTable;
}
