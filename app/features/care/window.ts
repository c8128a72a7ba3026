/**
 * When a sitter may read a pet's care plan: with a confirmed or in-progress booking for that pet
 * (or one completed by its end), from 24 hours before the start until 72 hours after the end.
 */
export const PLAN_OPENS_BEFORE_MS = 24 * 3600_000;
export const PLAN_CLOSES_AFTER_MS = 72 * 3600_000;

const SHOWING_STATUSES = new Set(["confirmed", "in-progress", "completed"]);

export interface WindowBooking {
  status: string;
  start_at: string;
  end_at: string;
}

export function careWindowOpen(booking: WindowBooking, at: Date): boolean {
  if (!SHOWING_STATUSES.has(booking.status)) return false;
  const time = at.getTime();
  return (
    time >= new Date(booking.start_at).getTime() - PLAN_OPENS_BEFORE_MS &&
    time <= new Date(booking.end_at).getTime() + PLAN_CLOSES_AFTER_MS
  );
}
