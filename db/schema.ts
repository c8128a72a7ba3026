import type { Generated, GeneratedAlways, Insertable, Selectable, Updateable } from "kysely";

/** Times are ISO-8601 strings in UTC; booleans are 0/1 integers (SQLite has no boolean). */
export type IsoTime = string;

export type Role = "owner" | "sitter" | "both";

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  email_verified_at: IsoTime | null;
  name: string;
  phone: string;
  city: string;
  postal_code: string;
  role: Role;
  bio: string;
  latitude: number | null;
  longitude: number | null;
  location_enabled: Generated<number>;
  location_updated_at: IsoTime | null;
  time_zone: Generated<string>;
  language: Generated<string>;
  hourly_rate_cents: number | null;
  years_experience: number | null;
  /** How much an owner gets back on cancelling (migration 0038). */
  cancellation_policy: Generated<CancellationPolicy>;
  /** The most pets a sitter takes at once, 1-6 (migration 0040). */
  max_pets: Generated<number>;
  /** What each pet after the first adds per unit of any service, 0-5000 cents (migration 0040). */
  extra_pet_cents: Generated<number>;
  /** When the person accepted the terms and privacy policy (sign-up); null for accounts older than the record. */
  terms_accepted_at: IsoTime | null;
  /** JSON array of experience chip ids. */
  experience: Generated<string>;
  /** JSON array: "dog", "cat". */
  cares_for: Generated<string>;
  /** cares_for as bits (dog 1, cat 2), written with it by the profiles feature, for the deck's pet filter (migration 0025). */
  cares_for_mask: Generated<number>;
  /** Until when the live subscription makes this person premium ('9999-…' while past due), kept by triggers on subscriptions (migration 0027). */
  premium_until: string | null;
  /** The lowest of a sitter's prices (by the hour or any service), null while they offer none; kept by triggers (migration 0046). */
  from_price_cents: number | null;
  acting_role: "owner" | "sitter" | null;
  browse_mode: "local" | "global" | null;
  filter_pet_type: Generated<"all" | PetType>;
  filter_max_distance_km: Generated<number>;
  filter_min_rating: Generated<number>;
  filter_max_price_cents: number | null;
  filter_sort: Generated<DeckSort>;
  /** The deck's service filter: a service id or 'any' (migration 0046). */
  filter_service: Generated<string>;
  /** The deck's dates filter (YYYY-MM-DD), both set or both null (migration 0046). */
  filter_first_day: string | null;
  filter_last_day: string | null;
  /** The deck's number of pets filter, 1-6 (1 filters nothing; migration 0046). */
  filter_pets: Generated<number>;
  rating_average: number | null;
  review_count: Generated<number>;
  /** Likes given on `likes_day` (the person's local calendar day), for the free daily limit. */
  likes_day: string | null;
  likes_on_day: Generated<number>;
  sounds_enabled: Generated<number>;
  unit_x: GeneratedAlways<number | null>;
  unit_y: GeneratedAlways<number | null>;
  unit_z: GeneratedAlways<number | null>;
  stripe_customer_id: string | null;
  stripe_account_id: string | null;
  payouts_enabled: Generated<number>;
  /** 1 for an operator (given by `npm run admin:grant`, never by sign-up). */
  is_admin: Generated<number>;
  suspended_at: IsoTime | null;
  suspension_reason: string | null;
  /** 1: this kind of news also goes by email (migration 0019). */
  email_messages: Generated<number>;
  email_bookings: Generated<number>;
  email_reviews: Generated<number>;
  email_marketing: Generated<number>;
  /** Set when the account was erased; the row keeps only what accounting needs. */
  deleted_at: IsoTime | null;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export type PetType = "dog" | "cat";
export type CancellationPolicy = "flexible" | "moderate" | "strict";
export type DeckSort = "distance" | "rating" | "price" | "newest";
export type EnergyLevel = "low" | "medium" | "high";

