import { Injectable } from '@nestjs/common';

import { billingPeriod, roundTo } from '@app/domain';

import { SpendHistory } from '../budget';
import { SettingsSnapshot } from '../settings';

/** The budget settings analytics reads. */
export interface BudgetTerms {
  readonly totalMonthly: number;
  readonly resetDay: number;
  readonly currency: string;
}

/** The current billing period's standing. */
export interface BudgetStanding extends BudgetTerms {
  readonly periodStart: Date;
  readonly spent: number;
  /** Budget left in the period, never negative. */
  readonly remaining: number;
  /** Spent over the monthly budget in percent (may pass 100; 0 without a budget). */
  readonly usedPercent: number;
}

/** Reads the `budget` settings and, from the budget's rollups, the current period's spend. */
@Injectable()
export class BudgetStatus {
  constructor(
    private readonly settings: SettingsSnapshot,
    private readonly history: SpendHistory,
  ) {}

  terms(): BudgetTerms {
    return {
      totalMonthly: this.settings.value<number>('budget', 'total_monthly'),
      resetDay: this.settings.value<number>('budget', 'reset_day'),
      currency: this.settings.value<string>('budget', 'currency'),
    };
  }

  /** Spend over time, from the rollups. */
  spend(): SpendHistory {
    return this.history;
  }

  async standing(now: Date): Promise<BudgetStanding> {
    const terms = this.terms();
    const periodStart = billingPeriod(now, terms.resetDay).start;
    const spent = (await this.spend().total(periodStart, now)).costUsd;
    return {
      ...terms,
      periodStart,
      spent,
      remaining: roundTo(Math.max(0, terms.totalMonthly - spent), 6),
      usedPercent: terms.totalMonthly > 0 ? roundTo((spent / terms.totalMonthly) * 100, 2) : 0,
    };
  }
}
