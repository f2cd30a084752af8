import {
  DAY_MS,
  mean,
  meanOfPresent,
  MIN_DATA_POINTS,
  recordsWithinDays,
  roundTo,
  type TaskMetricRecord,
} from './task-metric';

/** What a performance summary reads of each run (callers read only these columns). */
export type PerformanceRecord = Pick<
  TaskMetricRecord,
  'completedAt' | 'isSuccess' | 'durationSeconds' | 'costUsd' | 'qualityScore' | 'collaborationScore' | 'tokensUsed'
>;

/** Rolling windows over which an agent's metrics are reported, newest first. */
export const PERFORMANCE_WINDOWS = ['7d', '30d', '90d'] as const;
export type WindowSize = (typeof PERFORMANCE_WINDOWS)[number];

const WINDOW_DAYS: Readonly<Record<WindowSize, number>> = { '7d': 7, '30d': 30, '90d': 90 };

export type TrendDirection = 'improving' | 'stable' | 'declining' | 'insufficient_data';

/** Metrics whose trends are reported, in the order they appear in a summary. */
export const TREND_METRICS = ['quality_score', 'cost_usd', 'success_rate'] as const;
export type TrendMetricName = (typeof TREND_METRICS)[number];

/** The window the trends are computed over. */
export const TREND_WINDOW: WindowSize = '30d';

/** A slope (per day) beyond this magnitude counts as a change; anything within it is stable. */
export const TREND_SLOPE_THRESHOLD = 0.05;

/**
 * Theil–Sen is quadratic in the number of points; past this many, an evenly spaced subset across the
 * window (always including the first and last point) is used, which keeps the estimate representative.
 */
export const MAX_TREND_POINTS = 1000;

const DECIMALS = 4;

/** Aggregates over one rolling window; served verbatim, hence the snake_case field names. */
export interface WindowMetrics {
  window_size: WindowSize;
  data_point_count: number;
  tasks_completed: number;
  tasks_failed: number;
  avg_quality_score: number | null;
  avg_cost_per_task: number | null;
  avg_completion_time_seconds: number | null;
  avg_tokens_per_task: number | null;
  /** 0..1. */
  success_rate: number | null;
  collaboration_score: number | null;
}

export interface TrendResult {
  metric_name: TrendMetricName;
  window_size: WindowSize;
  direction: TrendDirection;
  /** Change per day of the metric's value. */
  slope: number;
  data_point_count: number;
}

export interface AgentPerformanceSummary {
  agent_name: string;
  /** The largest tasks_completed over the windows (the windows overlap, so they are not summed). */
  tasks_completed_total: number;
  tasks_completed_7d: number;
  tasks_completed_30d: number;
  avg_completion_time_seconds: number | null;
  cost_per_task: number | null;
  /** 0..100. */
  success_rate_percent: number | null;
  quality_score: number | null;
  collaboration_score: number | null;
  trend_direction: TrendDirection;
  windows: WindowMetrics[];
  trends: TrendResult[];
}

export interface TrendPoint {
  x: number;
  y: number;
}

/**
 * Theil–Sen slope: the median of the slopes between every pair of points, skipping pairs with equal x.
 * Robust to outliers (up to ~29% of the points can be arbitrary). Null when no pair has distinct x.
 */
export function theilSenSlope(points: readonly TrendPoint[]): number | null {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j].x - points[i].x;
      if (dx !== 0) {
        slopes.push((points[j].y - points[i].y) / dx);
      }
    }
  }
  return median(slopes);
}

