/** Milliseconds in an hour and in a day (UTC days have no daylight-saving shifts). */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** `at` moved by whole days (exact: UTC days are 24 hours). */
export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

/** Rounds to `places` decimals, clearing the negative zero. */
export function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}
