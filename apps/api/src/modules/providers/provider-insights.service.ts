import { Injectable } from '@nestjs/common';

import { AppError, DEFAULT_MODEL_CAPABILITIES, ErrorCode, type LlmDriver, summariseProviderHealth } from '@app/domain';

import { DiscoveryPolicyService } from './discovery/discovery-policy.service';
import { GuardedFetcher } from './discovery/guarded-fetch';
import type { ProviderModelDto } from './dto/model.dto';
import type { ProviderHealthDto, TestResultDto } from './dto/provider-insights.dto';
import { createDriver } from './drivers/driver-factory';
import type { FetchLike } from './drivers/provider-auth';
import { ProviderCallRecorder } from './provider-call.recorder';
import { ProviderRegistry } from './provider-registry';
import type { ProviderRecord } from './provider-record';
import { toModelEntryDto } from './providers.mapper';
import { ProvidersRepository } from './providers.repository';
import { ProvidersService } from './providers.service';
import { RecordingDriver } from './recording-driver';

export const TEST_CALL_TIMEOUT_MS = 30_000;
const CAPABILITY_TIMEOUT_MS = 5_000;
const CAPABILITY_CONCURRENCY = 8;
const HEALTH_WINDOW_MS = 24 * 3600 * 1000;

/** Read-side views of a provider that talk to it or to its call records: test, models, health. */
@Injectable()
export class ProviderInsightsService {
  constructor(
    private readonly providers: ProvidersService,
    private readonly registry: ProviderRegistry,
    private readonly repository: ProvidersRepository,
    private readonly recorder: ProviderCallRecorder,
    private readonly policy: DiscoveryPolicyService,
  ) {}

  /**
   * A minimal chat call without retries; failures are reported in the body, not as an error status.
   * The call goes through the same address checks and allowlist as discovery: a refused target is
   * an error (400, 2014), as it is there.
   */
  async test(name: string, model?: string): Promise<TestResultDto> {
    const record = await this.providers.record(name);
    const target = model ?? record.models[0]?.id ?? null;
    if (target === null) {
      return {
        success: false,
        latency_ms: null,
        error: 'the provider has no models: add models or run discovery first',
        error_code: ErrorCode.ProviderInvalidRequest,
        model_tested: null,
      };
    }
    const fetcher = new GuardedFetcher(await this.policy.policy());
    const driver = this.probeDriver(record, fetcher.fetch);
    const started = performance.now();
    try {
      await driver.chat({
        model: target,
        messages: [{ role: 'user', content: 'Reply with the single word: ok' }],
        maxOutputTokens: 16,
      });
      return {
        success: true,
        latency_ms: Math.round(performance.now() - started),
        error: null,
        error_code: null,
        model_tested: target,
      };
    } catch (error) {
      const appError = error instanceof AppError ? error : null;
      if (appError?.code === ErrorCode.UnsafeDiscoveryTarget) {
        throw appError;
      }
      return {
        success: false,
        latency_ms: Math.round(performance.now() - started),
        error: appError ? appError.message : String(error),
        error_code: appError?.code ?? ErrorCode.ProviderError,
        model_tested: target,
      };
    } finally {
      await fetcher.close();
    }
  }

  async models(name: string): Promise<ProviderModelDto[]> {
    const record = await this.providers.record(name);
    const driver = this.registry.get(name)?.driver;
    const results: ProviderModelDto[] = new Array<ProviderModelDto>(record.models.length);
    let next = 0;
    const worker = async () => {
      while (next < record.models.length) {
        const index = next++;
        const model = record.models[index];
        const reported = driver
          ? await driver.capabilities(model.id, AbortSignal.timeout(CAPABILITY_TIMEOUT_MS)).catch(() => null)
          : null;
        results[index] = { ...toModelEntryDto(model), ...DEFAULT_MODEL_CAPABILITIES, ...(reported ?? {}) };
      }
    };
    await Promise.all(Array.from({ length: Math.min(CAPABILITY_CONCURRENCY, record.models.length) }, worker));
    return results;
  }

  async health(name: string): Promise<ProviderHealthDto> {
    await this.providers.assertExists(name);
    // This replica's calls still being written count too.
    await this.recorder.flush();
    const stats = await this.repository.callStats(name, new Date(Date.now() - HEALTH_WINDOW_MS));
    return summariseProviderHealth(stats);
  }

  /** A driver for one-off probes: no retries (fast, honest answers), still recorded for health. */
  probeDriver(record: ProviderRecord, baseFetch?: FetchLike): LlmDriver {
    return new RecordingDriver(
      createDriver(record, { maxRetries: 0, timeoutMs: TEST_CALL_TIMEOUT_MS, baseFetch }),
      record.name,
      record.models,
      this.recorder,
      'probe',
    );
  }
}
