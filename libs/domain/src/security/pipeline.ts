import type { AutonomyLevel } from '../company/enums';
import { requiresHumanApproval } from './autonomy';
import { argumentTexts, DETECTOR_NAMES, DETECTORS, type Detector, type DetectorName } from './detectors';
import { riskLevelOf, type RiskLevel } from './risk';
import type { ToolPermissionDecision } from './tool-access';

/** How verdicts are applied: as they are, recorded but never blocking, or not evaluated at all. */
export const SECURITY_ENFORCEMENT_MODES = ['active', 'shadow', 'disabled'] as const;
export type SecurityEnforcementMode = (typeof SECURITY_ENFORCEMENT_MODES)[number];

export const SECURITY_VERDICTS = ['allow', 'deny', 'escalate'] as const;
export type SecurityVerdict = (typeof SECURITY_VERDICTS)[number];

/** The step of the pipeline that decided. */
export const EVALUATION_STEPS = [
  'disabled',
  'argument_length',
  'tool_access',
  'hard_deny',
  'detector',
  'autonomy',
  'no_match',
  'failure',
] as const;
export type EvaluationStep = (typeof EVALUATION_STEPS)[number];

/**
 * Actions refused to every agent's tool call whatever `security.hard_deny_actions` lists: firing is a
 * person's decision (`POST /agents/{agent_name}/fire`), never an agent's (engine.md §13).
 */
export const ALWAYS_HARD_DENIED: readonly string[] = ['org:fire'];

/** The rules in force, read from the `security` settings. */
export interface SecurityPolicy {
  readonly mode: SecurityEnforcementMode;
  readonly hardDeny: readonly string[];
  readonly autoApprove: readonly string[];
  readonly detectors: Readonly<Record<DetectorName, boolean>>;
  readonly maxArgumentLength: number;
}

/** One tool call as the pipeline judges it. */
export interface SecurityEvaluationInput {
  readonly tool: string;
  readonly action: string;
  readonly arguments: Record<string, unknown>;
  readonly autonomy: AutonomyLevel;
  readonly permission: ToolPermissionDecision;
}

/** The pipeline's answer: what it found (`verdict`) and what is applied (`enforced`, ALLOW in shadow mode). */
export interface SecurityEvaluation {
  readonly verdict: SecurityVerdict;
  readonly enforced: SecurityVerdict;
  readonly risk: RiskLevel;
  readonly reason: string;
  readonly step: EvaluationStep;
  readonly mode: SecurityEnforcementMode;
  /** The detector and pattern that decided, when one did. */
  readonly finding: string | null;
}

type Decision = Omit<SecurityEvaluation, 'enforced' | 'mode'>;

/**
 * Judges one tool call in the fixed order: disabled, argument size, tool access, hard-deny list,
 * the enabled detectors, then autonomy (which may only tighten an ALLOW into an ESCALATE). The first
 * DENY or ESCALATE wins. Any exception inside is a DENY at CRITICAL: the pipeline fails closed.
 * `detectors` replaces the built-in detectors (tests inject a failing one).
 */
export function evaluateToolCall(
  input: SecurityEvaluationInput,
  policy: SecurityPolicy,
  detectors: Readonly<Record<DetectorName, Detector>> = DETECTORS,
): SecurityEvaluation {
  if (policy.mode === 'disabled') {
    const risk = riskLevelOf(input.action);
    return {
      verdict: 'allow',
      enforced: 'allow',
      risk,
      reason: 'security disabled',
      step: 'disabled',
      mode: 'disabled',
      finding: null,
    };
  }
  let decision: Decision;
  try {
    decision = decide(input, policy, detectors);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    decision = {
      verdict: 'deny',
      risk: 'critical',
      reason: `security evaluation failed: ${detail}`,
      step: 'failure',
      finding: null,
    };
  }
  const enforced = policy.mode === 'shadow' ? 'allow' : decision.verdict;
  return { ...decision, enforced, mode: policy.mode };
}

function decide(
  input: SecurityEvaluationInput,
  policy: SecurityPolicy,
  detectors: Readonly<Record<DetectorName, Detector>>,
): Decision {
  const risk = riskLevelOf(input.action);
  const texts = argumentTexts(input.arguments);
  // The text the detectors would read; counting it is cheaper than serialising the arguments.
  const size = texts.reduce((sum, text) => sum + text.value.length, 0);
  if (size > policy.maxArgumentLength) {
    const reason = `arguments of ${size} characters exceed the limit of ${policy.maxArgumentLength}`;
    return { verdict: 'deny', risk: 'high', reason, step: 'argument_length', finding: null };
  }
  if (!input.permission.granted) {
    return { verdict: 'deny', risk, reason: input.permission.reason, step: 'tool_access', finding: null };
  }
  if (policy.hardDeny.includes(input.action) || ALWAYS_HARD_DENIED.includes(input.action)) {
    const reason = policy.hardDeny.includes(input.action)
      ? `action ${input.action} is on the hard-deny list`
      : `action ${input.action} is always hard-denied: only a person may do it`;
    return { verdict: 'deny', risk: riskLevelOf(input.action), reason, step: 'hard_deny', finding: null };
  }
  // An auto-approved action still goes through the detectors: the list trusts the action, not its arguments.
  for (const name of DETECTOR_NAMES) {
    if (!policy.detectors[name]) {
      continue;
    }
    const found = detectors[name](texts);
    if (found) {
      const reason = `${found.detector} detector: ${found.pattern} in ${found.field || 'arguments'}`;
      return {
        verdict: found.verdict,
        risk: found.risk,
        reason,
        step: 'detector',
        finding: `${found.detector}:${found.pattern}`,
      };
    }
  }
  // Autonomy only tightens, the auto-approve list included: under `locked` every call goes to a person.
  if (requiresHumanApproval(input.autonomy, input.action)) {
    const reason = `autonomy ${input.autonomy} needs a person to approve ${input.action}`;
    return { verdict: 'escalate', risk, reason, step: 'autonomy', finding: null };
  }
  const reason = policy.autoApprove.includes(input.action)
    ? `action ${input.action} is auto-approved`
    : 'no rule matched';
  return { verdict: 'allow', risk, reason, step: 'no_match', finding: null };
}
