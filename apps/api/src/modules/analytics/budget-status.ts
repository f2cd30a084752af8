import { Injectable, Optional } from '@nestjs/common';

import { billingPeriodStart, roundTo, ServiceUnavailableError } from '@app/domain';

import { SettingsSnapshot } from '../settings';
import { SpendSource } from './spend-source';

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

/** Reads the `budget` settings and, through the spend source, the current period's spend. */
@Injectable()
export class BudgetStatus {
  constructor(
    private readonly settings: SettingsSnapshot,
    @Optional() private readonly source?: SpendSource,
  ) {}

  terms(): BudgetTerms {
    return {
      totalMonthly: this.settings.value<number>('budget', 'total_monthly'),
      resetDay: this.settings.value<number>('budget', 'reset_day'),
      currency: this.settings.value<string>('budget', 'currency'),
    };
  }

  /** The spend source, or 503 while none is wired. */
  spend(): SpendSource {
    if (!this.source) {
      throw new ServiceUnavailableError('Spend history is not available: no budget rollups are wired');
    }
    return this.source;
  }

  /** Whether spend can be read. */
  get hasSpend(): boolean {
    return this.source !== undefined;
  }

  async standing(now: Date): Promise<BudgetStanding> {
    const terms = this.terms();
    const periodStart = billingPeriodStart(now, terms.resetDay);
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
