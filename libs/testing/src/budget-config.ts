import type { BudgetConfig } from '@app/domain';

/** A budget configuration with no limits and no downgrade or risk budget; `overrides` replace whole fields. */
export function budgetConfig(overrides: Partial<BudgetConfig> = {}): BudgetConfig {
  return {
    totalMonthly: 0,
    currency: 'EUR',
    resetDay: 1,
    alerts: { warnAt: 75, criticalAt: 90, hardStopAt: 100 },
    perTaskLimit: 0,
    perAgentDailyLimit: 0,
    autoDowngrade: { enabled: false, threshold: 85, boundary: 'task_assignment', downgradeMap: [] },
    riskBudget: {
      enabled: false,
      perTaskRiskLimit: 0,
      perAgentDailyRiskLimit: 0,
      totalDailyRiskLimit: 0,
      alerts: { warnAt: 75, criticalAt: 90 },
    },
    ...overrides,
  };
}
