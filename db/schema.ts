import type { Generated, Insertable, Selectable, Updateable } from "kysely";

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
  /** Sitters only: what an hour costs, in euro cents. */
  hourly_rate_cents: number | null;
  /** JSON array of experience chip ids (see app/features/profiles/options.ts). */
  experience: Generated<string>;
  /** JSON array of the pet types a sitter cares for: "dog", "cat". */
  cares_for: Generated<string>;
  /** For role "both": the role they act in now; null means the role itself. */
  acting_role: "owner" | "sitter" | null;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export type PetType = "dog" | "cat";
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
  | "welcome"
  | "booking_request"
  | "booking_status_update"
  | "message"
  | "review"
  | "match";

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: NotificationType;
  /** JSON object of values interpolated into the translated title and message. */
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
}

export interface RateLimitsTable {
  key: string;
  window_started_at: number;
  hits: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  notifications: NotificationsTable;
  email_outbox: EmailOutboxTable;
  rate_limits: RateLimitsTable;
  pets: PetsTable;
  photos: PhotosTable;
  swipes: SwipesTable;
  matches: MatchesTable;
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
export type Photo = Selectable<PhotosTable>;
