import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';

import {
  AppError,
  ErrorCode,
  NotFoundError,
  parseLocalModelParams,
  type PullProgress,
  ValidationError,
} from '@app/domain';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { DiscoveryPolicyService } from './discovery/discovery-policy.service';
import { GuardedFetcher } from './discovery/guarded-fetch';
import type { ModelEntryResponseDto } from './dto/model.dto';
import { createDriver } from './drivers/driver-factory';
import { DEFAULT_MAX_CONTEXT, localModelSupport, type ProviderRecord } from './provider-record';
import { toModelEntryDto } from './providers.mapper';
import { ProvidersService } from './providers.service';

type LocalOperation = 'pull' | 'delete' | 'config';

const OPERATION_NAMES: Record<LocalOperation, string> = {
  pull: 'pulling models',
  delete: 'deleting models',
  config: 'model launch configuration',
};

/** Server-sent event frame. */
function frame(data: PullProgress, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** Local model management (Ollama-style providers): pull with streamed progress, delete, launch parameters. */
@Injectable()
export class LocalModelsService {
  private readonly log: Logger;

  constructor(
    private readonly providers: ProvidersService,
    private readonly policy: DiscoveryPolicyService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('providers.local_models');
  }

  private async supporting(name: string, operation: LocalOperation): Promise<ProviderRecord> {
    const record = await this.providers.record(name);
    if (!localModelSupport(record)[operation]) {
      throw new ValidationError(
        `provider "${name}" does not support ${OPERATION_NAMES[operation]} ` +
          `(only presets with supports_model_${operation} do, e.g. ollama)`,
        ErrorCode.ProviderCapabilityUnsupported,
      );
    }
    return record;
  }

  /**
   * Checks everything that can fail before the stream starts (so those failures are ordinary error
   * responses), then streams the download as server-sent events. The final event has `done: true`;
   * a failure mid-way is sent as `event: error`. A pulled model joins the provider's model list.
   */
  async pull(actor: ActorContext, name: string, modelName: string, res: Response): Promise<void> {
    const record = await this.supporting(name, 'pull');
    // Provider calls pass the discovery address checks; a refused target is an error before the stream.
    const fetcher = new GuardedFetcher(await this.policy.policy());
    await fetcher.assertAllowed(record.endpoint);
    const driver = createDriver(record, { maxRetries: 0, timeoutMs: 60_000, baseFetch: fetcher.fetch });
    if (!driver.pullModel) {
      await fetcher.close();
      throw new ValidationError(`provider "${name}" cannot pull models`, ErrorCode.ProviderCapabilityUnsupported);
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    let succeeded = false;
    try {
      for await (const progress of driver.pullModel(modelName, abort.signal)) {
        succeeded ||= progress.done;
        if (!progress.done) {
          res.write(frame(progress));
        }
      }
      if (!succeeded) {
        throw new AppError(ErrorCode.ProviderInternal, 'the download ended without success');
      }
      await this.addModel(actor, name, modelName);
      res.write(
        frame({
          status: 'success',
          progress_percent: 100,
          total_bytes: null,
          completed_bytes: null,
          error: null,
          done: true,
        }),
      );
      this.log.info({ provider: name, model: modelName }, 'providers.model.pulled');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn({ provider: name, model: modelName, reason: message }, 'providers.model.pull_failed');
      if (!res.writableEnded) {
        res.write(
          frame(
            {
              status: 'error',
              progress_percent: null,
              total_bytes: null,
              completed_bytes: null,
              error: message,
              done: true,
            },
            'error',
          ),
        );
      }
    } finally {
      res.end();
      await fetcher.close();
    }
  }

  private async addModel(actor: ActorContext, name: string, modelName: string): Promise<void> {
    const record = await this.providers.record(name);
    if (record.models.some((m) => m.id === modelName)) {
      return;
    }
    await this.providers.replaceModels(
      actor,
      name,
      [
        ...record.models,
        {
          id: modelName,
          alias: null,
          costPer1kInput: 0,
          costPer1kOutput: 0,
          maxContext: DEFAULT_MAX_CONTEXT,
          estimatedLatencyMs: null,
          localParams: null,
        },
      ],
      'model_pulled',
    );
  }

  async delete(actor: ActorContext, name: string, modelId: string): Promise<void> {
    const record = await this.supporting(name, 'delete');
    const fetcher = new GuardedFetcher(await this.policy.policy());
    const driver = createDriver(record, { maxRetries: 0, timeoutMs: 60_000, baseFetch: fetcher.fetch });
    try {
      if (!driver.deleteModel) {
        throw new ValidationError(`provider "${name}" cannot delete models`, ErrorCode.ProviderCapabilityUnsupported);
      }
      await driver.deleteModel(modelId);
    } finally {
      await fetcher.close();
    }
    if (record.models.some((m) => m.id === modelId)) {
      await this.providers.replaceModels(
        actor,
        name,
        record.models.filter((m) => m.id !== modelId),
        'model_deleted',
      );
    }
    this.log.info({ provider: name, model: modelId }, 'providers.model.deleted');
  }

  async configure(actor: ActorContext, name: string, modelId: string, raw: unknown): Promise<ModelEntryResponseDto> {
    const record = await this.supporting(name, 'config');
    const model = record.models.find((m) => m.id === modelId);
    if (!model) {
      throw new NotFoundError(`provider "${name}" has no model "${modelId}"`, ErrorCode.ModelNotFound);
    }
    const params = { ...parseLocalModelParams(raw) } as Record<string, number | null>;
    const updated = await this.providers.replaceModels(
      actor,
      name,
      record.models.map((m) => (m.id === modelId ? { ...m, localParams: params } : m)),
      'model_configured',
    );
    return toModelEntryDto(updated.models.find((m) => m.id === modelId) ?? { ...model, localParams: params });
  }
}
