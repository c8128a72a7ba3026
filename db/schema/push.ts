// Written by features/push: browsers' push subscriptions, the push outbox and the server's VAPID keys.

import type { Generated } from "kysely";
import type { IsoTime } from "./shared";

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

export interface PushTables {
  push_subscriptions: PushSubscriptionsTable;
  push_outbox: PushOutboxTable;
  push_keys: PushKeysTable;
}
