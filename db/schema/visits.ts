// Written by features/visits: check-ins and reports (migration 0021), their checklist items, photos and videos.

import type { Generated, Selectable } from "kysely";
import type { IsoTime } from "./shared";

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

export type Visit = Selectable<VisitsTable>;
export type VisitItem = Selectable<VisitItemsTable>;

export interface VisitTables {
  visits: VisitsTable;
  visit_items: VisitItemsTable;
  visit_media: VisitMediaTable;
}
