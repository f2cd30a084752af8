export { MIN_DATA_POINTS, type TaskMetricRecord } from './task-metric';
export {
  computeAgentPerformance,
  type PerformanceRecord,
  MAX_TREND_POINTS,
  PERFORMANCE_WINDOWS,
  theilSenSlope,
  TREND_METRICS,
  TREND_SLOPE_THRESHOLD,
  TREND_WINDOW,
  type AgentPerformanceSummary,
  type TrendDirection,
  type TrendMetricName,
  type TrendPoint,
  type TrendResult,
  type WindowMetrics,
  type WindowSize,
} from './agent-performance';
export {
  computeDepartmentHealth,
  COST_TREND_DAYS,
  DEPARTMENT_METRICS_DAYS,
  HEALTH_WEIGHTS,
  type CostRecord,
  type CostTrendPoint,
  type DepartmentHealth,
  type DepartmentHealthInput,
} from './department-health';
