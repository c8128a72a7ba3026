// Written by features/discovery: the deck's likes and passes, and the matches they make.

import type { Generated } from "kysely";
import type { IsoTime } from "./shared";

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

export interface DiscoveryTables {
  swipes: SwipesTable;
  matches: MatchesTable;
}
