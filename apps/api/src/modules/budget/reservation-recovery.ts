import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

import type { BudgetReservationEntity } from '@app/persistence';
import { DatabaseService, DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { CostLedger } from './cost-ledger';
import { SpendReservationsRepository } from './spend-reservations.repository';

const BATCH = 100;
const SWEEP_MS = 60_000;

/**
 * Settles the reservations of calls whose replica died mid-call: the provider has most likely billed
 * them, so each is written as a cost record at its estimate and kept marked `recovered`. The engine's
 * recovery settles a dead replica's reservations the moment it re-queues that replica's runs
 * (CostLedger.settleAbandoned); this sweep is the backstop for the rest. At startup on SQLite every
 * other owner's reservation is abandoned; on Postgres a reservation is once it expired (its call's
 * timeout plus a grace), swept every minute on one replica at a time.
 */
@Injectable()
export class ReservationRecovery implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log: Logger;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly reservations: SpendReservationsRepository,
    private readonly costs: CostLedger,
    private readonly database: DatabaseService,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('budget.recovery');
  }

  onApplicationBootstrap(): void {
    if (this.database.state === 'ready') {
      void this.sweep(true);
    }
    this.timer = setInterval(() => void this.sweep(false), SWEEP_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) {
      clearInterval(this.timer);
    }
  }

  /** One pass; answers how many reservations it settled. */
  async sweep(atStartup: boolean): Promise<number> {
    if (this.database.state !== 'ready') {
      return 0;
    }
    const sqlite = this.database.backend === 'sqlite';
    if (sqlite && !atStartup) {
      return 0; // one process: nothing is abandoned while it runs
    }
    try {
      const outcome = await this.lock.tryRunExclusive('budget.reservations.recovery', () =>
        this.settleAbandoned(sqlite ? null : new Date()),
      );
      return outcome.ran ? outcome.value : 0;
    } catch (error) {
      this.log.error({ err: error }, 'budget.recovery.failed');
      return 0;
    }
  }

  private async settleAbandoned(before: Date | null): Promise<number> {
    let settled = 0;
    for (;;) {
      const batch = await this.reservations.abandoned(before, this.costs.owner, BATCH);
      for (const reservation of batch) {
        settled += (await this.settle(reservation)) ? 1 : 0;
      }
      if (batch.length < BATCH) {
        return settled;
      }
    }
  }

  private settle(reservation: BudgetReservationEntity): Promise<boolean> {
    return this.costs.settleReservation(reservation);
  }
}
