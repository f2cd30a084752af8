import { roundTo } from './time-buckets';

/** Orchestration-ratio alert thresholds: above each, the level named. */
export const ORCHESTRATION_RATIO_INFO = 0.3;
export const ORCHESTRATION_RATIO_WARN = 0.5;
export const ORCHESTRATION_RATIO_CRITICAL = 0.7;
/** Above this share of retried attempts, a run is logged with a retry-rate warning. */
export const RETRY_RATE_WARNING = 0.1;

export type OrchestrationAlert = 'normal' | 'info' | 'warn' | 'critical';

export interface OrchestrationFigures {
  /** Tokens of calls in the coordination category. */
  readonly coordinationTokens: number;
  /** Tokens of every call. */
  readonly totalTokens: number;
  /** Earlier attempts of the same work (a task's retries before this run). */
  readonly retries: number;
  /** Attempts in all, the retried ones included (at least 1 for a run). */
  readonly attempts: number;
}

export interface OrchestrationReport {
  orchestration_ratio: number;
  alert_level: OrchestrationAlert;
  retry_rate: number;
  retry_warning: boolean;
}

/** The level of a ratio: info above 0.30, warn above 0.50, critical above 0.70. */
export function orchestrationAlert(ratio: number): OrchestrationAlert {
  if (ratio > ORCHESTRATION_RATIO_CRITICAL) {
    return 'critical';
  }
  if (ratio > ORCHESTRATION_RATIO_WARN) {
    return 'warn';
  }
  return ratio > ORCHESTRATION_RATIO_INFO ? 'info' : 'normal';
}

/** Coordination tokens over all tokens (0 without tokens), its alert level and the retry rate. */
export function orchestrationReport(figures: OrchestrationFigures): OrchestrationReport {
  const ratio = figures.totalTokens > 0 ? figures.coordinationTokens / figures.totalTokens : 0;
  const retryRate = figures.attempts > 0 ? figures.retries / figures.attempts : 0;
  return {
    orchestration_ratio: roundTo(ratio, 4),
    alert_level: orchestrationAlert(ratio),
    retry_rate: roundTo(retryRate, 4),
    retry_warning: retryRate > RETRY_RATE_WARNING,
  };
}
