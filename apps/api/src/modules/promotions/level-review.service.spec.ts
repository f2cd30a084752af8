import type { LevelChangeEntity } from '@app/persistence';
import { agentRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster } from '../agents';
import { ApprovalsService } from '../approvals';
import { AuditTrail } from '../audit';
import { ModelCatalog } from '../providers';
import { SettingsSnapshot } from '../settings';
import { LevelChangesRepository } from './level-changes.repository';
import { LevelReview } from './level-review.service';

const ADA = agentRow({ id: 'agent-ada', name: 'Ada', department: 'engineering', level: 'mid', modelTier: 'medium' });

const SETTINGS: Record<string, string | number | boolean> = {
  promotion_enabled: true,
  promotion_cooldown_hours: 24,
  promotion_min_criteria_met: 2,
  promotion_quality_threshold: 7,
  promotion_success_rate_threshold: 0.8,
  promotion_tasks_threshold: 10,
  demotion_quality_threshold: 4,
  demotion_success_rate_threshold: 0.5,
  demotion_tasks_threshold: 3,
  promotion_human_approval_from_level: 'senior',
  auto_demote_cost_saving: true,
  human_demote_authority: true,
  model_follows_seniority: false,
};

function pendingChange(overrides: Partial<LevelChangeEntity> = {}): LevelChangeEntity {
  return {
    id: 'change-1',
    agentId: ADA.id,
    agentName: ADA.name,
    direction: 'promotion',
    oldLevel: 'mid',
    newLevel: 'senior',
    status: 'pending',
    pendingKey: ADA.id,
    approvalId: 'approval-1',
    reason: '3 promotion criteria met',
    requestedBy: 'system',
    decidedBy: null,
    eventId: 'event-1',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    appliedAt: null,
    decidedAt: null,
    ...overrides,
  };
}

function build(agent = ADA) {
  const unit = makeServiceUnderTest(LevelReview);
  const m = {
    sut: unit.sut,
    changes: unit.mock(LevelChangesRepository),
    roster: unit.mock(AgentRoster),
    approvals: unit.mock(ApprovalsService),
    audit: unit.mock(AuditTrail),
    catalog: unit.mock(ModelCatalog),
    settings: unit.mock(SettingsSnapshot),
  };
  m.settings.value.mockImplementation((_ns: string, key: string) => SETTINGS[key]);
  m.roster.findByRef.mockResolvedValue(agent);
  m.roster.changeLevelAtVersion.mockImplementation((a, change) => Promise.resolve({ ...a, level: change.level }));
  m.changes.settlePending.mockResolvedValue(true);
  m.audit.record.mockResolvedValue(null);
  return m;
}

describe(LevelReview.name, () => {
  it("should apply a pending promotion on a person's approval, once, with its chosen event id", async () => {
    const m = build();
    m.changes.findByApproval.mockResolvedValue(pendingChange());

    await m.sut.decided({ id: 'approval-1', status: 'approved', decidedBy: 'ceo' });

    expect(m.roster.changeLevelAtVersion).toHaveBeenCalledWith(
      ADA,
      expect.objectContaining({
        level: 'senior',
        type: 'promoted',
        eventId: 'event-1',
        decidedBy: 'ceo',
        approvalId: 'approval-1',
        model: null,
        metadata: { old_level: 'mid', new_level: 'senior', approval_id: 'approval-1' },
      }),
    );
    expect(m.changes.settlePending).toHaveBeenCalledWith(
      'change-1',
      expect.objectContaining({ status: 'applied', decidedBy: 'ceo' }),
    );
    expect(m.audit.record).toHaveBeenCalledWith(expect.objectContaining({ action: 'agent.promoted', actor: 'ceo' }));
  });

  it('should drop a move approved by the timeout policy rather than a person, and audit it as denied', async () => {
    const m = build();
    m.changes.findByApproval.mockResolvedValue(pendingChange());

    await m.sut.decided({ id: 'approval-1', status: 'approved', decidedBy: 'system' });

    expect(m.roster.changeLevelAtVersion).not.toHaveBeenCalled();
    expect(m.changes.settlePending).toHaveBeenCalledWith('change-1', expect.objectContaining({ status: 'rejected' }));
    expect(m.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'agent.level_change_rejected', outcome: 'denied' }),
    );
  });

  it('should drop an approved move when the agent is no longer at the level it was evaluated at', async () => {
    const m = build({ ...ADA, level: 'junior' });
    m.changes.findByApproval.mockResolvedValue(pendingChange());

    await m.sut.decided({ id: 'approval-1', status: 'approved', decidedBy: 'ceo' });

    expect(m.roster.changeLevelAtVersion).not.toHaveBeenCalled();
    expect(m.changes.settlePending).toHaveBeenCalledWith('change-1', expect.objectContaining({ status: 'dropped' }));
  });

  it('should do nothing for a decision it has settled already (another replica, a repeated event)', async () => {
    const m = build();
    m.changes.findByApproval.mockResolvedValue(pendingChange({ status: 'applied', pendingKey: null }));

    await m.sut.decided({ id: 'approval-1', status: 'approved', decidedBy: 'ceo' });

    expect(m.roster.changeLevelAtVersion).not.toHaveBeenCalled();
    expect(m.changes.settlePending).not.toHaveBeenCalled();
  });

  it('should settle an automatic move a crash left pending when the agent already holds the new level', async () => {
    const m = build({ ...ADA, level: 'senior' });

    await m.sut.reconcile(pendingChange({ approvalId: null }));

    expect(m.roster.changeLevelAtVersion).not.toHaveBeenCalled();
    expect(m.changes.settlePending).toHaveBeenCalledWith('change-1', expect.objectContaining({ status: 'applied' }));
  });
});
