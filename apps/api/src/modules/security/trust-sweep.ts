import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  DatabaseService,
  DistributedLock,
  ExclusiveSchedule,
  LOGGING_RUNTIME,
  type LoggingRuntime,
} from '@app/platform';

import { AgentRoster } from '../agents';
import { TrustControl } from './trust-control';

const HOUR_MS = 3_600_000;

/**
 * The milestone strategy's clocks: an agent that stops running is never evaluated after a run, so
 * once an hour (on one replica at a time) every active agent is evaluated, which applies the idle
 * decay after 30 days and the 90-day re-verification.
 */
@Injectable()
export class TrustSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log: Logger;
  private readonly schedule: ExclusiveSchedule<number>;

  constructor(
    private readonly agents: AgentRoster,
    private readonly trust: TrustControl,
    database: DatabaseService,
    lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security.trust');
    this.schedule = new ExclusiveSchedule({
      name: 'security.trust_sweep',
      intervalMs: HOUR_MS,
      enabled: () => this.trust.strategy() === 'milestone',
      pass: (now) => this.evaluateAll(now),
      lock,
      database,
      log: this.log,
      failedEvent: 'security.trust.sweep_failed',
    });
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
  }

  beforeApplicationShutdown(): void {
    this.schedule.stop();
  }

  /** One pass at `now` under the milestone strategy; answers how many agents were evaluated. */
  async run(now: Date): Promise<number> {
    const outcome = await this.schedule.runOnce(now);
    return outcome.ran ? outcome.value : 0;
  }

  private async evaluateAll(now: Date): Promise<number> {
    let evaluated = 0;
    for (const agent of await this.agents.all()) {
      if (agent.status !== 'active') {
        continue;
      }
      await this.trust.evaluate(agent, now).catch((error: unknown) => {
        this.log.warn({ agent_id: agent.id, err: error }, 'security.trust.sweep_failed');
      });
      evaluated += 1;
    }
    return evaluated;
  }
}
