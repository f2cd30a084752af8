const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The rollup grains: per hour and agent, per day and agent, per day, agent and task. */
export const ROLLUP_GRAINS = ['hour', 'day', 'task'] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];

/** Start of the UTC hour holding `at`. */
export function hourStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/** Start of the UTC day (00:00 UTC) holding `at`. */
export function dayStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/** The UTC day after the one holding `at`. */
export function nextDay(at: Date): Date {
  return new Date(dayStart(at).getTime() + DAY_MS);
}

/** `YYYY-MM-DD` of the UTC day holding `at`. */
export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** A half-open time range [start, end). */
export interface TimeRange {
  readonly start: Date;
  readonly end: Date;
}

/**
 * The billing period holding `at` (engine.md §10): it starts at 00:00 UTC on `resetDay` of this
 * month, or of the previous month when the day of month is before `resetDay`, and ends where the
 * next one starts. `resetDay` is 1–28, so every month has it.
 */
export function billingPeriod(at: Date, resetDay: number): TimeRange {
  const day = Math.min(28, Math.max(1, Math.trunc(resetDay)));
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() - (at.getUTCDate() < day ? 1 : 0);
  return { start: new Date(Date.UTC(year, month, day)), end: new Date(Date.UTC(year, month + 1, day)) };
}

/** The UTC day holding `at` as a range. */
export function dayRange(at: Date): TimeRange {
  const start = dayStart(at);
  return { start, end: new Date(start.getTime() + DAY_MS) };
}
