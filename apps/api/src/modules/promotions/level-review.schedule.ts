import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel } from '@app/domain';
import {
  DatabaseService,
  DistributedLock,
  EventBus,
  ExclusiveSchedule,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  StartupResumeHooks,
  subscribeTo,
} from '@app/platform';

import { AgentRoster } from '../agents';
import { SettingsSnapshot } from '../settings';
import { LevelReview } from './level-review.service';

/**
 * The promotion rules' clock and ears: every `promotion_check_minutes` (read before each wait, so a
 * change applies from the next pass) one replica at a time evaluates every active agent; every
 * replica hears decided `org:promote` items and hands them to the review (one applies each); at
 * startup, pending moves whose items were decided while no process listened are settled.
 */
@Injectable()
export class LevelReviewSchedule
  implements OnModuleInit, OnModuleDestroy, OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly log: Logger;
  private readonly schedule: ExclusiveSchedule<number>;
  private readonly offs: Array<() => void> = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly review: LevelReview,
    private readonly roster: AgentRoster,
    private readonly settings: SettingsSnapshot,
    database: DatabaseService,
    lock: DistributedLock,
    private readonly bus: EventBus,
    private readonly hooks: StartupResumeHooks,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.promotions');
    this.schedule = new ExclusiveSchedule({
      name: 'hr.level_review',
      intervalMs: () => this.settings.value<number>('company', 'promotion_check_minutes') * 60_000,
      enabled: () => this.review.policy().enabled,
      pass: (now) => this.evaluateAll(now),
      lock,
      database,
      log: this.log,
      failedEvent: 'hr.level_review.failed',
    });
  }

  onModuleInit(): void {
    this.offs.push(this.hooks.register({ name: 'promotions.reconcile', run: () => this.review.reconcileAll() }));
    this.offs.push(
      subscribeTo(this.bus, Channel.Approvals, (event) => {
        if (event.event_type !== 'approval.decided' && event.event_type !== 'approval.expired') {
          return;
        }
        const item = event.payload.approval as {
          id: string;
          action_type?: unknown;
          status?: unknown;
          decided_by?: unknown;
        };
        if (item.action_type !== 'org:promote') {
          return;
        }
        this.track(
          this.review.decided({
            id: item.id,
            status: typeof item.status === 'string' ? item.status : '',
            decidedBy: typeof item.decided_by === 'string' ? item.decided_by : null,
          }),
        );
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.offs.splice(0).forEach((off) => off());
    await Promise.allSettled([...this.pending]);
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
  }

  beforeApplicationShutdown(): void {
    this.schedule.stop();
  }

  /** Waits for the decisions heard so far to be handled (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
  }

  /** One pass at `now` on this replica, unless another holds the pass: answers how many agents were evaluated. */
  async run(now: Date): Promise<number> {
    const outcome = await this.schedule.runOnce(now);
    return outcome.ran ? outcome.value : 0;
  }

  private async evaluateAll(now: Date): Promise<number> {
    let evaluated = 0;
    for (const agent of await this.roster.all()) {
      if (agent.status !== 'active') {
        continue;
      }
      await this.review.evaluate(agent, { requestedBy: 'system', onDemand: false }, now).catch((error: unknown) => {
        this.log.warn({ agent_id: agent.id, err: error }, 'hr.level_review.agent_failed');
      });
      evaluated += 1;
    }
    return evaluated;
  }

  private track(work: Promise<void>): void {
    const run = work.catch((error: unknown) => {
      this.log.warn({ err: error }, 'hr.level_change.decision_failed');
    });
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }
}
