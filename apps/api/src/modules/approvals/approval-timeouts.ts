import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

import { type TimeoutAction, timeoutOutcome } from '@app/domain';
import type { ApprovalItemEntity } from '@app/persistence';
import { DatabaseService, DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { ApprovalsRepository } from './approvals.repository';
import { ApprovalOutcomes } from './approval-outcomes';
import { ApprovalPolicy } from './approval-policy';

/** Items settled per pass; the next pass takes the rest. */
const BATCH = 100;

/**
 * Evaluates the approval timeouts every `security.approval_check_seconds`, on one replica at a time
 * (a database lock on Postgres): a passed deadline expires, approves or escalates its item as its
 * policy said when the item was filed (or escalated). Each step is a compare-and-set from pending,
 * so a person deciding at the same moment either wins or gets 409.
 */
@Injectable()
export class ApprovalTimeouts implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log: Logger;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly outcomes: ApprovalOutcomes,
    private readonly policy: ApprovalPolicy,
    private readonly database: DatabaseService,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('approvals.timeouts');
  }

  onApplicationBootstrap(): void {
    this.schedule();
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
    }
  }

  // The interval is read at every pass, so a settings change applies from the next one.
  private schedule(): void {
    if (this.stopped) {
      return;
    }
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule());
    }, this.policy.checkIntervalMs());
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.database.state !== 'ready') {
      return;
    }
    try {
      await this.lock.tryRunExclusive('approvals.timeouts', () => this.evaluate(new Date()));
    } catch (error) {
      this.log.error({ err: error }, 'approvals.timeouts.failed');
    }
  }

  /** Settles every overdue pending item; answers how many changed. */
  async evaluate(now: Date): Promise<number> {
    const config = this.policy.timeouts();
    let changed = 0;
    for (const row of await this.approvals.overdue(now, BATCH)) {
      const outcome = timeoutOutcome(
        config,
        { onTimeout: row.onTimeout as TimeoutAction | null, step: row.escalationStep },
        now,
      );
      switch (outcome.kind) {
        case 'expire':
          changed += await this.settle(row, { status: 'expired', decidedBy: 'system', decidedAt: now });
          break;
        case 'approve':
          changed += await this.settle(row, {
            status: 'approved',
            decidedBy: 'system',
            decisionReason: 'approved automatically when its timeout passed',
            decidedAt: now,
          });
          break;
        case 'escalate': {
          const { plan } = outcome;
          const moved = await this.approvals.changePending(row, {
            expiresAt: plan.expiresAt,
            onTimeout: plan.onTimeout,
            escalationStep: plan.step,
            assignedRole: plan.role,
          });
          if (moved) {
            changed += 1;
            await this.outcomes.escalated(moved);
          }
          break;
        }
        case 'none':
          break;
      }
    }
    return changed;
  }

  private async settle(row: ApprovalItemEntity, changes: Partial<ApprovalItemEntity>): Promise<number> {
    const settled = await this.approvals.changePending(row, changes);
    if (!settled) {
      return 0; // a person decided it meanwhile
    }
    await this.outcomes.settled(settled);
    return 1;
  }
}
