// Belongs to features/reviews (answers to reviews); a review is left through features/bookings (leaveReview).

import type { Generated } from "kysely";
import type { IsoTime } from "./shared";

export interface ReviewsTable {
  id: string;
  booking_id: string;
  reviewer_id: string;
  reviewed_id: string;
  rating: number;
  comment: Generated<string>;
  created_at: IsoTime;
  hidden_at: IsoTime | null;
  hidden_by: string | null;
  reply: string | null;
  replied_at: IsoTime | null;
}

export interface ReviewTables {
  reviews: ReviewsTable;
}
