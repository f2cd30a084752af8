import type { RiskLevel } from '../security/risk';
import type { ToolSecurityProfile } from '../security/tool-access';
import type { ToolContext } from './tools';

/** A tool call as a security check judges it: the tool and its validated arguments. */
export interface ToolCallInfo {
  tool: string;
  arguments: Record<string, unknown>;
  /** The tool's own security profile when it declares one (runtime tools); else the table's by name. */
  profile?: ToolSecurityProfile;
}

/**
 * A security check's decision on one tool call: run it, refuse it, or hand it to a person. An
 * escalated call parks the run on an approval item when an approval gate is registered with the
 * engine; without one it is refused (fail closed) and the agent is told why.
 */
export type ToolSecurityVerdict =
  { decision: 'allow' } | { decision: 'deny'; reason: string } | ({ decision: 'escalate' } & ToolEscalation);

/**
 * Why a call goes to a person, and, when the check classified it, the call's action type and risk
 * level: the approval item filed for it carries them.
 */
export interface ToolEscalation {
  reason: string;
  actionType?: string;
  riskLevel?: RiskLevel;
}

/**
 * Runs before each tool call, in registration order; the first refusal wins. A check that throws
 * refuses the call: a broken policy must not silently let everything through.
 */
export interface ToolSecurityCheck {
  readonly name: string;
  check(call: ToolCallInfo, ctx: ToolContext): Promise<ToolSecurityVerdict>;
}

/**
 * Sees each tool call the security checks let through, while the tool runs: bookkeeping that never
 * refuses a call (the risk budget's records). The invoker waits for every observer before it answers
 * the call's result, so what they write is in before the run takes its next step. An observer handles
 * its own failures; one that throws anyway is ignored.
 */
export interface ToolCallObserver {
  readonly name: string;
  observe(call: ToolCallInfo, ctx: ToolContext): Promise<void>;
}

/**
 * An output scanner's decision on one tool result: pass it on, pass on a redacted text, or withhold
 * it from the model.
 */
export type ToolOutputVerdict =
  { action: 'pass' } | { action: 'redact'; output: string } | { action: 'block'; reason: string };

/**
 * Runs on each tool result (error texts too: they can quote file contents), in registration order,
 * each seeing the previous one's redaction. A scanner that throws withholds the output (fail closed).
 */
export interface ToolOutputScanner {
  readonly name: string;
  scan(
    output: string,
    call: { tool: string; profile?: ToolSecurityProfile },
    ctx: ToolContext,
  ): Promise<ToolOutputVerdict>;
}

/** Who produced a run's text, and which: the final answer or an earlier turn's text. */
export interface RunOutputContext {
  taskId: string;
  agentId: string;
  agentName: string;
  part?: 'final_answer' | 'earlier_turn';
}

/**
 * Runs on the agent's final answer when its run ends, before the answer is stored anywhere (the task
 * result, a parked run's conversation, the logs), and on the texts of its earlier turns that a parked
 * conversation keeps, in registration order, each seeing the previous one's
 * redaction. A block replaces the answer with its reason; a scanner that throws withholds it (fail closed).
 */
export interface RunOutputScanner {
  readonly name: string;
  scan(output: string, ctx: RunOutputContext): Promise<ToolOutputVerdict>;
}

/** The agent a tool offer is made to: its id and its stored settings (where `tools` lives). */
export interface ToolOfferAgent {
  readonly id: string;
  readonly settings: Record<string, unknown>;
  readonly name?: string;
  readonly department?: string | null;
}

/**
 * Narrows the tools offered to the model for a run (in registration order): the model never sees a
 * tool the filter drops. Enforcement at call time stays with the security checks.
 */
export interface ToolOfferFilter {
  readonly name: string;
  offer(tools: readonly string[], agent: ToolOfferAgent): readonly string[];
}
