import type { SecurityPolicy, ToolContext } from '@app/domain';
import { agentRow, makeServiceUnderTest } from '@app/testing';

import { SettingsSnapshot } from '../settings';
import { AutonomyControl, type AutonomyState } from './autonomy-control';
import { SecurityAudit } from './security-audit';
import { SecurityPolicySource } from './security-policy';
import { SecurityRepository } from './security.repository';
import { ToolCallGuard } from './tool-call-guard';

const CTX: ToolContext = { root: '/tmp/w', taskId: 'task-1', agentId: 'agent-1', agentName: 'Ada' };
const POLICY: SecurityPolicy = {
  mode: 'active',
  hardDeny: ['deploy:production'],
  autoApprove: ['code:read'],
  detectors: { credential: true, path_traversal: true, destructive: true, data_leak: true },
  maxArgumentLength: 100_000,
};

function build(policy: SecurityPolicy = POLICY, settings: Record<string, unknown> = {}) {
  const unit = makeServiceUnderTest(ToolCallGuard);
  const m = {
    sut: unit.sut,
    policies: unit.mock(SecurityPolicySource),
    autonomy: unit.mock(AutonomyControl),
    audit: unit.mock(SecurityAudit),
    repository: unit.mock(SecurityRepository),
    settings: unit.mock(SettingsSnapshot),
  };
  m.policies.policy.mockReturnValue(policy);
  m.policies.auditEnabled.mockReturnValue(true);
  const agent = agentRow({ id: 'agent-1' });
  m.autonomy.stateOf.mockResolvedValue({ agent, level: 'semi' } as AutonomyState);
  m.audit.record.mockImplementation((input) => Promise.resolve({ ...input, id: 'r', createdAt: new Date() }));
  const values: Record<string, unknown> = { incident_denial_threshold: 5, incident_window_minutes: 60, ...settings };
  m.settings.value.mockImplementation(((_ns: string, key: string) => values[key]) as never);
  return m;
}

describe(ToolCallGuard.name, () => {
  it('should allow a clean call and record it', async () => {
    const m = build();
    await expect(m.sut.check({ tool: 'read_file', arguments: { path: 'src/a.ts' } }, CTX)).resolves.toEqual({
      decision: 'allow',
    });
    expect(m.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'tool_call', toolName: 'read_file', actionType: 'code:read', verdict: 'allow' }),
    );
  });

  it('should deny a destructive command, say why, and count it towards an incident', async () => {
    const m = build();
    m.repository.countDenials.mockResolvedValue(1);
    const verdict = await m.sut.check({ tool: 'run_command', arguments: { command: 'rm -rf /' } }, CTX);
    expect(verdict).toEqual({
      decision: 'deny',
      reason: 'destructive detector: rm_recursive_force in command (risk critical)',
    });
    expect(m.autonomy.downgrade).not.toHaveBeenCalled();
  });

  it('should lock the agent when the refusals reach the threshold', async () => {
    const m = build(POLICY, { incident_denial_threshold: 2 });
    m.repository.countDenials.mockResolvedValue(2);
    m.autonomy.downgrade.mockResolvedValue({ level: 'locked' } as AutonomyState);
    await m.sut.check({ tool: 'read_file', arguments: { path: '.env' } }, CTX);
    expect(m.autonomy.downgrade).toHaveBeenCalledWith(
      'agent-1',
      'security_incident',
      expect.stringContaining('2 refused'),
    );
  });

  it('should name code 1007 when the access level lacks the tool', async () => {
    const m = build();
    m.repository.countDenials.mockResolvedValue(1);
    const verdict = await m.sut.check({ tool: 'deploy_app', arguments: {} }, CTX);
    expect(verdict).toMatchObject({ decision: 'deny' });
    expect((verdict as { reason: string }).reason).toContain('[1007]');
    expect(m.audit.record).toHaveBeenCalledWith(expect.objectContaining({ errorCode: 1007, finding: 'tool_access' }));
  });

  it('should escalate a call the autonomy level sends to a person', async () => {
    const m = build();
    m.autonomy.stateOf.mockResolvedValue({ agent: agentRow({ id: 'agent-1' }), level: 'locked' } as AutonomyState);
    await expect(m.sut.check({ tool: 'list_files', arguments: { path: '.' } }, CTX)).resolves.toMatchObject({
      decision: 'escalate',
      actionType: 'code:read',
      riskLevel: 'low',
    });
  });

  it('should hard-deny a tool call that would fire an agent, even to an elevated agent at full autonomy', async () => {
    const m = build({ ...POLICY, hardDeny: [] });
    m.repository.countDenials.mockResolvedValue(1);
    const elevated = agentRow({
      id: 'agent-1',
      settings: { tools: { access_level: 'elevated', allowed: [], denied: [] } },
    });
    m.autonomy.stateOf.mockResolvedValue({ agent: elevated, level: 'full' } as AutonomyState);
    const verdict = await m.sut.check({ tool: 'fire_agent', arguments: { agent_name: 'Bob' } }, CTX);
    expect(verdict).toEqual({
      decision: 'deny',
      reason: 'action org:fire is always hard-denied: only a person may do it (risk critical)',
    });
    expect(m.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ actionType: 'org:fire', verdict: 'deny', enforced: 'deny', finding: 'hard_deny' }),
    );
  });

  it('should allow but record the deny in shadow mode', async () => {
    const m = build({ ...POLICY, mode: 'shadow' });
    await expect(m.sut.check({ tool: 'run_command', arguments: { command: 'rm -rf /' } }, CTX)).resolves.toEqual({
      decision: 'allow',
    });
    expect(m.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ verdict: 'deny', enforced: 'allow', mode: 'shadow' }),
    );
    expect(m.repository.countDenials).not.toHaveBeenCalled();
  });

  it.each([
    [
      'the policy cannot be read',
      (m: ReturnType<typeof build>) =>
        m.policies.policy.mockImplementation(() => {
          throw new TypeError('security.hard_deny_actions is not a list');
        }),
    ],
    [
      'the record cannot be written',
      (m: ReturnType<typeof build>) => m.audit.record.mockRejectedValue(new Error('disk full')),
    ],
    [
      'the agent cannot be resolved',
      (m: ReturnType<typeof build>) => m.autonomy.stateOf.mockRejectedValue(new Error('gone')),
    ],
  ])('should throw (so the engine refuses the call) when %s', async (_label, breakIt) => {
    const m = build();
    breakIt(m);
    await expect(m.sut.check({ tool: 'read_file', arguments: { path: 'a' } }, CTX)).rejects.toThrow();
  });
});
