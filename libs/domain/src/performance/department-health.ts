import { DAY_MS, meanOfPresent, recordsWithinDays, roundTo, type TaskMetricRecord } from './task-metric';

/** Days covered by the department's run statistics (runs, success rate, quality, collaboration). */
export const DEPARTMENT_METRICS_DAYS = 30;

/** Daily cost points in the department's cost trend: today and the six days before it. */
export const COST_TREND_DAYS = 7;

/**
 * Weights of the health score blend. Each part is on a 0..100 scale: the 30-day task success rate
 * (×100), the 30-day average quality score (0..10, ×10) and the utilisation percentage. When no run in
 * the window has a quality score, its weight is spread over the other two in proportion (5:2).
 */
export const HEALTH_WEIGHTS = { successRate: 0.5, quality: 0.3, utilization: 0.2 } as const;

export interface CostRecord {
  timestamp: Date;
  costUsd: number;
}

export interface DepartmentHealthInput {
  departmentName: string;
  agentCount: number;
  activeAgentCount: number;
  currency: string;
  /** Task metrics of the department's agents, of any age. */
  metrics: readonly TaskMetricRecord[];
  /** Cost records of the department's agents. */
  costs: readonly CostRecord[];
  now: Date;
  /** Set when the activity data could not be read: the report then carries counts only. */
  degraded?: boolean;
}

export interface CostTrendPoint {
  /** ISO-8601 start of the day, 00:00 UTC. */
  timestamp: string;
  value: number;
}

/** A department's health report; served verbatim, hence the snake_case field names. */
export interface DepartmentHealth {
  department_name: string;
  agent_count: number;
  active_agent_count: number;
  currency: string;
  /** Mean 30-day quality score (0..10). */
  avg_performance_score: number | null;
  department_cost_7d: number;
  cost_trend: CostTrendPoint[];
  /** Mean 30-day collaboration score (0..10). */
  collaboration_score: number | null;
  utilization_percent: number;
  total_runs: number;
  /** 0..1. */
  task_success_rate: number | null;
  /** 0..100, see HEALTH_WEIGHTS. */
  health_score: number | null;
  utilization_degraded: boolean;
}

function count(value: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.floor(value)) : 0;
}

/** Midnight UTC of the day `daysBack` days before the day containing `now`. */
function utcMidnight(now: Date, daysBack: number): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysBack);
}

/** One bucket per UTC day, from midnight six days ago through today; costs after `now` are ignored. */
function dailyCosts(costs: readonly CostRecord[], now: Date): number[] {
  const start = utcMidnight(now, COST_TREND_DAYS - 1);
  const end = now.getTime();
  const buckets: number[] = new Array<number>(COST_TREND_DAYS).fill(0);
  for (const cost of costs) {
    const at = cost.timestamp.getTime();
    if (at >= start && at <= end && Number.isFinite(cost.costUsd)) {
      buckets[Math.floor((at - start) / DAY_MS)] += cost.costUsd;
    }
  }
  return buckets;
}

function costTrend(now: Date, buckets: readonly number[]): CostTrendPoint[] {
  return buckets.map((value, day) => ({
    timestamp: new Date(utcMidnight(now, COST_TREND_DAYS - 1 - day)).toISOString(),
    value: roundTo(value, 4),
  }));
}

function healthScore(successRate: number, quality: number | null, utilizationPercent: number): number {
  const parts: { weight: number; value: number }[] = [
    { weight: HEALTH_WEIGHTS.successRate, value: successRate * 100 },
    { weight: HEALTH_WEIGHTS.utilization, value: utilizationPercent },
  ];
  if (quality !== null) {
    parts.push({ weight: HEALTH_WEIGHTS.quality, value: quality * 10 });
  }
  const totalWeight = parts.reduce((sum, part) => sum + part.weight, 0);
  const score = parts.reduce((sum, part) => sum + part.weight * part.value, 0) / totalWeight;
  return roundTo(Math.min(100, Math.max(0, score)), 2);
}

/** Summarises a department's last 30 days of task runs and last 7 days of costs, as of `now`. */
export function computeDepartmentHealth(input: DepartmentHealthInput): DepartmentHealth {
  const agentCount = count(input.agentCount);
  const activeAgentCount = Math.min(count(input.activeAgentCount), agentCount);
  const degraded = input.degraded === true;
  const base = {
    department_name: input.departmentName,
    agent_count: agentCount,
    active_agent_count: activeAgentCount,
    currency: input.currency,
    utilization_degraded: degraded,
  };
  if (degraded) {
    return {
      ...base,
      avg_performance_score: null,
      department_cost_7d: 0,
      cost_trend: costTrend(input.now, new Array<number>(COST_TREND_DAYS).fill(0)),
      collaboration_score: null,
      utilization_percent: 0,
      total_runs: 0,
      task_success_rate: null,
      health_score: null,
    };
  }

  const runs = recordsWithinDays(input.metrics, input.now, DEPARTMENT_METRICS_DAYS);
  const quality = meanOfPresent(runs.map((run) => run.qualityScore));
  const collaboration = meanOfPresent(runs.map((run) => run.collaborationScore));
  const successRate = runs.length === 0 ? null : runs.filter((run) => run.isSuccess).length / runs.length;
  const utilizationPercent = agentCount === 0 ? 0 : (activeAgentCount / agentCount) * 100;
  const buckets = dailyCosts(input.costs, input.now);

  return {
    ...base,
    avg_performance_score: quality === null ? null : roundTo(quality, 2),
    department_cost_7d: roundTo(
      buckets.reduce((sum, value) => sum + value, 0),
      4,
    ),
    cost_trend: costTrend(input.now, buckets),
    collaboration_score: collaboration === null ? null : roundTo(collaboration, 2),
    utilization_percent: roundTo(utilizationPercent, 2),
    total_runs: runs.length,
    task_success_rate: successRate === null ? null : roundTo(successRate, 4),
    health_score: successRate === null ? null : healthScore(successRate, quality, utilizationPercent),
  };
}
