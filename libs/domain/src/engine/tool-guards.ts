import type { RiskLevel } from '../security/risk';
import type { ToolContext } from './tools';

/** A tool call as a security check judges it: the tool and its validated arguments. */
export interface ToolCallInfo {
  tool: string;
  arguments: Record<string, unknown>;
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
  scan(output: string, call: { tool: string }, ctx: ToolContext): Promise<ToolOutputVerdict>;
}
