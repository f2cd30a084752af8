/** Alert levels of the budget, lowest first (engine.md §10). */
export const BUDGET_ALERT_LEVELS = ['normal', 'warning', 'critical', 'hard_stop'] as const;
export type BudgetAlertLevel = (typeof BUDGET_ALERT_LEVELS)[number];

/** Ordered pairs of model aliases: `[from, to]` downgrades `from` to `to`. */
export type DowngradeMap = ReadonlyArray<readonly [string, string]>;

/** The budget configuration as `GET /budget/config` shows it, in domain form. */
export interface BudgetConfig {
  totalMonthly: number;
  currency: string;
  resetDay: number;
  alerts: { warnAt: number; criticalAt: number; hardStopAt: number };
  perTaskLimit: number;
  perAgentDailyLimit: number;
  autoDowngrade: { enabled: boolean; threshold: number; boundary: 'task_assignment'; downgradeMap: DowngradeMap };
  riskBudget: {
    enabled: boolean;
    perTaskRiskLimit: number;
    perAgentDailyRiskLimit: number;
    totalDailyRiskLimit: number;
    alerts: { warnAt: number; criticalAt: number };
  };
}

/** Percent of the monthly budget used; 0 when no budget is set (can exceed 100). */
export function usedPercent(spent: number, totalMonthly: number): number {
  return totalMonthly > 0 ? (spent / totalMonthly) * 100 : 0;
}

/** The alert level at a percentage of the budget used. */
export function alertLevelAt(percent: number, alerts: BudgetConfig['alerts']): BudgetAlertLevel {
  if (percent >= alerts.hardStopAt) {
    return 'hard_stop';
  }
  if (percent >= alerts.criticalAt) {
    return 'critical';
  }
  return percent >= alerts.warnAt ? 'warning' : 'normal';
}

/** Position of a level in BUDGET_ALERT_LEVELS (higher is worse). */
export function alertRank(level: BudgetAlertLevel): number {
  return BUDGET_ALERT_LEVELS.indexOf(level);
}

/** The spend at which the monthly hard stop holds, or null when there is no monthly budget. */
export function hardStopAmount(config: Pick<BudgetConfig, 'totalMonthly' | 'alerts'>): number | null {
  return config.totalMonthly > 0 ? (config.totalMonthly * config.alerts.hardStopAt) / 100 : null;
}

/**
 * Parses `auto_downgrade_map`: a JSON list of `[from, to]` alias pairs (non-empty strings of at most
 * 128 characters, no pair mapping an alias to itself, each `from` once). Answers the problem instead.
 */
export function parseDowngradeMap(value: unknown): { ok: true; map: DowngradeMap } | { ok: false; problem: string } {
  if (!Array.isArray(value)) {
    return { ok: false, problem: 'auto_downgrade_map must be a list of [from, to] pairs' };
  }
  const seen = new Set<string>();
  const map: Array<readonly [string, string]> = [];
  for (const [index, pair] of value.entries()) {
    const valid =
      Array.isArray(pair) &&
      pair.length === 2 &&
      pair.every((alias) => typeof alias === 'string' && alias.length > 0 && alias.length <= 128);
    if (!valid) {
      return { ok: false, problem: `auto_downgrade_map[${index}] must be two aliases of 1 to 128 characters` };
    }
    const [from, to] = pair as [string, string];
    if (from === to || seen.has(from)) {
      return { ok: false, problem: `auto_downgrade_map[${index}] maps ${from} to itself or a second time` };
    }
    seen.add(from);
    map.push([from, to]);
  }
  return { ok: true, map };
}

/** The alias a model downgrades to at task assignment, or null when none applies. */
export function modelDowngradeTarget(config: BudgetConfig, percent: number, alias: string): string | null {
  const { enabled, threshold, downgradeMap } = config.autoDowngrade;
  if (!enabled || percent < threshold) {
    return null;
  }
  return downgradeMap.find(([from]) => from === alias)?.[1] ?? null;
}
