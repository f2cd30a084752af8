import OpenAI from 'openai';

import type {
  ChatChunk,
  ChatMessage,
  ChatRequest,
  ChatResult,
  DiscoveredModel,
  EmbedRequest,
  EmbedResult,
  FinishReason,
  LlmDriver,
  ModelCapabilities,
  ToolCall,
} from '@app/domain';

import { startTiming, toProviderError } from './driver-errors';
import { type DriverOptions, MAX_LISTED_MODELS, parseToolArguments } from './driver-options';
import { SDK_PLACEHOLDER_KEY } from './provider-auth';

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toWire(message: ChatMessage): WireMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

function finishReason(raw: string | null | undefined): FinishReason {
  return (raw ? FINISH_REASONS[raw] : undefined) ?? 'other';
}

/** The OpenAI chat-completions protocol: OpenAI itself and every compatible server (most presets). */
export class OpenAiCompatibleDriver implements LlmDriver {
  private readonly client: OpenAI;

  constructor(private readonly options: DriverOptions) {
    this.client = new OpenAI({
      apiKey: SDK_PLACEHOLDER_KEY,
      baseURL: options.endpoint,
      fetch: options.fetch,
      maxRetries: options.maxRetries,
      timeout: options.timeoutMs,
      defaultHeaders: options.headers,
    });
  }

  private body(request: ChatRequest) {
    return {
      model: request.model,
      messages: request.messages.map(toWire),
      ...(request.tools?.length
        ? {
            tools: request.tools.map((t) => ({
              type: 'function' as const,
              function: { name: t.name, description: t.description, parameters: t.parameters },
            })),
          }
        : {}),
      ...(request.maxOutputTokens !== undefined ? { max_tokens: request.maxOutputTokens } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
  }

  private requestOptions(request: ChatRequest) {
    return { signal: request.signal, timeout: request.timeoutMs ?? this.options.timeoutMs };
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    const timing = startTiming(request.timeoutMs ?? this.options.timeoutMs);
    try {
      const completion = await this.client.chat.completions.create(
        { ...this.body(request), stream: false },
        this.requestOptions(request),
      );
      const choice = completion.choices[0];
      const toolCalls: ToolCall[] = (choice?.message.tool_calls ?? []).flatMap((c) =>
        c.type === 'function'
          ? [{ id: c.id, name: c.function.name, arguments: parseToolArguments(c.function.arguments) }]
          : [],
      );
      return {
        model: completion.model || request.model,
        content: choice?.message.content ?? '',
        toolCalls,
        usage: {
          inputTokens: completion.usage?.prompt_tokens ?? 0,
          outputTokens: completion.usage?.completion_tokens ?? 0,
        },
        finishReason: finishReason(choice?.finish_reason),
      };
    } catch (error) {
      throw toProviderError(error, this.options.provider, timing);
    }
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    const timing = startTiming(request.timeoutMs ?? this.options.timeoutMs);
    let content = '';
    let model = request.model;
    let reason: FinishReason = 'other';
    let usage = { inputTokens: 0, outputTokens: 0 };
    const calls = new Map<number, { id: string; name: string; args: string }>();
    try {
      const stream = await this.client.chat.completions.create(
        { ...this.body(request), stream: true, stream_options: { include_usage: true } },
        this.requestOptions(request),
      );
      for await (const chunk of stream) {
        model = chunk.model || model;
        if (chunk.usage) {
          usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
        }
        const choice = chunk.choices[0];
        if (!choice) {
          continue;
        }
        if (choice.delta.content) {
          content += choice.delta.content;
          yield { type: 'text', text: choice.delta.content };
        }
        for (const delta of choice.delta.tool_calls ?? []) {
          const entry = calls.get(delta.index) ?? { id: '', name: '', args: '' };
          entry.id = delta.id ?? entry.id;
          entry.name = delta.function?.name ?? entry.name;
          entry.args += delta.function?.arguments ?? '';
          calls.set(delta.index, entry);
        }
        if (choice.finish_reason) {
          reason = finishReason(choice.finish_reason);
        }
      }
    } catch (error) {
      throw toProviderError(error, this.options.provider, timing);
    }
    const toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, c]) => ({ id: c.id, name: c.name, arguments: parseToolArguments(c.args) }));
    yield { type: 'done', result: { model, content, toolCalls, usage, finishReason: reason } };
  }

  async listModels(signal?: AbortSignal): Promise<DiscoveredModel[]> {
    const timing = startTiming(this.options.timeoutMs);
    try {
      const models: DiscoveredModel[] = [];
      for await (const model of this.client.models.list({ signal, timeout: this.options.timeoutMs })) {
        models.push({ id: model.id, maxContext: contextOf(model) });
        if (models.length >= MAX_LISTED_MODELS) {
          break;
        }
      }
      return models;
    } catch (error) {
      throw toProviderError(error, this.options.provider, timing);
    }
  }

  /** `POST {base_url}/embeddings` with `{model, input: [..]}`; vectors come back in `data[].embedding`. */
  async embed(request: EmbedRequest): Promise<EmbedResult> {
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    const timing = startTiming(timeoutMs);
    try {
      const response = await this.client.embeddings.create(
        {
          model: request.model,
          input: request.input,
          encoding_format: 'float',
          ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}),
        },
        { signal: request.signal, timeout: timeoutMs },
      );
      const vectors: number[][] = new Array<number[]>(request.input.length);
      for (const item of response.data) {
        vectors[item.index] = item.embedding;
      }
      return {
        model: response.model || request.model,
        vectors: [...vectors].map((v) => v ?? []),
        inputTokens: response.usage?.prompt_tokens ?? 0,
      };
    } catch (error) {
      throw toProviderError(error, this.options.provider, timing);
    }
  }

  /** The protocol has no capability listing; defaults apply. */
  capabilities(): Promise<Partial<ModelCapabilities> | null> {
    return Promise.resolve(null);
  }
}

/** Some compatible servers (OpenRouter, vLLM, LM Studio) report a context length on the model entry. */
function contextOf(model: object): number | null {
  const record = model as Record<string, unknown>;
  for (const key of ['context_length', 'max_model_len', 'max_context_length']) {
    const value = record[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) {
      return value;
    }
  }
  return null;
}
