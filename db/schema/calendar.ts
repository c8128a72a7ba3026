// Written by features/calendar: private calendar feed addresses.

import type { IsoTime } from "./shared";

/** A person's private calendar address (migration 0045): the token is the secret part of the URL. */
export interface CalendarFeedsTable {
  user_id: string;
  token: string;
  created_at: IsoTime;
}

export interface CalendarTables {
  calendar_feeds: CalendarFeedsTable;
}
