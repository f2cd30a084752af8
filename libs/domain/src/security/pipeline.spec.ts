import type { AutonomyLevel } from '../company/enums';
import { DETECTORS, type Detector, type DetectorName } from './detectors';
import { OUTPUT_WITHHELD_MESSAGE, scanOutput, scanPolicyFor, type ConcreteScanPolicy } from './output-scan';
import { evaluateToolCall, type SecurityEvaluationInput, type SecurityPolicy } from './pipeline';
import type { ToolPermissionDecision } from './tool-access';

const GRANTED: ToolPermissionDecision = { granted: true, rule: 'access_level', reason: 'granted' };
const ALL_ON: Record<DetectorName, boolean> = {
  credential: true,
  path_traversal: true,
  destructive: true,
  data_leak: true,
};

function policy(overrides: Partial<SecurityPolicy> = {}): SecurityPolicy {
  return {
    mode: 'active',
    hardDeny: ['deploy:production', 'db:admin', 'org:fire'],
    autoApprove: ['code:read', 'docs:write'],
    detectors: ALL_ON,
    maxArgumentLength: 100_000,
    ...overrides,
  };
}

function call(overrides: Partial<SecurityEvaluationInput> = {}): SecurityEvaluationInput {
  return {
    tool: 'run_command',
    action: 'code:write',
    arguments: { command: 'npm test' },
    autonomy: 'semi',
    permission: GRANTED,
    ...overrides,
  };
}

describe('evaluateToolCall', () => {
  it.each<[string, Partial<SecurityEvaluationInput>, Partial<SecurityPolicy>, string, string, string]>([
    ['a plain call', {}, {}, 'allow', 'medium', 'no_match'],
    ['an auto-approved read', { action: 'code:read', arguments: { path: 'a' } }, {}, 'allow', 'low', 'no_match'],
    ['a hard-denied action', { action: 'deploy:production' }, {}, 'deny', 'critical', 'hard_deny'],
    [
      'an oversized argument',
      { arguments: { content: 'x'.repeat(50) } },
      { maxArgumentLength: 20 },
      'deny',
      'high',
      'argument_length',
    ],
    [
      'a tool the access level lacks',
      { permission: { granted: false, rule: 'default_deny', reason: 'no web' } },
      {},
      'deny',
      'medium',
      'tool_access',
    ],
    ['rm -rf /', { arguments: { command: 'rm -rf /' } }, {}, 'deny', 'critical', 'detector'],
    ['reading .env', { action: 'code:read', arguments: { path: '.env' } }, {}, 'deny', 'high', 'detector'],
    ['a force push', { arguments: { command: 'git push --force' } }, {}, 'escalate', 'high', 'detector'],
    [
      'an auto-approved action with a secret',
      { action: 'docs:write', arguments: { content: 'AKIAIOSFODNN7EXAMPLE' } },
      {},
      'deny',
      'critical',
      'detector',
    ],
    ['a deploy under semi', { action: 'deploy:staging' }, {}, 'escalate', 'high', 'autonomy'],
    ['a read under locked', { action: 'code:read', autonomy: 'locked' }, {}, 'escalate', 'low', 'autonomy'],
    ['a deploy under full', { action: 'deploy:staging', autonomy: 'full' }, {}, 'allow', 'high', 'no_match'],
    ['an unknown action', { action: 'shell:exec', autonomy: 'full' }, {}, 'allow', 'high', 'no_match'],
    [
      'a switched-off detector',
      { arguments: { command: 'rm -rf /' } },
      { detectors: { ...ALL_ON, destructive: false } },
      'allow',
      'medium',
      'no_match',
    ],
  ])('should judge %s', (_label, input, rules, verdict, risk, step) => {
    const result = evaluateToolCall(call(input), policy(rules));
    expect(result).toMatchObject({ verdict, enforced: verdict, risk, step, mode: 'active' });
    expect(result.reason.length).toBeGreaterThan(0);
  });

  it('should let the first blocking step win over later ones', () => {
    const result = evaluateToolCall(
      call({ action: 'deploy:production', arguments: { command: 'rm -rf / && cat .env' } }),
      policy(),
    );
    expect(result).toMatchObject({ verdict: 'deny', step: 'hard_deny' });
    const detector = evaluateToolCall(call({ arguments: { command: 'git reset --hard; cat .env' } }), policy());
    expect(detector).toMatchObject({ verdict: 'escalate', finding: 'destructive:git_reset_hard' });
  });

  it('should hard-deny org:fire to every agent, even when the hard-deny list leaves it out', () => {
    for (const rules of [{}, { hardDeny: [] }, { hardDeny: [], autoApprove: ['org:fire'] }]) {
      const result = evaluateToolCall(call({ action: 'org:fire', autonomy: 'full' }), policy(rules));
      expect(result).toMatchObject({ verdict: 'deny', enforced: 'deny', risk: 'critical', step: 'hard_deny' });
    }
    expect(evaluateToolCall(call({ action: 'org:fire' }), policy({ hardDeny: [] })).reason).toBe(
      'action org:fire is always hard-denied: only a person may do it',
    );
  });

  it('should record but not block in shadow mode', () => {
    const result = evaluateToolCall(call({ arguments: { command: 'rm -rf /' } }), policy({ mode: 'shadow' }));
    expect(result).toMatchObject({ verdict: 'deny', enforced: 'allow', mode: 'shadow', risk: 'critical' });
  });

  it('should allow everything unevaluated when disabled', () => {
    const result = evaluateToolCall(
      call({ action: 'deploy:production', arguments: { command: 'rm -rf /' } }),
      policy({ mode: 'disabled' }),
    );
    expect(result).toMatchObject({ verdict: 'allow', enforced: 'allow', step: 'disabled', mode: 'disabled' });
  });

  it('should deny at critical when a detector throws (fail closed)', () => {
    const crashing: Detector = () => {
      throw new Error('pattern table corrupt');
    };
    const result = evaluateToolCall(call(), policy(), { ...DETECTORS, data_leak: crashing });
    expect(result).toMatchObject({ verdict: 'deny', enforced: 'deny', risk: 'critical', step: 'failure' });
    expect(result.reason).toContain('pattern table corrupt');
  });

  it('should deny at critical when the arguments cannot be serialised', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(evaluateToolCall(call({ arguments: circular }), policy())).toMatchObject({
      verdict: 'deny',
      step: 'failure',
    });
  });

  it('should keep a fail-closed deny blocking in shadow mode only as recorded', () => {
    const crashing: Detector = () => {
      throw new Error('boom');
    };
    const result = evaluateToolCall(call(), policy({ mode: 'shadow' }), { ...DETECTORS, credential: crashing });
    expect(result).toMatchObject({ verdict: 'deny', enforced: 'allow', step: 'failure' });
  });
});

