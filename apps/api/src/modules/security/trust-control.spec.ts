import type { AgentTrustEntity, TaskMetricEntity } from '@app/persistence';
import { agentRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster } from '../agents';
import { ApprovalsService } from '../approvals';
import { RunLedger } from '../run-ledger';
import { SettingsSnapshot } from '../settings';
import { SecurityAudit } from './security-audit';
import { SecurityRepository } from './security.repository';
import { TrustControl } from './trust-control';

const NOW = new Date('2026-06-01T00:00:00Z');

function build(strategy = 'weighted') {
  const unit = makeServiceUnderTest(TrustControl);
  const m = {
    sut: unit.sut,
    agents: unit.mock(AgentRoster),
    approvals: unit.mock(ApprovalsService),
    ledger: unit.mock(RunLedger),
    settings: unit.mock(SettingsSnapshot),
    repository: unit.mock(SecurityRepository),
    audit: unit.mock(SecurityAudit),
  };
  const values: Record<string, unknown> = { trust_strategy: strategy, trust_reverification_enabled: false };
  m.settings.value.mockImplementation(((_ns: string, key: string) => values[key]) as never);
  m.audit.record.mockImplementation((input) => Promise.resolve({ ...input, id: 'r', createdAt: NOW }));
  m.repository.findTrust.mockResolvedValue(null);
  m.repository.saveTrust.mockResolvedValue(undefined);
  m.agents.edit.mockImplementation((agent, changes) => Promise.resolve({ ...agent, ...changes }));
  return m;
}

function metric(i: number, over: Partial<TaskMetricEntity> = {}): TaskMetricEntity {
  return {
    id: `m${i}`,
    agentId: 'agent-1',
    taskId: `task-${i}`,
    taskType: 'development',
    startedAt: null,
    completedAt: new Date(NOW.getTime() - (i + 1) * 3_600_000),
    isSuccess: true,
    durationSeconds: 1,
    costUsd: 0.01,
    turnsUsed: 1,
    tokensUsed: 10,
    qualityScore: null,
    collaborationScore: null,
    complexity: 'complex',
    ...over,
  };
}

const pending = (over: Partial<AgentTrustEntity> = {}): AgentTrustEntity => ({
  agentId: 'agent-1',
  strategy: 'weighted',
  level: 'standard',
  score: 0.9,
  pendingLevel: 'elevated',
  pendingApprovalId: 'approval-1',
  runsAtLastChange: 0,
  lastChangedAt: null,
  lastVerifiedAt: NOW,
  evaluatedAt: NOW,
  ...over,
});

describe(TrustControl.name, () => {
  it('should file an approval item, not promote, when the score earns elevated', async () => {
    const m = build();
    const agent = agentRow({ id: 'agent-1' });
    m.ledger.runSummariesSince.mockResolvedValue([0, 1, 2, 3, 4].map((i) => metric(i)));
    m.repository.claimPending.mockResolvedValue(true);
    m.approvals.fileRequest.mockResolvedValue({ id: 'approval-9' } as never);

    const decision = await m.sut.evaluate(agent, NOW);

    expect(decision).toMatchObject({ kind: 'promote', promotion: { to: 'elevated', requiresHumanApproval: true } });
    const claimed = m.repository.claimPending.mock.calls[0];
    expect(claimed?.slice(0, 2)).toEqual(['agent-1', 'elevated']);
    expect(m.approvals.fileRequest).toHaveBeenCalledWith(
      expect.objectContaining({
        id: claimed?.[2],
        actionType: 'org:promote',
        riskLevel: 'high',
        metadata: expect.objectContaining({ to: 'elevated' }),
      }),
    );
    expect(m.agents.edit).not.toHaveBeenCalled();
    expect(m.audit.record).toHaveBeenCalledWith(expect.objectContaining({ kind: 'trust_change', enforced: 'pending' }));
  });

  it('should file nothing when another evaluation claimed the promotion first, and give a claim back on failure', async () => {
    const m = build();
    const agent = agentRow({ id: 'agent-1' });
    m.ledger.runSummariesSince.mockResolvedValue([0, 1, 2, 3, 4].map((i) => metric(i)));
    m.repository.claimPending.mockResolvedValue(false);
    await m.sut.evaluate(agent, NOW);
    expect(m.approvals.fileRequest).not.toHaveBeenCalled();

    m.repository.claimPending.mockResolvedValue(true);
    m.repository.takePending.mockResolvedValue(true);
    m.approvals.fileRequest.mockRejectedValue(new Error('queue down'));
    await expect(m.sut.evaluate(agent, NOW)).rejects.toThrow('queue down');
    expect(m.repository.takePending).toHaveBeenCalledWith('agent-1', m.repository.claimPending.mock.calls[1]?.[2]);
  });

  it('should promote below elevated on its own and record it', async () => {
    const m = build();
    const agent = agentRow({ id: 'agent-1', settings: { tools: { access_level: 'restricted' } } });
    m.ledger.runSummariesSince.mockResolvedValue([0, 1, 2, 3, 4].map((i) => metric(i, { complexity: 'medium' })));

    await m.sut.evaluate(agent, NOW);

    expect(m.approvals.fileRequest).not.toHaveBeenCalled();
    expect(m.agents.edit).toHaveBeenCalledWith(agent, { settings: { tools: { access_level: 'standard' } } });
    expect(m.audit.record).toHaveBeenCalledWith(expect.objectContaining({ verdict: 'standard', enforced: 'applied' }));
  });

  it('should change nothing while a promotion waits, or when trust is disabled', async () => {
    const m = build();
    m.repository.findTrust.mockResolvedValue(pending());
    await expect(m.sut.evaluate(agentRow({ id: 'agent-1' }), NOW)).resolves.toMatchObject({ kind: 'keep' });
    const off = build('disabled');
    await expect(off.sut.evaluate(agentRow({ id: 'agent-1' }), NOW)).resolves.toMatchObject({ kind: 'keep' });
    expect(m.agents.edit).not.toHaveBeenCalled();
    expect(off.agents.edit).not.toHaveBeenCalled();
  });

  it.each<[string, string, string | null, boolean]>([
    ['approved by a person', 'approved', 'user-1', true],
    ['approved by the timeout policy', 'approved', 'system', false],
    ['rejected', 'rejected', 'user-1', false],
    ['expired', 'expired', 'system', false],
  ])('should apply a pending promotion only when %s', async (_label, status, decidedBy, applied) => {
    const m = build();
    m.repository.findTrustByApproval.mockResolvedValue(pending());
    m.repository.takePending.mockResolvedValue(true);
    m.agents.findByRef.mockResolvedValue(agentRow({ id: 'agent-1' }));
    m.ledger.runSummariesSince.mockResolvedValue([]);

    await m.sut.decided({ id: 'approval-1', status, decidedBy });

    expect(m.agents.edit).toHaveBeenCalledTimes(applied ? 1 : 0);
    expect(m.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({
        kind: 'trust_change',
        verdict: 'elevated',
        enforced: applied ? 'applied' : 'rejected',
      }),
    );
  });

  it('should leave a decision another replica already took', async () => {
    const m = build();
    m.repository.findTrustByApproval.mockResolvedValue(pending());
    m.repository.takePending.mockResolvedValue(false);
    await m.sut.decided({ id: 'approval-1', status: 'approved', decidedBy: 'user-1' });
    expect(m.agents.edit).not.toHaveBeenCalled();
    expect(m.audit.record).not.toHaveBeenCalled();
  });
});