export interface PetsTable {
  id: string;
  owner_id: string;
  name: string;
  pet_type: PetType;
  age: string;
  breed: Generated<string>;
  notes: Generated<string>;
  /** JSON array of temperament ids. */
  temperament: Generated<string>;
  special_needs: Generated<string>;
  energy_level: Generated<EnergyLevel>;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export interface PhotosTable {
  id: string;
  user_id: string;
  pet_id: string | null;
  position: number;
  card_key: string;
  full_key: string;
  width: number;
  height: number;
  created_at: IsoTime;
}

export interface PendingUploadsTable {
  id: string;
  user_id: string;
  /** Which form the photos were sent with, e.g. "pet". */
  form: string;
  card_key: string;
  full_key: string;
  width: number;
  height: number;
  created_at: IsoTime;
}

export interface SessionsTable {
  /** SHA-256 of the opaque id held in the cookie, so a leaked database cannot be replayed as cookies. */
  id_hash: string;
  user_id: string;
  created_at: IsoTime;
  last_seen_at: IsoTime;
  expires_at: IsoTime;
}

export type EmailTokenPurpose = "confirm" | "reset";

export interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  expires_at: IsoTime;
  used_at: IsoTime | null;
  created_at: IsoTime;
}

export type NotificationType =
  "welcome" | "booking_request" | "booking_status_update" | "message" | "review" | "match" | "subscription";

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: NotificationType;
  data: Generated<string>;
  link: string | null;
  is_read: Generated<number>;
  created_at: IsoTime;
}

export interface EmailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: IsoTime;
  sent_at: IsoTime | null;
  last_error: string | null;
  attempts: Generated<number>;
  next_try_at: IsoTime | null;
  failed_at: IsoTime | null;
  /** RFC 8058 one-click unsubscribe address, sent as List-Unsubscribe. */
  unsubscribe_url: string | null;
  /** 1: address and text are wiped once delivered (sent to an erased account). */
  purge_after_send: Generated<number>;
}

export interface EmailChangesTable {
  token_hash: string;
  user_id: string;
  new_email: string;
  expires_at: IsoTime;
  used_at: IsoTime | null;
  created_at: IsoTime;
}

export interface DataExportsTable {
  id: string;
  user_id: string;
  created_at: IsoTime;
  expires_at: IsoTime;
}

export interface RateLimitsTable {
  key: string;
  window_started_at: number;
  hits: number;
  /** Seconds since the epoch. */
  expires_at: number;
}

export interface RateLimitHitsTable {
  id: string;
  key: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** Milliseconds since the epoch: when the hit stops counting under any window in use. */
  expires_at: number;
}

export interface BackoffsTable {
  key: string;
  attempts: number;
  /** Milliseconds since the epoch. */
  last_attempt_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  notifications: NotificationsTable;
  email_outbox: EmailOutboxTable;
  rate_limits: RateLimitsTable;
  backoffs: BackoffsTable;
  rate_limit_hits: RateLimitHitsTable;
  pets: PetsTable;
  photos: PhotosTable;
  pending_uploads: PendingUploadsTable;
  swipes: SwipesTable;
  matches: MatchesTable;
  places: PlacesTable;
  availability_slots: AvailabilitySlotsTable;
  sitter_days_off: SitterDaysOffTable;
  bookings: BookingsTable;
  booking_pets: BookingPetsTable;
  test_payments: TestPaymentsTable;
  test_transfers: TestTransfersTable;
  calendar_feeds: CalendarFeedsTable;
  payment_idempotency: PaymentIdempotencyTable;
  stripe_events: StripeEventsTable;
  reviews: ReviewsTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  conversation_reads: ConversationReadsTable;
  live_events: LiveEventsTable;
  subscription_plans: SubscriptionPlansTable;
  payment_methods: PaymentMethodsTable;
  subscriptions: SubscriptionsTable;
  subscription_payments: SubscriptionPaymentsTable;
  booking_history: BookingHistoryTable;
  disputes: DisputesTable;
  dispute_posts: DisputePostsTable;
  dispute_photos: DisputePhotosTable;
  audit_log: AuditLogTable;
  reports: ReportsTable;
  blocks: BlocksTable;
  care_plans: CarePlansTable;
  visits: VisitsTable;
  visit_items: VisitItemsTable;
  visit_media: VisitMediaTable;
  email_changes: EmailChangesTable;
  data_exports: DataExportsTable;
  push_subscriptions: PushSubscriptionsTable;
  sitter_services: SitterServicesTable;
  meet_greets: MeetGreetsTable;
  care_series: CareSeriesTable;
  care_series_schedules: CareSeriesSchedulesTable;
  care_series_pets: CareSeriesPetsTable;
  care_series_skips: CareSeriesSkipsTable;
  push_outbox: PushOutboxTable;
  push_keys: PushKeysTable;
}

