import type { ToolContext } from '@app/domain';
import { agentRow, makeServiceUnderTest } from '@app/testing';

import { AutonomyControl, type AutonomyState } from './autonomy-control';
import { OutputGuard } from './output-guard';
import { SecurityAudit } from './security-audit';
import { SecurityPolicySource } from './security-policy';

const CTX: ToolContext = { root: '/tmp/w', taskId: 'task-1', agentId: 'agent-1', agentName: 'Ada' };
const SECRET = 'the key is AKIAIOSFODNN7EXAMPLE';

function build(level: AutonomyState['level']) {
  const unit = makeServiceUnderTest(OutputGuard);
  const m = {
    sut: unit.sut,
    policies: unit.mock(SecurityPolicySource),
    autonomy: unit.mock(AutonomyControl),
    audit: unit.mock(SecurityAudit),
  };
  m.policies.mode.mockReturnValue('active');
  m.policies.scanningEnabled.mockReturnValue(true);
  m.policies.scanPolicy.mockReturnValue('autonomy_tiered');
  m.autonomy.stateOf.mockResolvedValue({ agent: agentRow({ id: 'agent-1' }), level } as AutonomyState);
  m.audit.record.mockImplementation((input) => Promise.resolve({ ...input, id: 'r', createdAt: new Date() }));
  return m;
}

describe(OutputGuard.name, () => {
  it('passes a clean output without resolving the agent autonomy or writing a record', async () => {
    const m = build('full');
    await expect(m.sut.scan('all 12 tests passed', { tool: 'run_tests' }, CTX)).resolves.toEqual({ action: 'pass' });
    await expect(
      m.sut.finalAnswers.scan('done', { taskId: 'task-1', agentId: 'agent-1', agentName: 'Ada' }),
    ).resolves.toEqual({
      action: 'pass',
    });
    expect(m.autonomy.stateOf).not.toHaveBeenCalled();
    expect(m.audit.record).not.toHaveBeenCalled();
  });

  it('applies the policy of the agent autonomy to a finding, and records it', async () => {
    const m = build('semi');
    const verdict = await m.sut.scan(SECRET, { tool: 'read_file' }, CTX);
    expect(m.autonomy.stateOf).toHaveBeenCalledWith('agent-1');
    expect(verdict.action).not.toBe('pass');
    if (verdict.action === 'redact') {
      expect(verdict.output).not.toContain('AKIAIOSFODNN7EXAMPLE');
    }
    expect(m.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'output_scan', toolName: 'read_file', finding: 'aws_access_key' }),
    );
  });
});
