import {
  AppError,
  type ChatChunk,
  type ChatRequest,
  type ChatResult,
  costOfCall,
  type DiscoveredModel,
  type EmbedRequest,
  type EmbedResult,
  ErrorCode,
  type LlmDriver,
  type ModelCapabilities,
  type ProviderModel,
  type PullProgress,
} from '@app/domain';
import { SpanKind, withSpan } from '@app/platform';

import type { ProviderCallKind, ProviderCallRecorder } from './provider-call.recorder';

/** A rough input size before the provider reports it: about four characters per token. */
export function estimateInputTokens(request: ChatRequest): number {
  const chars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
  return Math.max(1, Math.ceil(chars / 4));
}

function errorCodeOf(error: unknown): number {
  return error instanceof AppError ? error.code : ErrorCode.ProviderError;
}

/**
 * Wraps a driver so every call is measured and recorded (latency, tokens, cost, failure code), and
 * an alias in the request resolves to the model id the provider knows.
 */
export class RecordingDriver implements LlmDriver {
  readonly pullModel?: (modelId: string, signal?: AbortSignal) => AsyncIterable<PullProgress>;
  readonly deleteModel?: (modelId: string) => Promise<void>;
  readonly embed?: (request: EmbedRequest) => Promise<EmbedResult>;

  constructor(
    private readonly inner: LlmDriver,
    private readonly provider: string,
    private readonly models: readonly ProviderModel[],
    private readonly recorder: ProviderCallRecorder,
    private readonly kind: ProviderCallKind = 'chat',
  ) {
    if (inner.pullModel) {
      this.pullModel = inner.pullModel.bind(inner);
    }
    if (inner.deleteModel) {
      this.deleteModel = inner.deleteModel.bind(inner);
    }
    const embed = inner.embed?.bind(inner);
    if (embed) {
      this.embed = (request) => this.recordedEmbed(embed, request);
    }
  }

  private resolve(ref: string): { id: string; model: ProviderModel | undefined } {
    const model = this.models.find((m) => m.id === ref) ?? this.models.find((m) => m.alias === ref);
    return { id: model?.id ?? ref, model };
  }

  chat(request: ChatRequest): Promise<ChatResult> {
    const { id, model } = this.resolve(request.model);
    const attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': this.provider,
      'gen_ai.request.model': id,
    };
    return withSpan(
      `chat ${id}`,
      attributes,
      async (span) => {
        const startedAt = new Date();
        this.recorder.started(this.provider, id, this.kind, estimateInputTokens(request));
        try {
          const result = await this.inner.chat({ ...request, model: id });
          this.finish(startedAt, id, model, result);
          span?.setAttributes({
            'gen_ai.usage.input_tokens': result.usage.inputTokens,
            'gen_ai.usage.output_tokens': result.usage.outputTokens,
          });
          return result;
        } catch (error) {
          this.fail(startedAt, id, error);
          throw error;
        }
      },
      SpanKind.CLIENT,
    );
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    const { id, model } = this.resolve(request.model);
    const startedAt = new Date();
    this.recorder.started(this.provider, id, 'stream', estimateInputTokens(request));
    try {
      for await (const chunk of this.inner.stream({ ...request, model: id })) {
        if (chunk.type === 'done') {
          this.finish(startedAt, id, model, chunk.result, 'stream');
        }
        yield chunk;
      }
    } catch (error) {
      this.fail(startedAt, id, error, 'stream');
      throw error;
    }
  }

  async listModels(signal?: AbortSignal): Promise<DiscoveredModel[]> {
    const startedAt = new Date();
    try {
      const models = await this.inner.listModels(signal);
      this.record(startedAt, '', 'list_models', { success: true });
      return models;
    } catch (error) {
      this.fail(startedAt, '', error, 'list_models');
      throw error;
    }
  }

  private async recordedEmbed(
    embed: (request: EmbedRequest) => Promise<EmbedResult>,
    request: EmbedRequest,
  ): Promise<EmbedResult> {
    const { id, model } = this.resolve(request.model);
    const startedAt = new Date();
    const chars = request.input.reduce((sum, text) => sum + text.length, 0);
    this.recorder.started(this.provider, id, 'embedding', Math.max(1, Math.ceil(chars / 4)));
    try {
      const result = await embed({ ...request, model: id });
      this.record(startedAt, id, 'embedding', {
        success: true,
        inputTokens: result.inputTokens,
        cost: costOfCall(model, result.inputTokens, 0),
      });
      return result;
    } catch (error) {
      this.fail(startedAt, id, error, 'embedding');
      throw error;
    }
  }

  capabilities(modelId: string, signal?: AbortSignal): Promise<Partial<ModelCapabilities> | null> {
    return this.inner.capabilities(this.resolve(modelId).id, signal);
  }

  private finish(
    startedAt: Date,
    id: string,
    model: ProviderModel | undefined,
    result: ChatResult,
    kind: ProviderCallKind = this.kind,
  ): void {
    const { inputTokens, outputTokens } = result.usage;
    this.record(startedAt, id, kind, {
      success: true,
      inputTokens,
      outputTokens,
      cost: costOfCall(model, inputTokens, outputTokens),
    });
  }

  private fail(startedAt: Date, id: string, error: unknown, kind: ProviderCallKind = this.kind): void {
    this.record(startedAt, id, kind, { success: false, errorCode: errorCodeOf(error) });
  }

  private record(
    startedAt: Date,
    model: string,
    kind: ProviderCallKind,
    outcome: { success: boolean; errorCode?: number; inputTokens?: number; outputTokens?: number; cost?: number },
  ): void {
    this.recorder.record({
      provider: this.provider,
      model,
      kind,
      startedAt,
      latencyMs: Date.now() - startedAt.getTime(),
      success: outcome.success,
      errorCode: outcome.errorCode ?? null,
      inputTokens: outcome.inputTokens ?? 0,
      outputTokens: outcome.outputTokens ?? 0,
      cost: outcome.cost ?? 0,
    });
  }
}
