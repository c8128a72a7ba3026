// Written by features/series: weekly care, its schedules, pets and skipped days.

import type { Generated, Selectable } from "kysely";
import type { CancellationPolicy, IsoTime } from "./shared";

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

export type CareSeries = Selectable<CareSeriesTable>;
export type CareSeriesSchedule = Selectable<CareSeriesSchedulesTable>;

export interface SeriesTables {
  care_series: CareSeriesTable;
  care_series_schedules: CareSeriesSchedulesTable;
  care_series_pets: CareSeriesPetsTable;
  care_series_skips: CareSeriesSkipsTable;
}
