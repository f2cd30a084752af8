import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  alertLevelAt,
  alertRank,
  billingPeriod,
  BUDGET_ALERT_LEVELS,
  Channel,
  isoDay,
  type TimeRange,
  usedPercent,
} from '@app/domain';
import {
  announce,
  DatabaseService,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ServiceMetrics,
} from '@app/platform';

import { BudgetAlertsRepository } from './budget-alerts.repository';
import { BudgetExhaustion } from './budget-exhaustion';
import { BudgetSettings } from './budget-settings';
import { CostRollupsRepository } from './cost-rollups.repository';

/** A billing period's recorded spend, as a record's write read it. */
export interface PeriodSpend {
  period: TimeRange;
  spent: number;
}

/**
 * Alerts on the monthly budget at warn, critical and hard stop, once per upward crossing across
 * replicas (a compare-and-set on the stored level): a `budget` channel event, the log event
 * `budget.alert.raised`, and at the hard stop the exhaustion hook.
 */
@Injectable()
export class BudgetAlerts implements OnModuleInit, OnModuleDestroy {
  private readonly log: Logger;
  /** The level this replica last saw per scope: an unchanged level costs no write. */
  private readonly seen = new Map<string, number>();
  private stopMeasuring: (() => void) | null = null;

  constructor(
    private readonly settings: BudgetSettings,
    private readonly rollups: CostRollupsRepository,
    private readonly levels: BudgetAlertsRepository,
    private readonly exhaustion: BudgetExhaustion,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    private readonly metrics: ServiceMetrics,
    private readonly database: DatabaseService,
  ) {
    this.log = logging.forName('budget.alerts');
  }

  onModuleInit(): void {
    this.stopMeasuring = this.metrics.onScrape('budget.utilisation', () => this.measure(new Date()));
  }

  onModuleDestroy(): void {
    this.stopMeasuring?.();
  }

  /** The monthly budget's use in the current period, for a scrape (no limit set: no figure). */
  private async measure(now: Date): Promise<void> {
    const config = this.settings.config();
    if (config.totalMonthly <= 0 || this.database.state !== 'ready') {
      this.metrics.budgetUtilisation.remove({ limit: 'monthly' });
      return;
    }
    const period = billingPeriod(now, config.resetDay);
    const spent = (await this.rollups.totals({ grain: 'day', from: period.start, to: period.end })).costUsd;
    this.metrics.budgetUtilisation.set({ limit: 'monthly' }, spent / config.totalMonthly);
  }

  /**
   * Announces a level the period's spend newly reached after a record: the spend the record's write
   * read (`known`, when it is of the current period), else read here.
   */
  async check(now: Date, agentId: string, known?: PeriodSpend): Promise<void> {
    const config = this.settings.config();
    if (config.totalMonthly <= 0) {
      return;
    }
    const period = billingPeriod(now, config.resetDay);
    const spent =
      known && known.period.start.getTime() === period.start.getTime()
        ? known.spent
        : (await this.rollups.totals({ grain: 'day', from: period.start, to: period.end })).costUsd;
    const percent = usedPercent(spent, config.totalMonthly);
    const level = alertLevelAt(percent, config.alerts);
    const scope = `monthly:${isoDay(period.start)}`;
    const rank = alertRank(level);
    if (this.seen.get(scope) === rank) {
      return;
    }
    const previous = await this.levels.raise(scope, rank, now);
    this.seen.set(scope, rank);
    if (previous === null) {
      return;
    }
    const previousLevel = BUDGET_ALERT_LEVELS[previous];
    const fields = { level, previous_level: previousLevel, used_percent: percent, spent, total: config.totalMonthly };
    this.log.warn(fields, 'budget.alert.raised');
    await announce(this.bus, this.log, {
      channel: Channel.Budget,
      event_type: 'alert.raised',
      payload: {
        level,
        previous_level: previousLevel,
        scope: 'monthly',
        used_percent: percent,
        spent,
        total_monthly: config.totalMonthly,
        currency: config.currency,
        period_start: period.start.toISOString(),
      },
    });
    if (level === 'hard_stop') {
      const reason = `monthly budget at ${percent.toFixed(1)}% (hard stop at ${config.alerts.hardStopAt}%)`;
      await this.exhaustion.exhausted({ limit: 'monthly', agentId, reason, at: now }, scope);
    }
  }
}
