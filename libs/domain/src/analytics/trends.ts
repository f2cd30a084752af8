import { dayStart, hourStart } from '../budget';

import { addDays, DAY_MS, HOUR_MS } from './time-buckets';

/** Trend windows and metrics of `GET /analytics/trends`; the first of each is the default. */
export const ANALYTICS_TREND_PERIODS = ['7d', '30d', '90d'] as const;
export type AnalyticsTrendPeriod = (typeof ANALYTICS_TREND_PERIODS)[number];

export const ANALYTICS_TREND_METRICS = ['spend', 'tasks_completed', 'active_agents', 'success_rate'] as const;
export type AnalyticsTrendMetric = (typeof ANALYTICS_TREND_METRICS)[number];

export type BucketSize = 'hour' | 'day';

/** The continuous buckets of a trend window: their starts (ascending) and width. */
export interface TrendBuckets {
  readonly size: BucketSize;
  readonly starts: readonly Date[];
  /** Start of the first bucket: the window's lower bound. */
  readonly from: Date;
}

const WINDOW_DAYS: Readonly<Record<AnalyticsTrendPeriod, number>> = { '7d': 7, '30d': 30, '90d': 90 };

/**
 * The buckets of a window ending at `now`: hourly for 7d (168, the last one the hour `now` is in),
 * daily for 30d and 90d (30 or 90, the last one today). Boundaries are UTC hours and days.
 */
export function trendBuckets(period: AnalyticsTrendPeriod, now: Date): TrendBuckets {
  const days = WINDOW_DAYS[period];
  if (period === '7d') {
    const count = days * 24;
    const last = hourStart(now).getTime();
    const starts = Array.from({ length: count }, (_, i) => new Date(last - (count - 1 - i) * HOUR_MS));
    return { size: 'hour', starts, from: starts[0] };
  }
  const today = dayStart(now);
  const starts = Array.from({ length: days }, (_, i) => addDays(today, i - (days - 1)));
  return { size: 'day', starts, from: starts[0] };
}

/** Width of a bucket in milliseconds. */
export function bucketWidthMs(size: BucketSize): number {
  return size === 'hour' ? HOUR_MS : DAY_MS;
}

/** Index of the bucket `at` falls in, or -1 outside the window. */
export function bucketIndex(buckets: TrendBuckets, at: Date): number {
  const offset = at.getTime() - buckets.from.getTime();
  const index = Math.floor(offset / bucketWidthMs(buckets.size));
  return offset < 0 || index >= buckets.starts.length ? -1 : index;
}

/** A value per bucket start; buckets without one are 0, points outside the window are dropped. */
export function zeroFilled(buckets: TrendBuckets, points: readonly { bucket: Date; value: number }[]): number[] {
  const values = buckets.starts.map(() => 0);
  for (const point of points) {
    const index = bucketIndex(buckets, point.bucket);
    if (index >= 0) {
      values[index] = values[index] + point.value;
    }
  }
  return values;
}

/** One finished run as the task trends count it. */
export interface RunOutcome {
  readonly completedAt: Date;
  readonly success: boolean;
}

/** Successful runs per bucket: the tasks completed. */
export function completedPerBucket(buckets: TrendBuckets, runs: readonly RunOutcome[]): number[] {
  return zeroFilled(
    buckets,
    runs.filter((run) => run.success).map((run) => ({ bucket: run.completedAt, value: 1 })),
  );
}

/** Share of successful runs per bucket (0–1, four decimals); 0 for a bucket without runs. */
export function successRatePerBucket(buckets: TrendBuckets, runs: readonly RunOutcome[]): number[] {
  const all = zeroFilled(
    buckets,
    runs.map((run) => ({ bucket: run.completedAt, value: 1 })),
  );
  const succeeded = completedPerBucket(buckets, runs);
  return all.map((count, i) => (count === 0 ? 0 : Math.round((succeeded[i] / count) * 1e4) / 1e4));
}
