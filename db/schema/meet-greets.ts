// Written by features/meet-greets: meet & greets before a first booking.

import type { Generated, Selectable } from "kysely";
import type { IsoTime } from "./shared";

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

export type MeetGreet = Selectable<MeetGreetsTable>;

export interface MeetGreetTables {
  meet_greets: MeetGreetsTable;
}
