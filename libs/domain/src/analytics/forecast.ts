import { dayStart, isoDay } from '../budget';

import { addDays, DAY_MS, roundTo } from './time-buckets';

/** `horizon_days` of the forecast: 1 to 90, default 14. */
export const FORECAST_HORIZON_MIN = 1;
export const FORECAST_HORIZON_MAX = 90;
export const FORECAST_HORIZON_DEFAULT = 14;

/** One UTC day of spend in the lookback. */
export interface DailySpend {
  /** 00:00 UTC of the day. */
  readonly day: Date;
  readonly cost: number;
  readonly records: number;
}

export interface ForecastInput {
  readonly horizonDays: number;
  readonly now: Date;
  /** Spend per day over the lookback (days without records may be absent). */
  readonly daily: readonly DailySpend[];
  /** The monthly budget; 0 means none is set. */
  readonly monthlyBudget: number;
  /** What is left of the current billing period's budget (never negative). */
  readonly remaining: number;
}

export interface SpendForecast {
  horizonDays: number;
  projectedTotal: number;
  dailyProjections: { day: string; projectedSpend: number }[];
  daysUntilExhausted: number | null;
  confidence: number;
  avgDailySpend: number;
}

/**
 * The lookback window of a forecast: `horizonDays` calendar days ending with today (UTC), so a
 * 14-day forecast learns from the last 14 days.
 */
export function forecastLookbackStart(now: Date, horizonDays: number): Date {
  return addDays(dayStart(now), -(horizonDays - 1));
}

/**
 * Projects spend from the lookback: the average is the total over the inclusive calendar-day span
 * of the days with records (at least 1); confidence is the share of that span with records. Day i
 * (from tomorrow) is projected at avg·(i+1); the budget runs out in ceil(remaining/avg) days when a
 * monthly budget is set and anything is spent. With no records everything is 0.
 */
export function forecastSpend(input: ForecastInput): SpendForecast {
  const withData = input.daily.filter((day) => day.records > 0);
  const total = withData.reduce((sum, day) => sum + day.cost, 0);
  let span = 1;
  if (withData.length > 0) {
    const times = withData.map((day) => dayStart(day.day).getTime());
    span = Math.round((Math.max(...times) - Math.min(...times)) / DAY_MS) + 1;
  }
  const distinctDays = new Set(withData.map((day) => isoDay(day.day))).size;
  const avg = total / span;
  const tomorrow = addDays(dayStart(input.now), 1);
  return {
    horizonDays: input.horizonDays,
    projectedTotal: roundTo(avg * input.horizonDays, 6),
    dailyProjections: Array.from({ length: input.horizonDays }, (_, i) => ({
      day: isoDay(addDays(tomorrow, i)),
      projectedSpend: roundTo(avg * (i + 1), 6),
    })),
    daysUntilExhausted: input.monthlyBudget > 0 && avg > 0 ? Math.ceil(input.remaining / avg) : null,
    confidence: roundTo(distinctDays / span, 4),
    avgDailySpend: roundTo(avg, 6),
  };
}
