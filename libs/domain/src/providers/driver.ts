/**
 * The port every model-provider driver implements (OpenAI-compatible, Anthropic Messages, Ollama).
 * Drivers translate between this neutral shape and their wire protocol; they never see the database.
 */

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  maxOutputTokens?: number;
  temperature?: number;
  /** Aborts the call (shutdown, caller timeout). */
  signal?: AbortSignal;
  /** Per-call timeout in milliseconds. */
  timeoutMs?: number;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface ChatResult {
  model: string;
  content: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: FinishReason;
}

/** A streamed piece of a reply; the last chunk carries `done` with the final result. */
export type ChatChunk = { type: 'text'; text: string } | { type: 'done'; result: ChatResult };

export interface ModelCapabilities {
  supports_tools: boolean;
  supports_vision: boolean;
  supports_streaming: boolean;
}

/** Capabilities assumed when a driver cannot report them. */
export const DEFAULT_MODEL_CAPABILITIES: Readonly<ModelCapabilities> = Object.freeze({
  supports_tools: false,
  supports_vision: false,
  supports_streaming: true,
});

export interface DiscoveredModel {
  id: string;
  /** Context window when the provider reports one. */
  maxContext: number | null;
}

/** One progress frame of a local model download. */
export interface PullProgress {
  status: string;
  progress_percent: number | null;
  total_bytes: number | null;
  completed_bytes: number | null;
  error: string | null;
  done: boolean;
}

/** Texts to embed with one embedding model. */
export interface EmbedRequest {
  model: string;
  input: string[];
  /** Vector size asked of models that can shorten theirs (OpenAI `dimensions`). */
  dimensions?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** One vector per input text, in input order. */
export interface EmbedResult {
  model: string;
  vectors: number[][];
  inputTokens: number;
}

export interface LlmDriver {
  chat(request: ChatRequest): Promise<ChatResult>;
  stream(request: ChatRequest): AsyncIterable<ChatChunk>;
  listModels(signal?: AbortSignal): Promise<DiscoveredModel[]>;
  /** Capabilities of one model; null when the provider cannot tell (defaults then apply). */
  capabilities(modelId: string, signal?: AbortSignal): Promise<Partial<ModelCapabilities> | null>;
  /** Local-model management; present only on drivers whose provider supports it. */
  pullModel?(modelId: string, signal?: AbortSignal): AsyncIterable<PullProgress>;
  deleteModel?(modelId: string): Promise<void>;
  /** Embeddings; present only on drivers whose protocol has an embeddings endpoint. */
  embed?(request: EmbedRequest): Promise<EmbedResult>;
}
