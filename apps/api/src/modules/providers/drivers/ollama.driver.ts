import { Ollama } from 'ollama';

import {
  type ChatChunk,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type DiscoveredModel,
  type EmbedRequest,
  type EmbedResult,
  ErrorCode,
  type FinishReason,
  type LlmDriver,
  type ModelCapabilities,
  NotFoundError,
  type PullProgress,
  type ToolCall,
} from '@app/domain';

import { toProviderError } from './driver-errors';
import { type DriverOptions, MAX_LISTED_MODELS } from './driver-options';

type OllamaMessage = {
  role: string;
  content: string;
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
};

/** Launch parameters of a local model, by our field names. */
export type LocalParamsLookup = (modelId: string) => Record<string, number | null> | null;

/** Our launch-parameter names → Ollama's option names. */
const OPTION_NAMES: Readonly<Record<string, string>> = {
  num_ctx: 'num_ctx',
  num_gpu_layers: 'num_gpu',
  num_threads: 'num_thread',
  num_batch: 'num_batch',
  repeat_penalty: 'repeat_penalty',
};

function toWire(message: ChatMessage): OllamaMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? { tool_calls: message.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      };
    case 'tool':
      return { role: 'tool', content: message.content, tool_name: message.name };
  }
}

function toolCallsOf(message: { tool_calls?: { function: { name: string; arguments: object } }[] }): ToolCall[] {
  return (message.tool_calls ?? []).map((c, index) => ({
    id: `call_${index}`,
    name: c.function.name,
    arguments: { ...(c.function.arguments as Record<string, unknown>) },
  }));
}

function finishReason(doneReason: string | undefined, toolCalls: number): FinishReason {
  if (toolCalls > 0) {
    return 'tool_calls';
  }
  return doneReason === 'length' ? 'length' : doneReason === 'stop' ? 'stop' : 'other';
}

/** Ollama's native API through the official client: chat plus local model pull, delete and show. */
export class OllamaDriver implements LlmDriver {
  constructor(
    private readonly options: DriverOptions,
    private readonly localParams: LocalParamsLookup = () => null,
  ) {}

