// Written by features/availability: a sitter's slots and days off.

import type { Generated, Selectable } from "kysely";
import type { IsoTime } from "./shared";

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

export type AvailabilitySlot = Selectable<AvailabilitySlotsTable>;

export interface AvailabilityTables {
  availability_slots: AvailabilitySlotsTable;
  sitter_days_off: SitterDaysOffTable;
}
