/** Protocol-neutral chat logic: reading prompts, estimating tokens and choosing the reply. */
import type { MockState } from './state';
import type { ErrorReply, HangReply, MockErrorStatus, MockToolCall } from './types';

/** The longest slice of the last user message echoed by the default reply. */
const ECHO_CHARS = 200;

/** A chat answer with its usage, ready for any protocol to render. */
export type ChatAnswer =
  | { kind: 'text'; text: string; inputTokens: number; outputTokens: number }
  | { kind: 'tool_calls'; calls: MockToolCall[]; inputTokens: number; outputTokens: number };

/** What a chat request gets: an answer, a scripted/triggered failure, or "no such model". */
export type ChatOutcome = ChatAnswer | ErrorReply | HangReply | { kind: 'unknown_model'; model: string };

/** A chat request reduced to what the mock needs. */
export interface ChatPrompt {
  model: string;
  /** All prompt text (system and every message), concatenated. */
  allText: string;
  /** Text of the last user message. */
  lastUserText: string;
}

/** Default messages of scripted errors that carry none. */
export const DEFAULT_ERROR_MESSAGES: Record<MockErrorStatus, string> = {
  400: 'Bad request (mock)',
  401: 'Invalid API key (mock)',
  429: 'Rate limit exceeded (mock)',
  500: 'Internal server error (mock)',
  503: 'Service overloaded (mock)',
};

/** Model names that fail or hang without any script (for out-of-process use). */
const TRIGGERS: Record<string, ErrorReply | HangReply> = {
  'mock-error-429': { kind: 'error', status: 429, message: 'Rate limit exceeded (mock-error-429)' },
  'mock-error-500': { kind: 'error', status: 500, message: 'Internal server error (mock-error-500)' },
  'mock-hang': { kind: 'hang' },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The readable text inside a message content of any protocol (strings, parts, blocks, tool results). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map(textOf).join('');
  }
  if (!isRecord(value)) {
    return '';
  }
  if (typeof value.text === 'string') {
    return value.text;
  }
  return textOf(value.content);
}

/** Reads a request body's `messages` (and an optional separate system prompt) into a prompt. */
export function readPrompt(body: unknown, system?: unknown): ChatPrompt {
  const record = isRecord(body) ? body : {};
  const messages = Array.isArray(record.messages) ? record.messages.filter(isRecord) : [];
  const texts = messages.map((message) => textOf(message.content));
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  return {
    model: typeof record.model === 'string' ? record.model : '',
    allText: textOf(system) + texts.join(''),
    lastUserText: lastUser === undefined ? '' : textOf(lastUser.content),
  };
}

/** Token estimate: ceil(characters / 4), at least 1. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil([...text].length / 4));
}

/** Decides the answer of a chat request: trigger model, then script, then model check, then echo. */
export function resolveChat(state: MockState, prompt: ChatPrompt): ChatOutcome {
  const trigger = TRIGGERS[prompt.model];
  if (trigger !== undefined) {
    return trigger;
  }
  const inputTokens = estimateTokens(prompt.allText);
  const scripted = state.take('chat');
  if (scripted === undefined && state.findModel(prompt.model) === undefined) {
    return { kind: 'unknown_model', model: prompt.model };
  }
  const reply = scripted ?? { kind: 'text', text: `ack: ${[...prompt.lastUserText].slice(0, ECHO_CHARS).join('')}` };
  switch (reply.kind) {
    case 'text':
      return {
        kind: 'text',
        text: reply.text,
        inputTokens: reply.inputTokens ?? inputTokens,
        outputTokens: reply.outputTokens ?? estimateTokens(reply.text),
      };
    case 'tool_calls':
      return {
        kind: 'tool_calls',
        calls: reply.calls,
        inputTokens,
        outputTokens: estimateTokens(reply.calls.map((call) => call.name + JSON.stringify(call.arguments)).join('')),
      };
    case 'error':
    case 'hang':
      return reply;
  }
}

/** Splits text into at most `pieces` non-empty slices (by code point) for streaming deltas. */
export function splitPieces(text: string, pieces = 3): string[] {
  const chars = [...text];
  if (chars.length === 0) {
    return [];
  }
  const size = Math.ceil(chars.length / pieces);
  const out: string[] = [];
  for (let start = 0; start < chars.length; start += size) {
    out.push(chars.slice(start, start + size).join(''));
  }
  return out;
}

/** The message of an error reply, defaulted by status. */
export function errorMessage(reply: ErrorReply): string {
  return reply.message ?? DEFAULT_ERROR_MESSAGES[reply.status];
}

/** Headers a 429 carries on every protocol (`retry-after`, whole seconds). */
export function retryAfterHeaders(reply: ErrorReply): Record<string, string> {
  return reply.status === 429 ? { 'retry-after': String(reply.retryAfterSeconds ?? 1) } : {};
}
