import { defineSettings, ErrorCode, parseChain, parseTiers, ValidationError } from '@app/domain';

/** A JSON policy setting's own rule: its parsed shape, refused with 2055 naming the key. */
function policyShape(key: string, parse: (value: unknown) => unknown): (text: string) => void {
  return (text) => {
    try {
      parse(JSON.parse(text));
    } catch (error) {
      throw new ValidationError(`security.${key}: ${(error as Error).message}`, ErrorCode.ApprovalPolicyInvalid);
    }
  };
}

/** The approval timeout and resume settings (the `security` namespace, spec "Approval timeout policies"). */
export const APPROVAL_SETTINGS = defineSettings('security', [
  {
    key: 'approval_timeout_policy',
    type: 'enum',
    default: 'wait',
    description: 'What happens to an approval nobody decides: wait, deny, tiered or escalation',
    group: 'Approvals',
    enumValues: ['wait', 'deny', 'tiered', 'escalation'],
  },
  {
    key: 'approval_timeout_minutes',
    type: 'float',
    default: '240',
    description: 'Minutes until the deny policy denies an undecided approval',
    group: 'Approvals',
    min: 0.01,
    max: 525600,
  },
  {
    key: 'approval_tiers',
    type: 'json',
    default: JSON.stringify({
      low: { timeout_minutes: 60, on_timeout: 'approve', actions: [] },
      medium: { timeout_minutes: 240, on_timeout: 'deny', actions: [] },
      high: { timeout_minutes: null, on_timeout: 'deny', actions: [] },
      critical: { timeout_minutes: null, on_timeout: 'deny', actions: [] },
    }),
    description: 'Tiered policy: per risk level {timeout_minutes (null waits), on_timeout, actions}',
    group: 'Approvals',
    level: 'advanced',
    validate: policyShape('approval_tiers', parseTiers),
  },
  {
    key: 'approval_escalation_chain',
    type: 'json',
    default: JSON.stringify([
      { role: 'manager', timeout_minutes: 60 },
      { role: 'ceo', timeout_minutes: 240 },
    ]),
    description: 'Escalation policy: [{role, timeout_minutes}]; denied when the chain is exhausted',
    group: 'Approvals',
    level: 'advanced',
    validate: policyShape('approval_escalation_chain', parseChain),
  },
  {
    key: 'approval_rejection',
    type: 'enum',
    default: 'continue',
    description: 'A refused tool call: the agent reads the refusal and goes on (continue), or the run ends (end_run)',
    group: 'Approvals',
    enumValues: ['continue', 'end_run'],
  },
  {
    key: 'approval_check_seconds',
    type: 'float',
    default: '15',
    description: 'Seconds between two evaluations of the approval timeouts',
    group: 'Approvals',
    level: 'advanced',
    min: 0.1,
    max: 3600,
  },
]);