  /** A client whose requests end with the caller's signal or the timeout, whichever comes first. */
  private client(signal: AbortSignal | undefined, timeoutMs: number | null): Ollama {
    const base = this.options.fetch;
    const signals = [signal, timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs)].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    return new Ollama({
      host: this.options.endpoint,
      headers: this.options.headers,
      fetch: (input: string | URL | Request, init?: RequestInit) =>
        base(input, {
          ...init,
          signal: AbortSignal.any([...signals, ...(init?.signal ? [init.signal] : [])]),
        }),
    });
  }

  private options_(request: ChatRequest): Record<string, number> {
    const options: Record<string, number> = {};
    for (const [name, value] of Object.entries(this.localParams(request.model) ?? {})) {
      if (value !== null && OPTION_NAMES[name]) {
        options[OPTION_NAMES[name]] = value;
      }
    }
    if (request.maxOutputTokens !== undefined) {
      options.num_predict = request.maxOutputTokens;
    }
    if (request.temperature !== undefined) {
      options.temperature = request.temperature;
    }
    return options;
  }

  private tools(request: ChatRequest) {
    return request.tools?.length
      ? request.tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.parameters },
        }))
      : undefined;
  }

  /** `POST /api/embed` with `{model, input}`; vectors come back in `embeddings`. */
  async embed(request: EmbedRequest): Promise<EmbedResult> {
    try {
      const response = await this.client(request.signal, request.timeoutMs ?? this.options.timeoutMs).embed({
        model: request.model,
        input: request.input,
        ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}),
      });
      return {
        model: response.model || request.model,
        vectors: response.embeddings,
        inputTokens: response.prompt_eval_count ?? 0,
      };
    } catch (error) {
      throw toProviderError(error, this.options.provider);
    }
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    try {
      const response = await this.client(request.signal, request.timeoutMs ?? this.options.timeoutMs).chat({
        model: request.model,
        messages: request.messages.map(toWire),
        tools: this.tools(request),
        options: this.options_(request),
        stream: false,
      });
      const toolCalls = toolCallsOf(response.message);
      return {
        model: response.model || request.model,
        content: response.message.content ?? '',
        toolCalls,
        usage: { inputTokens: response.prompt_eval_count ?? 0, outputTokens: response.eval_count ?? 0 },
        finishReason: finishReason(response.done_reason, toolCalls.length),
      };
    } catch (error) {
      throw toProviderError(error, this.options.provider);
    }
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    let content = '';
    let model = request.model;
    let doneReason: string | undefined;
    const toolCalls: ToolCall[] = [];
    const usage = { inputTokens: 0, outputTokens: 0 };
    try {
      const parts = await this.client(request.signal, request.timeoutMs ?? this.options.timeoutMs).chat({
        model: request.model,
        messages: request.messages.map(toWire),
        tools: this.tools(request),
        options: this.options_(request),
        stream: true,
      });
      for await (const part of parts) {
        model = part.model || model;
        if (part.message.content) {
          content += part.message.content;
          yield { type: 'text', text: part.message.content };
        }
        toolCalls.push(...toolCallsOf(part.message).map((c, i) => ({ ...c, id: `call_${toolCalls.length + i}` })));
        if (part.done) {
          doneReason = part.done_reason;
          usage.inputTokens = part.prompt_eval_count ?? 0;
          usage.outputTokens = part.eval_count ?? 0;
        }
      }
    } catch (error) {
      throw toProviderError(error, this.options.provider);
    }
    yield {
      type: 'done',
      result: { model, content, toolCalls, usage, finishReason: finishReason(doneReason, toolCalls.length) },
    };
  }

  async listModels(signal?: AbortSignal): Promise<DiscoveredModel[]> {
    try {
      const { models } = await this.client(signal, this.options.timeoutMs).list();
      return models.slice(0, MAX_LISTED_MODELS).map((m) => ({ id: m.name, maxContext: null }));
    } catch (error) {
      throw toProviderError(error, this.options.provider);
    }
  }

  async capabilities(modelId: string, signal?: AbortSignal): Promise<Partial<ModelCapabilities> | null> {
    try {
      const shown = await this.client(signal, this.options.timeoutMs).show({ model: modelId });
      const caps = Array.isArray(shown.capabilities) ? shown.capabilities : [];
      return {
        supports_tools: caps.includes('tools'),
        supports_vision: caps.includes('vision'),
        supports_streaming: true,
      };
    } catch {
      return null;
    }
  }

  /** Streams download progress; no overall timeout (large models take long), the signal ends it. */
  async *pullModel(modelId: string, signal?: AbortSignal): AsyncIterable<PullProgress> {
    let stream: AsyncIterable<{ status: string; total?: number; completed?: number }>;
    try {
      stream = await this.client(signal, null).pull({ model: modelId, stream: true });
    } catch (error) {
      throw toProviderError(error, this.options.provider);
    }
    try {
      for await (const part of stream) {
        const total = typeof part.total === 'number' && part.total > 0 ? part.total : null;
        const completed = typeof part.completed === 'number' ? part.completed : null;
        yield {
          status: part.status,
          progress_percent:
            total !== null && completed !== null ? Math.min(100, Math.round((completed / total) * 1000) / 10) : null,
          total_bytes: total,
          completed_bytes: completed,
          error: null,
          done: part.status === 'success',
        };
      }
    } catch (error) {
      throw toProviderError(error, this.options.provider);
    }
  }

  async deleteModel(modelId: string): Promise<void> {
    try {
      await this.client(undefined, this.options.timeoutMs).delete({ model: modelId });
    } catch (error) {
      const status = (error as { status_code?: unknown }).status_code;
      if (status === 404) {
        throw new NotFoundError(`model "${modelId}" is not installed`, ErrorCode.ModelNotFound);
      }
      throw toProviderError(error, this.options.provider);
    }
  }
}
