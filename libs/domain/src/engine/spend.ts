import type { ChatMessage, ToolDefinition } from '../providers/driver';
import type { PreflightAgent, PreflightTask } from './preflight';
import { costOfCall } from './run-metrics';

/** Call categories of a cost record (spec "Cost record"). */
export const CALL_CATEGORIES = ['productive', 'coordination', 'system', 'embedding'] as const;
export type CallCategory = (typeof CALL_CATEGORIES)[number];

/** One model call's cost as the engine hands it over to be written. */
export interface CostEntry {
  readonly id: string;
  readonly agentId: string;
  readonly taskId: string | null;
  readonly provider: string;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly callCategory: CallCategory;
  readonly timestamp: Date;
}

/** A model call about to start: who makes it and an upper estimate of what it will cost. */
export interface SpendRequest {
  readonly task: PreflightTask;
  readonly agent: PreflightAgent;
  readonly provider: string;
  readonly model: string;
  readonly estimatedCost: number;
}

/**
 * Go ahead (holding a reservation to settle or release), or refuse with a 6xxx code and the limit
 * that refused (`task`, `monthly`, `department`, `agent_daily`, ...), when known.
 */
export type SpendVerdict =
  { ok: true; reservationId: string | null } | { ok: false; reason: string; code: number; limit?: string };

/**
 * How runs spend, plugged into the engine by the budget module: before every model call the call's
 * estimated cost is reserved against the limits (or refused); afterwards its cost record is written,
 * settling the reservation in the same transaction; a call that failed without usage releases it.
 */
export interface SpendControl {
  reserve(request: SpendRequest): Promise<SpendVerdict>;
  record(entry: CostEntry, reservationId: string | null): Promise<void>;
  release(reservationId: string): Promise<void>;
  /**
   * Settles every open reservation of a run owner found dead (recovery): each call it guarded is
   * charged at its estimate, once. Answers how many it settled.
   */
  settleAbandoned(owner: string): Promise<number>;
  /** Whether the call would be let through now, without reserving anything (a held run's re-check). */
  check(request: SpendRequest): Promise<SpendVerdict>;
}

/** Output tokens a call is assumed to produce when the agent sets no `max_tokens`. */
export const CALL_OUTPUT_ESTIMATE_TOKENS = 1024;

/** Characters per token the estimate assumes: fewer than the usual four, so it errs high. */
const CHARS_PER_TOKEN = 3;
/** Tokens a provider adds per message for roles and framing. */
const MESSAGE_OVERHEAD_TOKENS = 8;

/** An upper estimate of a call's input tokens from its messages and tool definitions. */
export function estimateInputTokens(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): number {
  let chars = tools.length > 0 ? JSON.stringify(tools).length : 0;
  for (const message of messages) {
    chars += message.content.length;
    if (message.role === 'assistant' && message.toolCalls) {
      chars += JSON.stringify(message.toolCalls).length;
    }
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + messages.length * MESSAGE_OVERHEAD_TOKENS;
}

/**
 * A call's input tokens known from the conversation's previous call: the provider reported what that
 * call read and wrote, and every message since it (tool results, say) is estimated. `previous` is
 * null before the first call, or when the conversation is not the one that call extended.
 */
export function calibratedInputTokens(
  previous: { inputTokens: number; outputTokens: number; messages: number } | null,
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[],
): number {
  if (previous === null || previous.messages >= messages.length || previous.inputTokens <= 0) {
    return estimateInputTokens(messages, tools);
  }
  // The previous call's messages, then its answer (its output), then what came after.
  const added = messages.slice(previous.messages + 1);
  return previous.inputTokens + previous.outputTokens + (added.length > 0 ? estimateInputTokens(added, []) : 0);
}

/** The estimated cost of a call: its input estimate, and `maxOutputTokens` (or the default) out. */
export function estimateCallCost(
  prices: { costPer1kInput: number; costPer1kOutput: number } | undefined,
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[],
  maxOutputTokens: number | undefined,
  inputTokens: number = estimateInputTokens(messages, tools),
): number {
  const output = maxOutputTokens !== undefined && maxOutputTokens > 0 ? maxOutputTokens : CALL_OUTPUT_ESTIMATE_TOKENS;
  return costOfCall(prices, inputTokens, output);
}
