import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';

import { APP_CONFIG, type AppConfig, DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { ProviderRegistry } from './provider-registry';
import { isLocalProvider } from './provider-record';

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Checks local providers (Ollama, LM Studio, vLLM, no-auth servers) in the background: their health
 * otherwise only moves when agents call them. One replica at a time probes (a try-lock: the others
 * skip that round). Each probe is a model listing, recorded like any call.
 */
@Injectable()
export class LocalHealthProber implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private readonly log: Logger;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly lock: DistributedLock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('providers.health');
  }

  onApplicationBootstrap(): void {
    const intervalMs = this.config.providers.healthProbeIntervalMinutes * 60_000;
    this.timer = setInterval(() => {
      void this.probeAll();
    }, intervalMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** One round over every local provider; answers how many were probed (0 when another replica holds the round). */
  async probeAll(): Promise<number> {
    try {
      const outcome = await this.lock.tryRunExclusive('providers.health-probe', async () => {
        const local = this.registry.list().filter(({ record }) => isLocalProvider(record));
        for (const { record, driver } of local) {
          try {
            await driver.listModels(AbortSignal.timeout(PROBE_TIMEOUT_MS));
          } catch (error) {
            this.log.warn({ provider: record.name, reason: (error as Error).message }, 'providers.health.probe_failed');
          }
        }
        return local.length;
      });
      return outcome.ran ? outcome.value : 0;
    } catch (error) {
      this.log.error({ err: error }, 'providers.health.round_failed');
      return 0;
    }
  }
}
