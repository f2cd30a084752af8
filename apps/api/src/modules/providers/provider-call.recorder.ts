import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGING_RUNTIME, type LoggingRuntime, ServiceMetrics, settleWithin, WriteBehindBuffers } from '@app/platform';

import { ProviderQuotas } from './provider-quotas';
import { type NewProviderCall, ProvidersRepository } from './providers.repository';

/** How long shutdown waits for provider call rows still being written. */
const SHUTDOWN_FLUSH_MS = 5_000;
/** A call's row waits at most this long for others to share its statement. */
const BATCH_WINDOW_MS = 200;
/** Rows written in one statement at most; a full batch is written at once. */
const BATCH_MAX_ROWS = 100;

export type ProviderCallKind = 'chat' | 'stream' | 'probe' | 'list_models' | 'embedding';

/**
 * Writes one record per provider call (the health and insight figures read them) and logs it to the
 * cost and usage sink. The write runs behind the call: the caller has its answer as soon as the
 * provider gave it, and a failing write is logged, never thrown (the call itself already happened).
 * Rows are written in batches, one statement for the calls of up to {@link BATCH_WINDOW_MS} (or
 * {@link BATCH_MAX_ROWS} calls), rather than one statement on every call's path: other replicas see
 * a call that much later, and a crash of the process loses at most that window of these rows (the
 * call's cost record, the durable account of what it cost, is written apart). Readers in this
 * process {@link flush} first, so they see every call made here, and so does a backup (the recorder
 * is one of the process's write-behind buffers); shutdown flushes before persistence closes. Quotas
 * count in memory, at once.
 */
@Injectable()
export class ProviderCallRecorder implements OnApplicationShutdown {
  private readonly log: Logger;
  /** Writes in flight, with their row counts. */
  private readonly pending = new Map<Promise<void>, number>();
  private queued: NewProviderCall[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: ProvidersRepository,
    private readonly quotas: ProviderQuotas,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    buffers: WriteBehindBuffers,
    private readonly metrics: ServiceMetrics,
  ) {
    this.log = logging.forName('providers.calls');
    buffers.register({ name: 'providers.calls', flush: () => this.flush() });
  }

  started(provider: string, model: string, kind: ProviderCallKind, estimatedInputTokens: number): void {
    this.log.info({ provider, model, kind, input_tokens: estimatedInputTokens }, 'provider.call.started');
  }

  record(call: NewProviderCall): void {
    this.quotas.record(call.provider, call.inputTokens + call.outputTokens, call.startedAt.getTime());
    this.measure(call);
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
    this.queued.push(call);
    if (this.queued.length >= BATCH_MAX_ROWS) {
      this.writeQueued();
    } else if (this.timer === null) {
      this.timer = setTimeout(() => this.writeQueued(), BATCH_WINDOW_MS);
      // Shutdown flushes what waits; the timer alone does not keep the process alive.
      this.timer.unref();
    }
  }

  /** Resolves once every call recorded before this one is stored (or its failure logged). */
  async flush(): Promise<void> {
    this.writeQueued();
    await Promise.all([...this.pending.keys()]);
  }

  /** The call's Prometheus figures (provider and model names are the configured, bounded set). */
  private measure(call: NewProviderCall): void {
    const { provider, model, kind } = call;
    this.metrics.modelCalls.inc({ provider, model, kind, result: call.success ? 'success' : 'error' });
    this.metrics.modelCallDuration.observe({ provider, model, kind }, call.latencyMs / 1000);
    if (call.inputTokens > 0) {
      this.metrics.modelTokens.inc({ provider, model, direction: 'input' }, call.inputTokens);
    }
    if (call.outputTokens > 0) {
      this.metrics.modelTokens.inc({ provider, model, direction: 'output' }, call.outputTokens);
    }
    if (call.cost > 0) {
      this.metrics.modelCost.inc({ provider, model }, call.cost);
    }
  }

  /** Starts the write of the queued rows. */
  private writeQueued(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const rows = this.queued;
    if (rows.length === 0) {
      return;
    }
    this.queued = [];
    // Through a promise from the start: a repository that throws at once (persistence not wired)
    // must not turn the finished call into a failure.
    const write: Promise<void> = Promise.resolve()
      .then(() => this.repository.recordCalls(rows))
      .then(
        () => {
          this.pending.delete(write);
        },
        (error: unknown) => {
          this.pending.delete(write);
          const providers = [...new Set(rows.map((row) => row.provider))];
          this.log.error(
            { err: error, provider: providers.join(','), rows: rows.length },
            'provider.call.record_failed',
          );
        },
      );
    this.pending.set(write, rows.length);
  }

  /** Writes the rows still queued and waits for them, at most SHUTDOWN_FLUSH_MS: a stuck database must not hold the exit. */
  async onApplicationShutdown(): Promise<void> {
    await settleWithin(this.flush(), SHUTDOWN_FLUSH_MS);
    const rows = [...this.pending.values()].reduce((sum, count) => sum + count, 0);
    if (rows > 0) {
      this.log.warn({ pending: rows }, 'provider.call.records_unflushed');
    }
  }
}
