// Written by features/bookings (applyEvent, the booking machine): bookings, their pets and their history.

import type { Generated, Selectable } from "kysely";
import type { CancellationPolicy, IsoTime } from "./shared";

export type BookingStatus = "requested" | "confirmed" | "in-progress" | "completed" | "cancelled";
export type PaymentStatus = "unpaid" | "held" | "released" | "refunded" | "failed";
export type PaymentTask = "hold" | "capture" | "void";

export interface BookingsTable {
  id: string;
  owner_id: string;
  sitter_id: string;
  pet_id: string | null;
  pet_name: string;
  /** A ServiceId; 'hourly' is the specification's booking (migration 0040 renamed the old 'walk' to it). */
  service_type: Generated<string>;
  location: Generated<string>;
  notes: Generated<string>;
  start_at: IsoTime;
  end_at: IsoTime;
  /** How many units the price counts: hours (1-6) for 'hourly', nights or days (1-30) for a stay (migration 0047). */
  hours: number;
  /** The sitter's price per unit when requested: the hour, or for a stay the night or day. */
  hourly_rate_cents: number;
  subtotal_cents: number;
  fee_cents: number;
  total_cents: number;
  status: Generated<BookingStatus>;
  payment_status: Generated<PaymentStatus>;
  payment_provider: string;
  card_ref: string | null;
  card_label: string | null;
  hold_ref: string | null;
  payment_task: PaymentTask | null;
  payment_task_attempts: Generated<number>;
  payment_error: string | null;
  hold_due_at: IsoTime | null;
  cancel_reason: string | null;
  cancelled_by: "owner" | "sitter" | "system" | null;
  confirmed_at: IsoTime | null;
  completed_at: IsoTime | null;
  released_at: IsoTime | null;
  disputed_at: IsoTime | null;
  problem_reported_at: IsoTime | null;
  problem_resolved_at: IsoTime | null;
  capture_cents: number | null;
  refund_due_cents: number | null;
  refunded_cents: Generated<number>;
  /** The sitter's policy when the booking was requested; null for bookings older than policies (a full refund). */
  cancellation_policy: CancellationPolicy | null;
  /** The sitter's price per extra pet and unit when requested (migration 0042); each pet after the first costs it. */
  extra_pet_cents: Generated<number>;
  /**
   * 'hold': the card is authorised and captured at release. 'charge' (a stay longer than a hold lasts): the card
   * is charged at the start (hold_ref is then the charge) and the sitter's part paid out at release (payout_ref).
   */
  payment_mode: Generated<PaymentMode>;
  payout_ref: string | null;
  /** An occurrence of weekly care (migration 0051): its series, the sitter's calendar day and the schedule it follows. */
  series_id: string | null;
  series_day: string | null;
  series_schedule_id: string | null;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export type PaymentMode = "hold" | "charge";

/**
 * The pets of a booking (migration 0042), position 0 first. bookings.pet_id and pet_name repeat the first
 * one for the pages that name one pet.
 */
export interface BookingPetsTable {
  booking_id: string;
  position: number;
  pet_id: string | null;
  pet_name: string;
}

export type Booking = Selectable<BookingsTable>;

export interface BookingHistoryTable {
  id: Generated<number>;
  booking_id: string;
  event: string;
  actor_kind: "owner" | "sitter" | "operator" | "system";
  actor_id: string | null;
  status_from: BookingStatus | null;
  status_to: BookingStatus;
  payment_from: PaymentStatus | null;
  payment_to: PaymentStatus;
  /** JSON: the reason or amount the event carried, never card data. */
  detail: Generated<string>;
  created_at: IsoTime;
}

export interface BookingTables {
  bookings: BookingsTable;
  booking_pets: BookingPetsTable;
  booking_history: BookingHistoryTable;
}
