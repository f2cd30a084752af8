import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { ProviderQuotas } from './provider-quotas';
import { type NewProviderCall, ProvidersRepository } from './providers.repository';

export type ProviderCallKind = 'chat' | 'stream' | 'probe' | 'list_models';

/**
 * Writes one record per provider call (health and quota read them) and logs it to the cost and
 * usage sink. A failing write is logged, never thrown: the call itself already happened.
 */
@Injectable()
export class ProviderCallRecorder {
  private readonly log: Logger;

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

  async record(call: NewProviderCall): Promise<void> {
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
    try {
      await this.repository.recordCall(call);
    } catch (error) {
      this.log.error({ err: error, provider: call.provider }, 'provider.call.record_failed');
    }
  }
}