/** Append-only: triggers refuse UPDATE and DELETE (migration 0017). */
export interface AuditLogTable {
  id: Generated<number>;
  /** null for a command run on the server (`npm run admin:grant`). */
  operator_id: string | null;
  action: string;
  subject_type: string;
  subject_id: string;
  reason: string;
  /** JSON object. */
  details: Generated<string>;
  created_at: IsoTime;
}

export type ReportSubject = "profile" | "message" | "review" | "booking";
export type ReportReason = "scam" | "inappropriate" | "harassment" | "unsafe-animals" | "fake-profile" | "other";
export type ReportResolution = "dismissed" | "hidden" | "warned" | "suspended";

export interface ReportsTable {
  id: string;
  reporter_id: string;
  /** The person the report is about (never shown who reported them). */
  reported_user_id: string;
  subject_type: ReportSubject;
  subject_id: string;
  reason: ReportReason;
  details: Generated<string>;
  status: Generated<"open" | "closed">;
  resolution: ReportResolution | null;
  resolved_by: string | null;
  resolved_at: IsoTime | null;
  created_at: IsoTime;
}

export interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: IsoTime;
}

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

export interface ConversationsTable {
  id: string;
  /** The smaller of the two user ids. */
  user_a_id: string;
  user_b_id: string;
  created_at: IsoTime;
  last_message_at: IsoTime | null;
}

export interface MessagesTable {
  id: Generated<number>;
  conversation_id: string;
  sender_id: string;
  body: string;
  media_key: string | null;
  media_type: "image" | "video" | null;
  media_preview_key: string | null;
  /** A card linking to a page of the app (a visit report), or null for a plain message. */
  card_link: Generated<string | null>;
  created_at: IsoTime;
  /** Set when an operator removed the message: everyone sees "Removed by Trusted Sitters". */
  hidden_at: IsoTime | null;
  hidden_by: string | null;
}

export interface ConversationReadsTable {
  conversation_id: string;
  user_id: string;
  last_read_message_id: Generated<number>;
  /** Messages from the other member after last_read_message_id: kept up to date by sendMessage and markConversationRead. */
  unread_count: Generated<number>;
}

export type LiveEventType = "message" | "notification" | "match" | "booking" | "deck";

export interface LiveEventsTable {
  id: Generated<number>;
  user_id: string;
  type: LiveEventType;
  /** JSON: ids, never secrets. */
  payload: Generated<string>;
  created_at: IsoTime;
}

export type SlotStatus = "available" | "booked" | "unavailable";

export interface AvailabilitySlotsTable {
  id: string;
  sitter_id: string;
  start_at: IsoTime;
  end_at: IsoTime;
  status: Generated<SlotStatus>;
  booking_id: string | null;
  created_at: IsoTime;
}

/** A whole day a sitter is not free (migration 0041); days without a row are free. */
export interface SitterDaysOffTable {
  sitter_id: string;
  /** YYYY-MM-DD in the sitter's time zone. */
  day: string;
}

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

export type MeetGreetPlace = "owners_home" | "sitters_home" | "elsewhere" | "video";
export type MeetGreetStatus = "proposed" | "accepted" | "declined" | "cancelled";

