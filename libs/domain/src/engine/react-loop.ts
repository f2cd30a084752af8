import type { ChatMessage, ChatResult, ToolCall, ToolDefinition } from '../providers/driver';
import type { ToolEscalation } from './tool-guards';

/** Why a run stopped (engine.md §4). `parked` is reserved for approval waits. */
export const TERMINATION_REASONS = [
  'completed',
  'max_turns',
  'budget_exhausted',
  'shutdown',
  'error',
  'parked',
] as const;
export type TerminationReason = (typeof TERMINATION_REASONS)[number];

export const DEFAULT_MAX_TURNS = 20;

export interface ToolOutcome {
  content: string;
  isError: boolean;
  /**
   * Set when a security check escalated the call to a person and the run can wait for one: the call
   * did not execute, and the run parks on it (`content` holds the refusal used otherwise).
   */
  escalation?: ToolEscalation;
}

/** The tool call a parked run waits on, and why a person must decide it. */
export interface PendingToolCall {
  call: ToolCall;
  reason: string;
  /** The security check's action type and risk level for the call, when it classified it. */
  actionType?: string;
  riskLevel?: ToolEscalation['riskLevel'];
}

/** Where a resumed run picks up: the turns and tokens its earlier part used. */
export interface ReactLoopStart {
  turns: number;
  inputTokens: number;
  outputTokens: number;
}

/** What the loop needs from the world; the runtime supplies real providers, tools and budgets. */
export interface ReactLoopPorts {
  /** One model call (one turn). Throwing ends the run with `error`. */
  call(messages: readonly ChatMessage[], tools: readonly ToolDefinition[], turn: number): Promise<ChatResult>;
  /** Runs one tool call; recoverable failures come back as `isError` outcomes, never as throws. */
  invokeTool(call: ToolCall, turn: number): Promise<ToolOutcome>;
  /** The cooperative shutdown flag, read at every turn boundary. */
  shouldStop(): boolean;
  /**
   * Checked before every model call with what the call will send (the spend control reserves its
   * estimated cost here); a reason stops the run as `budget_exhausted` before the call is made.
   */
  budgetExceeded(
    messages: readonly ChatMessage[],
    tools: readonly ToolDefinition[],
  ): Promise<string | null> | string | null;
}

export interface ReactLoopResult {
  reason: TerminationReason;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  /** The model's last text (the work summary on completion). */
  finalContent: string;
  /** The reply was cut off by the output-token limit but still counts as completed. */
  truncated: boolean;
  /** Set when reason is `error` or `budget_exhausted`: what stopped the run. */
  detail: string | null;
  error: unknown;
  messages: ChatMessage[];
  /** Set when reason is `parked`: the escalated call the run waits on (not among `messages` yet). */
  pending?: PendingToolCall;
  /** Set by the engine when a scanner withheld the final answer (`finalContent` then says so). */
  outputWithheld?: boolean;
}

/**
 * The ReAct loop: call the model; if it asks for tools, run them (in parallel), hand back the
 * results and call again; a reply without tool calls completes the task. The shutdown flag and the
 * budget are checked before every call, so a run stops only at turn boundaries.
 */
export async function runReactLoop(
  seed: readonly ChatMessage[],
  tools: readonly ToolDefinition[],
  ports: ReactLoopPorts,
  maxTurns: number = DEFAULT_MAX_TURNS,
  start: ReactLoopStart = { turns: 0, inputTokens: 0, outputTokens: 0 },
): Promise<ReactLoopResult> {
  const state = {
    messages: [...seed],
    turns: start.turns,
    inputTokens: start.inputTokens,
    outputTokens: start.outputTokens,
    finalContent: '',
    truncated: false,
  };
  const end = (reason: TerminationReason, detail: string | null = null, error: unknown = null): ReactLoopResult => ({
    reason,
    detail,
    error,
    ...state,
  });

  while (true) {
    if (ports.shouldStop()) {
      return end('shutdown');
    }
    if (state.turns >= maxTurns) {
      return end('max_turns', `stopped after ${maxTurns} turns without finishing`);
    }
    const overBudget = await ports.budgetExceeded(state.messages, tools);
    if (overBudget) {
      return end('budget_exhausted', overBudget);
    }
    state.turns += 1;
    let reply: ChatResult;
    try {
      reply = await ports.call(state.messages, tools, state.turns);
    } catch (error) {
      // A call cut short by the shutdown's abort is an interruption, not a failure of the task.
      if (ports.shouldStop()) {
        return end('shutdown');
      }
      return end('error', error instanceof Error ? error.message : String(error), error);
    }
    state.inputTokens += reply.usage.inputTokens;
    state.outputTokens += reply.usage.outputTokens;
    state.finalContent = reply.content;
    state.messages.push({
      role: 'assistant',
      content: reply.content,
      ...(reply.toolCalls.length > 0 ? { toolCalls: reply.toolCalls } : {}),
    });
    if (reply.toolCalls.length === 0) {
      if (reply.finishReason === 'tool_calls') {
        return end('error', 'the model announced tool calls but sent none');
      }
      state.truncated = reply.finishReason === 'length';
      return end('completed');
    }
    const turn = state.turns;
    const outcomes = await Promise.all(
      reply.toolCalls.map((call) =>
        // The port should not throw; if it does, the model still gets an answer for that call.
        ports.invokeTool(call, turn).catch((error: unknown): ToolOutcome => ({
          content: `tool failed: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
        })),
      ),
    );
    // The first escalated call parks the run; the results of the others are kept with it.
    const parkedAt = outcomes.findIndex((outcome) => outcome.escalation !== undefined);
    reply.toolCalls.forEach((call, index) => {
      if (index === parkedAt) {
        return;
      }
      const outcome = outcomes[index];
      state.messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: outcome.content,
        ...(outcome.isError ? { isError: true } : {}),
      });
    });
    if (parkedAt >= 0) {
      const { reason = '', actionType, riskLevel } = outcomes[parkedAt].escalation ?? {};
      return {
        ...end('parked', `waiting for approval: ${reason}`),
        pending: {
          call: reply.toolCalls[parkedAt],
          reason,
          ...(actionType !== undefined ? { actionType } : {}),
          ...(riskLevel !== undefined ? { riskLevel } : {}),
        },
      };
    }
  }
}
