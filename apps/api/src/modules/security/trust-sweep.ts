import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

import { DatabaseService, DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

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
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly agents: AgentRoster,
    private readonly trust: TrustControl,
    private readonly database: DatabaseService,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security.trust');
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(new Date()), HOUR_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    if (this.timer) {
      clearInterval(this.timer);
    }
  }

  /** One pass at `now` under the milestone strategy; answers how many agents were evaluated. */
  async run(now: Date): Promise<number> {
    if (this.database.state !== 'ready' || this.trust.strategy() !== 'milestone') {
      return 0;
    }
    try {
      const result = await this.lock.tryRunExclusive('security.trust_sweep', async () => {
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
      });
      return result.ran ? result.value : 0;
    } catch (error) {
      this.log.error({ err: error }, 'security.trust.sweep_failed');
      return 0;
    }
  }
}
