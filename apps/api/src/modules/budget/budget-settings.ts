import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { type BudgetConfig, parseDowngradeMap, type SettingValue } from '@app/domain';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SettingsSnapshot } from '../settings';

/** The running `budget` settings as one BudgetConfig (a few map lookups, no database). */
@Injectable()
export class BudgetSettings {
  private readonly log: Logger;

  constructor(
    private readonly snapshot: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('budget.config');
  }

  config(): BudgetConfig {
    const v = <T extends SettingValue>(key: string): T => this.snapshot.value<T>('budget', key);
    const parsed = parseDowngradeMap(v<unknown[]>('auto_downgrade_map'));
    if (!parsed.ok) {
      // Values written through the API are checked; one from the environment or YAML may not be.
      this.log.warn({ problem: parsed.problem }, 'budget.config.downgrade_map_ignored');
    }
    return {
      totalMonthly: v<number>('total_monthly'),
      currency: v<string>('currency'),
      resetDay: v<number>('reset_day'),
      alerts: {
        warnAt: v<number>('alert_warn_at'),
        criticalAt: v<number>('alert_critical_at'),
        hardStopAt: v<number>('alert_hard_stop_at'),
      },
      perTaskLimit: v<number>('per_task_limit'),
      perAgentDailyLimit: v<number>('per_agent_daily_limit'),
      autoDowngrade: {
        enabled: v<boolean>('auto_downgrade_enabled'),
        threshold: v<number>('auto_downgrade_threshold'),
        boundary: 'task_assignment',
        downgradeMap: parsed.ok ? parsed.map : [],
      },
      riskBudget: {
        enabled: v<boolean>('risk_budget_enabled'),
        perTaskRiskLimit: v<number>('risk_per_task_limit'),
        perAgentDailyRiskLimit: v<number>('risk_per_agent_daily_limit'),
        totalDailyRiskLimit: v<number>('risk_total_daily_limit'),
        alerts: { warnAt: v<number>('risk_alert_warn_at'), criticalAt: v<number>('risk_alert_critical_at') },
      },
    };
  }
}
