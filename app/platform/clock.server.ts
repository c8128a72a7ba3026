/**
 * The one source of "now" on the server. Tests and demos may move time forward
 * (see /dev/clock) so that time-driven rules can be exercised without waiting.
 */
let offsetMs = 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

export function nowIso(): string {
  return now().toISOString();
}

export function advanceClock(ms: number): void {
  offsetMs += ms;
}

export function resetClock(): void {
  offsetMs = 0;
}
