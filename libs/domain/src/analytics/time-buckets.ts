/** Milliseconds in an hour and in a day (UTC days have no daylight-saving shifts). */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** 00:00 UTC of the day `at` falls in. */
export function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** The start of the UTC hour `at` falls in. */
export function startOfUtcHour(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/** `at` moved by whole days (exact: UTC days are 24 hours). */
export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

/** The calendar date of `at` in UTC, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Rounds to `places` decimals, clearing the negative zero. */
export function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}

/**
 * Start of the billing period `at` falls in: 00:00 UTC on `resetDay` of this month, or of the
 * previous month when the day of the month is still before it. `resetDay` is 1–28, so every month has it.
 */
export function billingPeriodStart(at: Date, resetDay: number): Date {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  const thisMonth = Date.UTC(year, month, resetDay);
  return new Date(at.getTime() >= thisMonth ? thisMonth : Date.UTC(year, month - 1, resetDay));
}