/** A free meet & greet before a first booking (migration 0049). */
export interface MeetGreetsTable {
  id: string;
  owner_id: string;
  sitter_id: string;
  start_at: IsoTime;
  place: MeetGreetPlace;
  /** The place typed in ('elsewhere'), or a note on the place; at most 200 characters. */
  place_note: Generated<string>;
  status: Generated<MeetGreetStatus>;
  /** Who proposed the time now on the table: the other side answers it. */
  proposed_by: "owner" | "sitter";
  reminded_at: IsoTime | null;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export type SeriesService = "walk" | "drop_in" | "day_care";
export type SeriesStatus = "requested" | "active" | "declined" | "withdrawn" | "ended";
export type ScheduleStatus = "proposed" | "accepted" | "declined" | "withdrawn";

/** Weekly care (migration 0051): the same walk, visit or day care on some weekdays, each occurrence its own booking. */
export interface CareSeriesTable {
  id: string;
  owner_id: string;
  sitter_id: string;
  service: SeriesService;
  /** A walk's or visit's length; for day care, from the drop-off (the schedule's time) to the pick-up. */
  minutes: number;
  price_cents: number;
  extra_pet_cents: Generated<number>;
  cancellation_policy: CancellationPolicy;
  /** The sitter's zone when asked: the weekdays and the time are the sitter's wall clock. */
  time_zone: string;
  first_day: string;
  last_day: string | null;
  notes: Generated<string>;
  status: Generated<SeriesStatus>;
  ended_by: "owner" | "sitter" | "system" | null;
  created_at: IsoTime;
  updated_at: IsoTime;
}

/** A series' days and time from a day on; the first is the request, later ones are changes. */
export interface CareSeriesSchedulesTable {
  id: string;
  series_id: string;
  from_day: string;
  /** ISO weekdays, 1 (Monday) to 7, comma-separated in order. */
  weekdays: string;
  start_time: string;
  status: Generated<ScheduleStatus>;
  proposed_by: "owner" | "sitter";
  created_at: IsoTime;
  answered_at: IsoTime | null;
}

export interface CareSeriesPetsTable {
  series_id: string;
  position: number;
  pet_id: string;
  pet_name: string;
}

/** A date skipped before its occurrence was made. */
export interface CareSeriesSkipsTable {
  series_id: string;
  day: string;
  skipped_by: "owner" | "sitter";
  created_at: IsoTime;
}

/** A service a sitter offers besides pet sitting by the hour (migration 0040). */
export interface SitterServicesTable {
  sitter_id: string;
  service: Exclude<ServiceId, "hourly">;
  price_cents: number;
  /** 30 or 60 for a walk, 30 for a drop-in visit, null for day care and stays. */
  duration_minutes: number | null;
}

export type ServiceId = "hourly" | "walk" | "drop_in" | "day_care" | "house_sitting" | "boarding";

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

/** A person's private calendar address (migration 0045): the token is the secret part of the URL. */
export interface CalendarFeedsTable {
  user_id: string;
  token: string;
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

export interface ReviewsTable {
  id: string;
  booking_id: string;
  reviewer_id: string;
  reviewed_id: string;
  rating: number;
  comment: Generated<string>;
  created_at: IsoTime;
  hidden_at: IsoTime | null;
  hidden_by: string | null;
  reply: string | null;
  replied_at: IsoTime | null;
}

export interface PlacesTable {
  key: string;
  name: string;
  country: string;
  latitude: number;
  longitude: number;
  population: number;
}

export interface SwipesTable {
  id: Generated<number>;
  swiper_id: string;
  target_user_id: string;
  target_pet_id: string | null;
  decision: "like" | "pass";
  created_at: IsoTime;
}

export interface MatchesTable {
  id: string;
  /** The smaller of the two user ids. */
  user_a_id: string;
  user_b_id: string;
  created_at: IsoTime;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Notification = Selectable<NotificationsTable>;
export type OutboxEmail = Selectable<EmailOutboxTable>;
export type Pet = Selectable<PetsTable>;
export type Booking = Selectable<BookingsTable>;
export type MeetGreet = Selectable<MeetGreetsTable>;
export type CareSeries = Selectable<CareSeriesTable>;
export type CareSeriesSchedule = Selectable<CareSeriesSchedulesTable>;
export type AvailabilitySlot = Selectable<AvailabilitySlotsTable>;
export type Photo = Selectable<PhotosTable>;
export type PendingUpload = Selectable<PendingUploadsTable>;
export type SubscriptionPlan = Selectable<SubscriptionPlansTable>;
export type PaymentMethod = Selectable<PaymentMethodsTable>;
export type Subscription = Selectable<SubscriptionsTable>;

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

export type DisputeOutcome = "release" | "partial" | "refund";

export interface DisputesTable {
  id: string;
  booking_id: string;
  reason: string;
  status: Generated<"open" | "resolved">;
  outcome: DisputeOutcome | null;
  refund_cents: number | null;
  resolution_note: string | null;
  resolved_by: string | null;
  resolved_at: IsoTime | null;
  created_at: IsoTime;
}

export interface DisputePostsTable {
  id: string;
  dispute_id: string;
  author_id: string | null;
  body: string;
  created_at: IsoTime;
}

export interface DisputePhotosTable {
  id: string;
  post_id: string;
  card_key: string;
  full_key: string;
  width: number;
  height: number;
  position: number;
}
export type AuditEntry = Selectable<AuditLogTable>;
export type Report = Selectable<ReportsTable>;

// Care plans and visits (migration 0021).

export interface CarePlansTable {
  pet_id: string;
  /** One feeding, dose or walk per line. */
  feeding: string;
  medication: string;
  walks: string;
  house_notes: string;
  vet_name: string;
  vet_phone: string;
  vet_address: string;
  emergency_name: string;
  emergency_phone: string;
  updated_at: IsoTime;
}

export type VisitStatus = "checked-in" | "checked-out";
export type VisitItemKind = "feeding" | "medication" | "walk";

export interface VisitsTable {
  booking_id: string;
  /** A stay's daily update: the sitter's calendar day; '' for any other booking's single report. */
  day: string;
  status: VisitStatus;
  checked_in_at: IsoTime;
  checked_out_at: IsoTime | null;
  /** JSON array of quick note ids. */
  quick_notes: Generated<string>;
  note: Generated<string>;
  /** JSON array of [latitude, longitude, seconds since the walk began], rounded. */
  walk_route: string | null;
  walk_distance_m: number | null;
  walk_duration_s: number | null;
}

export interface VisitItemsTable {
  booking_id: string;
  day: string;
  position: number;
  kind: VisitItemKind;
  label: string;
  done_at: IsoTime | null;
}

export interface VisitMediaTable {
  key: string;
  booking_id: string;
  day: string;
  preview_key: string | null;
  media_type: "image" | "video";
  created_at: IsoTime;
}

export type CarePlan = Selectable<CarePlansTable>;
export type Visit = Selectable<VisitsTable>;
export type VisitItem = Selectable<VisitItemsTable>;

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  /** The push service's URL for this browser (https, a known push service). */
  endpoint: string;
  /** The browser's P-256 public key (65 bytes, base64url). */
  p256dh: string;
  /** The browser's authentication secret (16 bytes, base64url). */
  auth: string;
  device_label: string;
  created_at: IsoTime;
}

export interface PushOutboxTable {
  id: Generated<number>;
  subscription_id: string;
  user_id: string;
  source_user_id: string | null;
  title: string;
  body: string;
  link: string;
  created_at: IsoTime;
  attempts: Generated<number>;
  next_try_at: IsoTime | null;
  sent_at: IsoTime | null;
  failed_at: IsoTime | null;
  last_error: string | null;
}

/** VAPID keys made by the server where none is configured (not in production). */
export interface PushKeysTable {
  name: string;
  public_key: string;
  private_key: string;
  created_at: IsoTime;
}
