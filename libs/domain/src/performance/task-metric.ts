/** Milliseconds in one day; windows and trend slopes are measured in days. */
export const DAY_MS = 86_400_000;

/** Fewer data points than this in a window report counts only; averages, rates and trends stay null. */
export const MIN_DATA_POINTS = 5;

/** One finished task run, as recorded when the run ends. */
export interface TaskMetricRecord {
  agentId: string;
  taskId: string;
  taskType: string;
  startedAt: Date | null;
  completedAt: Date;
  isSuccess: boolean;
  durationSeconds: number;
  costUsd: number;
  turnsUsed: number;
  tokensUsed: number;
  /** 0..10, null when the run was not scored. */
  qualityScore: number | null;
  /** 0..10, null when the run involved no collaboration or was not scored. */
  collaborationScore: number | null;
  complexity: string;
}

/** Rounds half away from zero to `decimals` places and never yields negative zero. */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round((Math.abs(value) + Number.EPSILON) * factor)) / factor;
  return rounded === 0 ? 0 : rounded;
}

/** Arithmetic mean, or null for an empty list. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) {
    return null;
  }
  let sum = 0;
  for (const value of values) {
    sum += value;
  }
  return sum / values.length;
}

/** Mean of the non-null values, or null when there are none. */
export function meanOfPresent(values: readonly (number | null)[]): number | null {
  return mean(values.filter((value): value is number => value !== null && Number.isFinite(value)));
}

/** Records completed within the last `days` days up to and including `now`; later records are ignored. */
export function recordsWithinDays<R extends Pick<TaskMetricRecord, 'completedAt'>>(
  records: readonly R[],
  now: Date,
  days: number,
): readonly R[] {
  const end = now.getTime();
  const start = end - days * DAY_MS;
  return records.filter((record) => {
    const at = record.completedAt.getTime();
    return at >= start && at <= end;
  });
}
