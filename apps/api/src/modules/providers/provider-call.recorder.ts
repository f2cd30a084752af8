import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGING_RUNTIME, type LoggingRuntime, settleWithin } from '@app/platform';

import { ProviderQuotas } from './provider-quotas';
import { type NewProviderCall, ProvidersRepository } from './providers.repository';

/** How long shutdown waits for provider call rows still being written. */
const SHUTDOWN_FLUSH_MS = 5_000;

export type ProviderCallKind = 'chat' | 'stream' | 'probe' | 'list_models';

/**
 * Writes one record per provider call (health and quota read them) and logs it to the cost and
 * usage sink. The write runs behind the call: the caller has its answer as soon as the provider
 * gave it, and a failing write is logged, never thrown (the call itself already happened). Readers
 * in this process {@link flush} first, so they see every call made here; shutdown flushes before
 * persistence closes.
 */
@Injectable()
export class ProviderCallRecorder implements OnApplicationShutdown {
  private readonly log: Logger;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly repository: ProvidersRepository,
    private readonly quotas: ProviderQuotas,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('providers.calls');
  }

  started(provider: string, model: string, kind: ProviderCallKind, estimatedInputTokens: number): void {
    this.log.info({ provider, model, kind, input_tokens: estimatedInputTokens }, 'provider.call.started');
  }

  record(call: NewProviderCall): void {
    this.quotas.record(call.provider, call.inputTokens + call.outputTokens, call.startedAt.getTime());
    const fields = {
      provider: call.provider,
      model: call.model,
      kind: call.kind,
      latency_ms: call.latencyMs,
      input_tokens: call.inputTokens,
      output_tokens: call.outputTokens,
      cost: call.cost,
    };
    if (call.success) {
      this.log.info(fields, 'provider.call.completed');
    } else {
      this.log.warn({ ...fields, error_code: call.errorCode }, 'provider.call.failed');
    }
    // Through a promise from the start: a repository that throws at once (persistence not wired)
    // must not turn the finished call into a failure.
    const write: Promise<void> = Promise.resolve()
      .then(() => this.repository.recordCall(call))
      .then(
        () => {
          this.pending.delete(write);
        },
        (error: unknown) => {
          this.pending.delete(write);
          this.log.error({ err: error, provider: call.provider }, 'provider.call.record_failed');
        },
      );
    this.pending.add(write);
  }

  /** Resolves once every call recorded before this one is stored (or its failure logged). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Waits for the rows still being written, at most SHUTDOWN_FLUSH_MS: a stuck database must not hold the exit. */
  async onApplicationShutdown(): Promise<void> {
    await settleWithin(this.flush(), SHUTDOWN_FLUSH_MS);
    if (this.pending.size > 0) {
      this.log.warn({ pending: this.pending.size }, 'provider.call.records_unflushed');
    }
  }
}
