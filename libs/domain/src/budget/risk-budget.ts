import { ErrorCode } from '../errors';
import { type RiskLevel, riskLevelOf } from '../security/risk';
import type { BudgetConfig } from './budget-config';

/** The four dimensions of a risk score, each from 0.0 to 1.0 (spec "Risk score"). */
export interface RiskDimensions {
  reversibility: number;
  blastRadius: number;
  dataSensitivity: number;
  externalVisibility: number;
}

/** The default weights of the dimensions; they add up to 1, so risk units stay within 0–1 per action. */
export const DEFAULT_RISK_WEIGHTS: Readonly<RiskDimensions> = {
  reversibility: 0.3,
  blastRadius: 0.3,
  dataSensitivity: 0.2,
  externalVisibility: 0.2,
};

/**
 * The dimensions of each risk level. Their weighted sums are the spec's per-level scores: 0.88 for
 * critical, 0.62 for high, 0.31 for medium and 0.05 for low.
 */
export const RISK_LEVEL_DIMENSIONS: Readonly<Record<RiskLevel, Readonly<RiskDimensions>>> = {
  critical: { reversibility: 0.9, blastRadius: 0.9, dataSensitivity: 0.8, externalVisibility: 0.9 },
  high: { reversibility: 0.7, blastRadius: 0.7, dataSensitivity: 0.5, externalVisibility: 0.5 },
  medium: { reversibility: 0.4, blastRadius: 0.3, dataSensitivity: 0.3, externalVisibility: 0.2 },
  low: { reversibility: 0.1, blastRadius: 0, dataSensitivity: 0.1, externalVisibility: 0 },
};

/** How long risk records are kept before the eviction job removes them. */
export const RISK_RECORD_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The weighted sum of a score's dimensions (rounded to 4 places): its risk units. */
export function riskUnits(dimensions: RiskDimensions, weights: RiskDimensions = DEFAULT_RISK_WEIGHTS): number {
  const sum =
    dimensions.reversibility * weights.reversibility +
    dimensions.blastRadius * weights.blastRadius +
    dimensions.dataSensitivity * weights.dataSensitivity +
    dimensions.externalVisibility * weights.externalVisibility;
  return Math.round(sum * 10_000) / 10_000;
}

/** The risk an action takes: its level from the shared action-type table, its dimensions and units. */
export interface RiskScore {
  actionType: string;
  level: RiskLevel;
  dimensions: RiskDimensions;
  riskUnits: number;
}

/** Scores an action type; one outside the catalogue counts as high, as the security table says. */
export function scoreAction(actionType: string): RiskScore {
  const level = riskLevelOf(actionType);
  const dimensions = { ...RISK_LEVEL_DIMENSIONS[level] };
  return { actionType, level, dimensions, riskUnits: riskUnits(dimensions) };
}

/** Risk units already taken where the risk budget's limits apply. */
export interface RiskTaken {
  /** On the task (within the retention window). */
  task: number;
  /** By the agent today (UTC). */
  agentToday: number;
  /** By every agent today (UTC). */
  totalToday: number;
}

/** A refusal by the risk budget: which limit and why (always code 6002). */
export interface RiskRefusal {
  limit: 'task' | 'agent_daily' | 'total_daily';
  code: number;
  reason: string;
}

const units = (value: number): string => value.toFixed(4);

/**
 * At task start (engine.md §10, pre-flight): when the risk budget is enabled, a task, agent or
 * company that has used up its risk limit may not start another run (6002). A limit of 0 is none.
 */
export function judgeRiskStart(risk: BudgetConfig['riskBudget'], taken: RiskTaken): RiskRefusal | null {
  if (!risk.enabled) {
    return null;
  }
  const checks: Array<[RiskRefusal['limit'], number, number, string]> = [
    ['task', risk.perTaskRiskLimit, taken.task, 'task risk budget exhausted'],
    ['agent_daily', risk.perAgentDailyRiskLimit, taken.agentToday, 'agent daily risk budget exhausted'],
    ['total_daily', risk.totalDailyRiskLimit, taken.totalToday, 'daily risk budget exhausted'],
  ];
  for (const [limit, cap, used, what] of checks) {
    if (cap > 0 && used >= cap) {
      return {
        limit,
        code: ErrorCode.RiskBudgetExhausted,
        reason: `${what}: taken ${units(used)} of ${cap} risk units`,
      };
    }
  }
  return null;
}

/** Alert levels of a daily risk limit, lowest first. */
export const RISK_ALERT_LEVELS = ['normal', 'warning', 'critical', 'exhausted'] as const;
export type RiskAlertLevel = (typeof RISK_ALERT_LEVELS)[number];

/** The alert level of a daily risk limit at `used` units; `normal` when the limit is 0 (none). */
export function riskAlertLevel(
  used: number,
  limit: number,
  alerts: BudgetConfig['riskBudget']['alerts'],
): RiskAlertLevel {
  if (limit <= 0) {
    return 'normal';
  }
  const percent = (used / limit) * 100;
  if (percent >= 100) {
    return 'exhausted';
  }
  if (percent >= alerts.criticalAt) {
    return 'critical';
  }
  return percent >= alerts.warnAt ? 'warning' : 'normal';
}
