// Written by features/auth: sign-up creates the person's row; email confirmation and password reset tokens.
// Other features update their own columns of users: profiles, discovery, payments, account, admin, pets, notifications.

import type { Generated, GeneratedAlways, Insertable, Selectable, Updateable } from "kysely";
import type { CancellationPolicy, IsoTime, PetType } from "./shared";

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

export type DeckSort = "distance" | "rating" | "price" | "newest";
export type EmailTokenPurpose = "confirm" | "reset";

export interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  expires_at: IsoTime;
  used_at: IsoTime | null;
  created_at: IsoTime;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export interface AuthTables {
  users: UsersTable;
  email_tokens: EmailTokensTable;
}