function median(values: number[]): number | null {
  if (values.length === 0) {
    return null;
  }
  values.sort((a, b) => a - b);
  const middle = Math.floor(values.length / 2);
  return values.length % 2 === 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

function rounded(value: number | null): number | null {
  return value === null ? null : roundTo(value, DECIMALS);
}

function windowMetrics(windowSize: WindowSize, records: readonly PerformanceRecord[]): WindowMetrics {
  const succeeded = records.filter((record) => record.isSuccess).length;
  const counts = {
    window_size: windowSize,
    data_point_count: records.length,
    tasks_completed: succeeded,
    tasks_failed: records.length - succeeded,
  };
  if (records.length < MIN_DATA_POINTS) {
    return {
      ...counts,
      avg_quality_score: null,
      avg_cost_per_task: null,
      avg_completion_time_seconds: null,
      avg_tokens_per_task: null,
      success_rate: null,
      collaboration_score: null,
    };
  }
  return {
    ...counts,
    avg_quality_score: rounded(meanOfPresent(records.map((record) => record.qualityScore))),
    avg_cost_per_task: rounded(mean(records.map((record) => record.costUsd))),
    avg_completion_time_seconds: rounded(mean(records.map((record) => record.durationSeconds))),
    avg_tokens_per_task: rounded(mean(records.map((record) => record.tokensUsed))),
    success_rate: roundTo(succeeded / records.length, DECIMALS),
    collaboration_score: rounded(meanOfPresent(records.map((record) => record.collaborationScore))),
  };
}

/** Keeps at most `limit` points, evenly spaced over the (time-ordered) input, first and last included. */
function thin(points: readonly TrendPoint[], limit: number): readonly TrendPoint[] {
  if (points.length <= limit) {
    return points;
  }
  const kept: TrendPoint[] = [];
  for (let i = 0; i < limit; i++) {
    kept.push(points[Math.round((i * (points.length - 1)) / (limit - 1))]);
  }
  return kept;
}

function trendPoints(metric: TrendMetricName, records: readonly PerformanceRecord[], now: Date): TrendPoint[] {
  const x = (record: PerformanceRecord) => (record.completedAt.getTime() - now.getTime()) / DAY_MS;
  const points: TrendPoint[] = [];
  for (const record of records) {
    switch (metric) {
      case 'quality_score':
        if (record.qualityScore !== null && Number.isFinite(record.qualityScore)) {
          points.push({ x: x(record), y: record.qualityScore });
        }
        break;
      case 'cost_usd':
        points.push({ x: x(record), y: record.costUsd });
        break;
      case 'success_rate':
        points.push({ x: x(record), y: record.isSuccess ? 1 : 0 });
        break;
    }
  }
  return points.sort((a, b) => a.x - b.x);
}

function trend(metric: TrendMetricName, records: readonly PerformanceRecord[], now: Date): TrendResult {
  const points = trendPoints(metric, records, now);
  const result = { metric_name: metric, window_size: TREND_WINDOW, data_point_count: points.length };
  const slope = points.length < MIN_DATA_POINTS ? null : theilSenSlope(thin(points, MAX_TREND_POINTS));
  if (slope === null) {
    return { ...result, direction: 'insufficient_data', slope: 0 };
  }
  const perDay = roundTo(slope, DECIMALS);
  let direction: TrendDirection =
    perDay > TREND_SLOPE_THRESHOLD ? 'improving' : perDay < -TREND_SLOPE_THRESHOLD ? 'declining' : 'stable';
  // Quality and success rate are better when higher, cost is better when lower: a rising cost is a
  // declining trend and a falling cost an improving one, so the direction is inverted for cost_usd.
  if (metric === 'cost_usd') {
    direction = direction === 'improving' ? 'declining' : direction === 'declining' ? 'improving' : direction;
  }
  return { ...result, direction, slope: perDay };
}

/** The 30-day window's value when it has one, else the 7-day window's, else null. */
function preferred<T>(
  byWindow: ReadonlyMap<WindowSize, WindowMetrics>,
  pick: (metrics: WindowMetrics) => T | null,
): T | null {
  for (const size of ['30d', '7d'] as const) {
    const metrics = byWindow.get(size);
    const value = metrics === undefined ? null : pick(metrics);
    if (value !== null) {
      return value;
    }
  }
  return null;
}

/**
 * Summarises an agent's task runs over rolling 7, 30 and 90 day windows ending at `now`, with Theil–Sen
 * trends over the 30-day window. Records completed after `now` are ignored. An agent without records
 * gets zero counts and null averages.
 */
export function computeAgentPerformance(
  agentName: string,
  records: readonly PerformanceRecord[],
  now: Date,
): AgentPerformanceSummary {
  const valid = records.filter((record) => Number.isFinite(record.completedAt.getTime()));
  const windows = PERFORMANCE_WINDOWS.map((size) =>
    windowMetrics(size, recordsWithinDays(valid, now, WINDOW_DAYS[size])),
  );
  const byWindow = new Map(windows.map((metrics) => [metrics.window_size, metrics] as const));

  const trendRecords = recordsWithinDays(valid, now, WINDOW_DAYS[TREND_WINDOW]);
  const trends = TREND_METRICS.map((metric) => trend(metric, trendRecords, now));
  const successTrend = trends.find((result) => result.metric_name === 'success_rate');
  const trendDirection =
    successTrend !== undefined && successTrend.direction !== 'insufficient_data'
      ? successTrend.direction
      : (trends.find((result) => result.direction !== 'insufficient_data')?.direction ?? 'insufficient_data');

  const successRate = preferred(byWindow, (metrics) => metrics.success_rate);
  return {
    agent_name: agentName,
    tasks_completed_total: Math.max(0, ...windows.map((metrics) => metrics.tasks_completed)),
    tasks_completed_7d: byWindow.get('7d')?.tasks_completed ?? 0,
    tasks_completed_30d: byWindow.get('30d')?.tasks_completed ?? 0,
    avg_completion_time_seconds: preferred(byWindow, (metrics) => metrics.avg_completion_time_seconds),
    cost_per_task: preferred(byWindow, (metrics) => metrics.avg_cost_per_task),
    success_rate_percent: successRate === null ? null : roundTo(successRate * 100, 2),
    quality_score: preferred(byWindow, (metrics) => metrics.avg_quality_score),
    collaboration_score: preferred(byWindow, (metrics) => metrics.collaboration_score),
    trend_direction: trendDirection,
    windows,
    trends,
  };
}
