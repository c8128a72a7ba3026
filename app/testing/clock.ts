import { afterEach } from "vitest";
import { advanceClock, now, resetClock } from "~/platform/clock.server";

export { advanceClock, resetClock };

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The server's clock is shared by the whole test file: put it back after each test. */
export const resetClockAfterEach = () => afterEach(() => resetClock());

/** Moves the server's clock to `plusMs` after `instant`. */
export function clockTo(instant: Date | string, plusMs = MINUTE) {
  advanceClock(new Date(instant).getTime() - now().getTime() + plusMs);
}

/** One in the morning (UTC) of a coming day, so a day's budget cannot roll over mid-test. */
export function startOfAFreshDay() {
  const current = now().getTime();
  advanceClock(Math.floor(current / DAY) * DAY + DAY + HOUR - current);
}
