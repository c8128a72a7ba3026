// Written by features/disputes: problems reported on bookings, their posts and photos.

import type { Generated } from "kysely";
import type { IsoTime } from "./shared";

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

export interface DisputeTables {
  disputes: DisputesTable;
  dispute_posts: DisputePostsTable;
  dispute_photos: DisputePhotosTable;
}
