import { roundTo } from '../performance/task-metric';

export const PROVIDER_HEALTH_STATUSES = ['up', 'degraded', 'down', 'unknown'] as const;
export type ProviderHealthStatus = (typeof PROVIDER_HEALTH_STATUSES)[number];

/** An error rate (percent) at or above this marks the provider down. */
export const PROVIDER_DOWN_ERROR_RATE_PERCENT = 50;
/** An error rate (percent) at or above this, and below the down threshold, marks the provider degraded. */
export const PROVIDER_DEGRADED_ERROR_RATE_PERCENT = 10;

/** Aggregated calls to one provider over the last 24 hours. */
export interface ProviderCallStats {
  calls: number;
  errors: number;
  totalLatencyMs: number;
  totalTokens: number;
  totalCost: number;
  lastCallAt: Date | null;
}

/** A provider's health over the last 24 hours; served verbatim, hence the snake_case field names. */
export interface ProviderHealthSummary {
  /** ISO-8601 time of the last call, null when there was none. */
  last_check_timestamp: string | null;
  /** Mean latency per call, to 0.1 ms; null without calls. */
  avg_response_time_ms: number | null;
  /** 0..100, to 0.1. */
  error_rate_percent_24h: number;
  calls_last_24h: number;
  health_status: ProviderHealthStatus;
  total_tokens_24h: number;
  /** To 6 decimal places. */
  total_cost_24h: number;
}

/** Error rate in percent (0..100); errors beyond the call count are capped, no calls → 0. */
export function errorRatePercent(calls: number, errors: number): number {
  if (!(calls > 0)) {
    return 0;
  }
  return (Math.min(Math.max(errors, 0), calls) / calls) * 100;
}

/** unknown without calls; down at ≥ 50 % errors; degraded at ≥ 10 %; up otherwise. */
export function providerHealthStatus(calls: number, errors: number): ProviderHealthStatus {
  if (!(calls > 0)) {
    return 'unknown';
  }
  const rate = errorRatePercent(calls, errors);
  if (rate >= PROVIDER_DOWN_ERROR_RATE_PERCENT) {
    return 'down';
  }
  return rate >= PROVIDER_DEGRADED_ERROR_RATE_PERCENT ? 'degraded' : 'up';
}

/** The wire summary of a provider's last-24-hour call statistics. The status uses the unrounded rate. */
export function summariseProviderHealth(stats: ProviderCallStats): ProviderHealthSummary {
  const calls = stats.calls > 0 ? stats.calls : 0;
  return {
    last_check_timestamp: stats.lastCallAt === null ? null : stats.lastCallAt.toISOString(),
    avg_response_time_ms: calls === 0 ? null : roundTo(stats.totalLatencyMs / calls, 1),
    error_rate_percent_24h: roundTo(errorRatePercent(calls, stats.errors), 1),
    calls_last_24h: calls,
    health_status: providerHealthStatus(calls, stats.errors),
    total_tokens_24h: stats.totalTokens,
    total_cost_24h: roundTo(stats.totalCost, 6),
  };
}
