import Anthropic from '@anthropic-ai/sdk';

import type {
  ChatChunk,
  ChatMessage,
  ChatRequest,
  ChatResult,
  DiscoveredModel,
  FinishReason,
  LlmDriver,
  ModelCapabilities,
  ToolCall,
} from '@app/domain';

import { startTiming, toProviderError } from './driver-errors';
import { type DriverOptions, MAX_LISTED_MODELS, parseToolArguments } from './driver-options';
import { SDK_PLACEHOLDER_KEY } from './provider-auth';

type Block = Anthropic.Messages.ContentBlockParam;
type WireMessage = { role: 'user' | 'assistant'; content: Block[] };

/** The Messages API needs max_tokens on every call. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** System text and strictly alternating user/assistant turns (tool results travel as user turns). */
export function toAnthropicMessages(messages: readonly ChatMessage[]): { system: string; messages: WireMessage[] } {
  const system: string[] = [];
  const wire: WireMessage[] = [];
  const push = (role: WireMessage['role'], blocks: Block[]) => {
    const last = wire.at(-1);
    if (last && last.role === role) {
      last.content.push(...blocks);
    } else {
      wire.push({ role, content: blocks });
    }
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        push('user', [{ type: 'text', text: message.content }]);
        break;
      case 'assistant':
        push('assistant', [
          ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
          ...(message.toolCalls ?? []).map((c) => ({
            type: 'tool_use' as const,
            id: c.id,
            name: c.name,
            input: c.arguments,
          })),
        ]);
        break;
      case 'tool':
        push('user', [
          { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, is_error: message.isError },
        ]);
        break;
    }
  }
  return { system: system.join('\n\n'), messages: wire };
}

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
};

function finishReason(raw: string | null | undefined): FinishReason {
  return (raw ? FINISH_REASONS[raw] : undefined) ?? 'other';
}

/** Claude generation of a model id (`claude-sonnet-4-5-…` → 4.5, `claude-3-5-sonnet-…` → 3.5), or null. */
export function claudeGeneration(id: string): number | null {
  const match = /^claude-(?:[a-z]+-)?(\d+)(?:-(\d)(?=-|$))?/.exec(id);
  if (!match) {
    return null;
  }
  return Number(match[1]) + (match[2] ? Number(match[2]) / 10 : 0);
}

/** Anthropic's Messages API through the official SDK. */
export class AnthropicDriver implements LlmDriver {
  private readonly client: Anthropic;

  constructor(private readonly options: DriverOptions) {
    this.client = new Anthropic({
      apiKey: SDK_PLACEHOLDER_KEY,
      baseURL: options.endpoint,
      fetch: options.fetch,
      maxRetries: options.maxRetries,
      timeout: options.timeoutMs,
      defaultHeaders: options.headers,
    });
  }

  private body(request: ChatRequest) {
    const { system, messages } = toAnthropicMessages(request.messages);
    return {
      model: request.model,
      max_tokens: request.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      messages,
      ...(system ? { system } : {}),
      ...(request.tools?.length
        ? {
            tools: request.tools.map((t) => ({
              name: t.name,
              description: t.description,
              input_schema: { type: 'object' as const, ...t.parameters },
            })),
          }
        : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
  }

  private requestOptions(request: ChatRequest) {
    return { signal: request.signal, timeout: request.timeoutMs ?? this.options.timeoutMs };
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    const timing = startTiming(request.timeoutMs ?? this.options.timeoutMs);
    try {
      const message = await this.client.messages.create(
        { ...this.body(request), stream: false },
        this.requestOptions(request),
      );
      let content = '';
      const toolCalls: ToolCall[] = [];
      for (const block of message.content) {
        if (block.type === 'text') {
          content += block.text;
        } else if (block.type === 'tool_use') {
          toolCalls.push({ id: block.id, name: block.name, arguments: asObject(block.input) });
        }
      }
      return {
        model: message.model || request.model,
        content,
        toolCalls,
        usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
        finishReason: finishReason(message.stop_reason),
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
    const usage = { inputTokens: 0, outputTokens: 0 };
    const tools = new Map<number, { id: string; name: string; json: string }>();
    try {
      const events = await this.client.messages.create(
        { ...this.body(request), stream: true },
        this.requestOptions(request),
      );
      for await (const event of events) {
        switch (event.type) {
          case 'message_start':
            model = event.message.model || model;
            usage.inputTokens = event.message.usage.input_tokens;
            usage.outputTokens = event.message.usage.output_tokens;
            break;
          case 'content_block_start':
            if (event.content_block.type === 'tool_use') {
              tools.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
            }
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta') {
              content += event.delta.text;
              yield { type: 'text', text: event.delta.text };
            } else if (event.delta.type === 'input_json_delta') {
              const tool = tools.get(event.index);
              if (tool) {
                tool.json += event.delta.partial_json;
              }
            }
            break;
          case 'message_delta':
            reason = finishReason(event.delta.stop_reason);
            usage.outputTokens = event.usage.output_tokens;
            break;
          case 'content_block_stop':
          case 'message_stop':
            break;
        }
      }
    } catch (error) {
      throw toProviderError(error, this.options.provider, timing);
    }
    const toolCalls = [...tools.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, t]) => ({ id: t.id, name: t.name, arguments: parseToolArguments(t.json) }));
    yield { type: 'done', result: { model, content, toolCalls, usage, finishReason: reason } };
  }

  async listModels(signal?: AbortSignal): Promise<DiscoveredModel[]> {
    const timing = startTiming(this.options.timeoutMs);
    try {
      const models: DiscoveredModel[] = [];
      for await (const model of this.client.models.list({}, { signal, timeout: this.options.timeoutMs })) {
        const generation = claudeGeneration(model.id);
        // Older Claude generations are retired or superseded; only 4.5 and later are offered.
        if (generation === null || generation >= 4.5) {
          models.push({ id: model.id, maxContext: null });
        }
        if (models.length >= MAX_LISTED_MODELS) {
          break;
        }
      }
      return models;
    } catch (error) {
      throw toProviderError(error, this.options.provider, timing);
    }
  }

  /** Every current Claude model takes tools and images and streams. */
  capabilities(modelId: string): Promise<Partial<ModelCapabilities> | null> {
    return Promise.resolve(
      claudeGeneration(modelId) === null
        ? null
        : { supports_tools: true, supports_vision: true, supports_streaming: true },
    );
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