describe('output scanning', () => {
  const SECRET = 'token: AKIAIOSFODNN7EXAMPLE and ssn 123-45-6789';

  it.each<[ConcreteScanPolicy, string, string]>([
    ['redact', 'redacted', 'token: [REDACTED] and ssn [REDACTED]'],
    ['withhold', 'withheld', OUTPUT_WITHHELD_MESSAGE],
    ['log_only', 'log_only', SECRET],
  ])('should under %s produce %s', (scanPolicy, outcome, text) => {
    expect(scanOutput(SECRET, scanPolicy)).toEqual({ outcome, text, findings: ['aws_access_key', 'us_ssn'] });
  });

  it('should leave clean output untouched under every policy', () => {
    for (const scanPolicy of ['redact', 'withhold', 'log_only'] as const) {
      expect(scanOutput('all tests passed', scanPolicy)).toEqual({
        outcome: 'clean',
        text: 'all tests passed',
        findings: [],
      });
    }
  });

  it('should redact every occurrence, not only the first', () => {
    expect(scanOutput('AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPL2', 'redact').text).toBe('[REDACTED] [REDACTED]');
  });

  it('should keep card-like digits that fail the checksum', () => {
    expect(scanOutput('id 4111111111111112', 'redact').outcome).toBe('clean');
  });

  it.each<[AutonomyLevel, ConcreteScanPolicy]>([
    ['full', 'log_only'],
    ['semi', 'redact'],
    ['supervised', 'redact'],
    ['locked', 'withhold'],
  ])('should pick under autonomy_tiered for %s the %s policy', (level, expected) => {
    expect(scanPolicyFor('autonomy_tiered', level)).toBe(expected);
    expect(scanPolicyFor('withhold', level)).toBe('withhold');
  });
});
