/** Public types of the fake model provider (see `startMockLlm`). */

/**
 * Which family of request a scripted reply answers: 'chat' (/v1/chat/completions, /anthropic/v1/messages,
 * /api/chat), 'models' (/v1/models, /anthropic/v1/models, /api/tags), 'pull' (/api/pull) or
 * 'embeddings' (/v1/embeddings, /api/embed). Only 'error' and 'hang' change a 'models', 'pull' or
 * 'embeddings' answer; other kinds are consumed and the normal answer is sent.
 */
export type MockRoute = 'chat' | 'models' | 'pull' | 'embeddings';

/** HTTP statuses a scripted error may answer with. */
export type MockErrorStatus = 429 | 400 | 401 | 500 | 503;

/** One tool call a scripted reply asks the model to make. */
export interface MockToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A plain assistant text answer; token counts default to the ceil(chars / 4) estimate. */
export interface TextReply {
  kind: 'text';
  text: string;
  inputTokens?: number;
  outputTokens?: number;
}

/** An assistant turn that only calls tools. */
export interface ToolCallsReply {
  kind: 'tool_calls';
  calls: MockToolCall[];
}

/** An HTTP error in the protocol's own error shape; 429 also sets the retry headers. */
export interface ErrorReply {
  kind: 'error';
  status: MockErrorStatus;
  message?: string;
  retryAfterSeconds?: number;
}

/** Never answers: only the client's timeout/abort (or `close()`) ends the request. */
export interface HangReply {
  kind: 'hang';
}

/** The body of a scripted reply, without its route. */
export type ReplyBody = TextReply | ToolCallsReply | ErrorReply | HangReply;

/**
 * A reply consumed FIFO by the next request of its route, whatever its protocol. With `delayMs`, the
 * request is recorded at once and answered that long after it arrived: a slow model, for tests that
 * act while a call is in flight.
 */
export type ScriptedReply = { route?: MockRoute; delayMs?: number } & ReplyBody;

/** One request the server received (control routes excluded). */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body parsed as JSON, or null when empty or not JSON. */
  body: unknown;
}

export interface MockLlmOptions {
  /** Interface to bind; '127.0.0.1' by default. */
  host?: string;
  /** Port to bind; 0 (ephemeral) by default. */
  port?: number;
  /** Models served initially; ['mock-small', 'mock-medium', 'mock-large'] by default. */
  models?: string[];
  /**
   * When set, OpenAI routes require `Authorization: Bearer <key>` and Anthropic routes `x-api-key: <key>`
   * (or `Authorization: Bearer <key>`, which @anthropic-ai/sdk 1.x sends); Ollama routes stay open.
   */
  apiKey?: string | null;
  /** Progress frames of an Ollama pull; 5 by default. */
  pullSteps?: number;
  /** Delay between two pull progress frames; 10 ms by default. */
  pullStepDelayMs?: number;
}

/** A running fake provider. */
export interface MockLlm {
  /** Root URL, e.g. 'http://127.0.0.1:43123' (Ollama base; OpenAI at `${url}/v1`, Anthropic at `${url}/anthropic`). */
  url: string;
  port: number;
  /** The models currently served (pull adds, delete removes). */
  models(): string[];
  enqueue(...replies: ScriptedReply[]): void;
  /** Drops scripted replies and recorded requests, and restores the initial models. */
  reset(): void;
  /** Every request received so far, oldest first (the same array across `reset()`). */
  requests: RecordedRequest[];
  /** Stops listening and destroys open sockets, hanging requests included. */
  close(): Promise<void>;
}
