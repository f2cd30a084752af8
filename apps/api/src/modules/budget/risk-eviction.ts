import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';

import { RISK_RECORD_RETENTION_MS } from '@app/domain';
import { DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { RiskRecordsRepository } from './risk-records.repository';

/** How often expired risk records are looked for. */
export const RISK_EVICTION_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Evicts risk records older than 7 days, hourly and once at start. One replica at a time runs it (a
 * try-lock: the others skip that round); a delete by age is safe to repeat.
 */
@Injectable()
export class RiskEviction implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private readonly log: Logger;

  constructor(
    private readonly records: RiskRecordsRepository,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('budget.risk');
  }

  onApplicationBootstrap(): void {
    void this.runDue();
    this.timer = setInterval(() => void this.runDue(), RISK_EVICTION_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** One round: answers how many records it evicted, or null when another replica held the lock. */
  async runDue(now = new Date()): Promise<number | null> {
    try {
      const outcome = await this.lock.tryRunExclusive('budget.risk_eviction', () =>
        this.records.evictBefore(new Date(now.getTime() - RISK_RECORD_RETENTION_MS)),
      );
      if (!outcome.ran) {
        return null;
      }
      if (outcome.value > 0) {
        this.log.info({ evicted: outcome.value }, 'budget.risk.evicted');
      }
      return outcome.value;
    } catch (error) {
      this.log.error({ err: error }, 'budget.risk.eviction_failed');
      return null;
    }
  }
}
