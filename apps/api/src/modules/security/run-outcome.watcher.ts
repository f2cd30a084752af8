import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, judgeErrorRate } from '@app/domain';
import type { AgentEntity } from '@app/persistence';
import { EventBus, LOGGING_RUNTIME, type LoggingRuntime, subscribeTo } from '@app/platform';

import { AgentRoster } from '../agents';
import { RunLedger } from '../run-ledger';
import { SettingsSnapshot } from '../settings';
import { AutonomyControl } from './autonomy-control';
import { SecurityRepository } from './security.repository';
import { TrustControl } from './trust-control';

const HOUR_MS = 3_600_000;
/** Runs read for the error rate at most. */
const ERROR_RATE_RUNS_CAP = 200;

/**
 * Acts on finished runs: a high error rate lowers the agent one autonomy level (recorded, lifted only
 * by a person), and progressive trust re-evaluates the agent's tool access. Only the replica that
 * wrote the task's outcome acts on it. It also applies decided trust-promotion approvals, on every
 * replica (the pending promotion is taken with a compare-and-set, so one applies it).
 */
@Injectable()
export class RunOutcomeWatcher implements OnModuleInit, OnModuleDestroy {
  private readonly log: Logger;
  private readonly pending = new Set<Promise<void>>();
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly bus: EventBus,
    private readonly agents: AgentRoster,
    private readonly ledger: RunLedger,
    private readonly settings: SettingsSnapshot,
    private readonly autonomy: AutonomyControl,
    private readonly trust: TrustControl,
    private readonly repository: SecurityRepository,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security.outcomes');
  }

  onModuleInit(): void {
    this.unsubscribe.push(
      subscribeTo(this.bus, Channel.Tasks, (event) => {
        const status = event.payload.status;
        if (event.origin !== 'local' || event.event_type !== 'task.status_changed') {
          return;
        }
        if (status !== 'completed' && status !== 'failed') {
          return;
        }
        const assignee = (event.payload.task as { assigned_to?: unknown }).assigned_to;
        if (typeof assignee === 'string') {
          this.track(this.afterRun(assignee), { task_id: event.payload.task_id });
        }
      }),
      subscribeTo(this.bus, Channel.Approvals, (event) => {
        if (event.event_type !== 'approval.decided' && event.event_type !== 'approval.expired') {
          return;
        }
        const item = event.payload.approval as { id: string; status?: unknown; decided_by?: unknown };
        this.track(
          this.trust.decided({
            id: item.id,
            status: typeof item.status === 'string' ? item.status : '',
            decidedBy: typeof item.decided_by === 'string' ? item.decided_by : null,
          }),
          { approval_id: item.id },
        );
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    for (const off of this.unsubscribe) {
      off();
    }
    await Promise.allSettled([...this.pending]);
  }

  /** Waits for the work started by events so far (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
  }

  /** The error-rate rule, then the trust evaluation, for the agent that ran. */
  async afterRun(agentRef: string): Promise<void> {
    const agent = await this.agents.findByRef(agentRef);
    if (agent === null) {
      return;
    }
    await this.checkErrorRate(agent);
    await this.trust.evaluate(agent);
  }

  /**
   * Counts the runs since the window start or the last human autonomy write, whichever is later, so
   * failures a person has already answered do not lower the agent again. The window's counts and the
   * last write are read side by side; only a write inside the window makes the runs counted again.
   */
  async checkErrorRate(agent: AgentEntity): Promise<void> {
    const hours = this.settings.value<number>('security', 'error_rate_window_hours');
    const windowStart = new Date(Date.now() - hours * HOUR_MS);
    const [lastWrite, inWindow] = await Promise.all([
      this.repository.lastRecordAt(agent.id, 'autonomy_change'),
      this.ledger.outcomeCounts(agent.id, windowStart, ERROR_RATE_RUNS_CAP),
    ]);
    const counts =
      lastWrite !== null && lastWrite > windowStart
        ? await this.ledger.outcomeCounts(agent.id, lastWrite, ERROR_RATE_RUNS_CAP)
        : inWindow;
    const verdict = judgeErrorRate(
      counts,
      this.settings.value<number>('security', 'error_rate_threshold'),
      this.settings.value<number>('security', 'error_rate_min_runs'),
    );
    if (!verdict.high) {
      return;
    }
    const state = await this.autonomy.stateOf(agent.id);
    if (state.downgrade?.reason === 'high_error_rate') {
      // Already lowered for this: one level per episode, until a person answers it.
      return;
    }
    const after = await this.autonomy.downgrade(
      agent.id,
      'high_error_rate',
      `${verdict.failures} of ${verdict.runs} recent runs failed (error rate ${verdict.rate})`,
    );
    this.log.warn({ agent_id: agent.id, rate: verdict.rate, level: after.level }, 'security.error_rate.downgraded');
  }

  private track(work: Promise<void>, fields: Record<string, unknown>): void {
    const run = work.catch((error: unknown) => {
      this.log.warn({ ...fields, err: error }, 'security.outcome.failed');
    });
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }
}
