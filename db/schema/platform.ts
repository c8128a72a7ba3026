// Written by app/platform/: sessions, the email outbox, rate limits and back-offs, live events, the audit log.
// Account deletion (features/account) also erases a person's rows; auth and admin also end sessions.

import type { Generated, Selectable } from "kysely";
import type { IsoTime } from "./shared";

export interface SessionsTable {
  /** SHA-256 of the opaque id held in the cookie, so a leaked database cannot be replayed as cookies. */
  id_hash: string;
  user_id: string;
  created_at: IsoTime;
  last_seen_at: IsoTime;
  expires_at: IsoTime;
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

export type LiveEventType = "message" | "notification" | "match" | "booking" | "deck";

export interface LiveEventsTable {
  id: Generated<number>;
  user_id: string;
  type: LiveEventType;
  /** JSON: ids, never secrets. */
  payload: Generated<string>;
  created_at: IsoTime;
}

export type OutboxEmail = Selectable<EmailOutboxTable>;
export type AuditEntry = Selectable<AuditLogTable>;

export interface PlatformTables {
  sessions: SessionsTable;
  email_outbox: EmailOutboxTable;
  rate_limits: RateLimitsTable;
  rate_limit_hits: RateLimitHitsTable;
  backoffs: BackoffsTable;
  live_events: LiveEventsTable;
  audit_log: AuditLogTable;
}
