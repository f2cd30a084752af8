import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';

import { REPORT_PERIODS, type ReportPeriod } from '@app/domain';
import { DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SettingsSnapshot } from '../settings';
import { ReportsService } from './reports.service';

/** How often the schedule is checked: a period's report lands within this of the period's end. */
export const REPORT_SCHEDULE_CHECK_MS = 60_000;

/**
 * Generates the previous period's report once per period when `budget.report_schedule` names a
 * period. One replica at a time checks (a try-lock: the others skip that round); the stored
 * schedule key makes a period's report exist once however many rounds see it due.
 */
@Injectable()
export class ReportScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private readonly log: Logger;

  constructor(
    private readonly reports: ReportsService,
    private readonly settings: SettingsSnapshot,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('reports');
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runDue(), REPORT_SCHEDULE_CHECK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** The scheduled period, or null when the schedule is off. */
  schedule(): ReportPeriod | null {
    const value = this.settings.value<string>('budget', 'report_schedule');
    return (REPORT_PERIODS as readonly string[]).includes(value) ? (value as ReportPeriod) : null;
  }

  /** One round: stores the due report if none is stored yet; answers whether this round stored it. */
  async runDue(now = new Date()): Promise<boolean> {
    const period = this.schedule();
    if (period === null) {
      return false;
    }
    try {
      const outcome = await this.lock.tryRunExclusive('reports.schedule', () =>
        this.reports.generateScheduled(period, now),
      );
      if (outcome.ran && outcome.value) {
        this.log.info({ period }, 'reports.report.scheduled');
      }
      return outcome.ran && outcome.value;
    } catch (error) {
      this.log.error({ err: error, period }, 'reports.schedule.failed');
      return false;
    }
  }
}
