import { ErrorCode, HumanRole } from '@app/domain';
import { DistributedLock } from '@app/platform';
import { actorContext, agentRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster } from '../agents';
import { type ApprovalResponseDto, ApprovalsService } from '../approvals';
import { AuditTrail } from '../audit';
import { FiringApprovals } from './firing-approvals';
import { offboardingRecord } from './offboarding.fixtures';
import { OffboardingService } from './offboarding.service';

const ADA = agentRow({ id: 'agent-ada', name: 'Ada', department: 'engineering' });
const MANAGER = actorContext({ username: 'eng', role: HumanRole.Manager, department: 'engineering' });

function item(overrides: Partial<ApprovalResponseDto> = {}): ApprovalResponseDto {
  return {
    id: 'approval-1',
    action_type: 'org:fire',
    status: 'approved',
    requested_by: 'eng',
    decided_by: 'ceo',
    metadata: { kind: 'firing', agent_id: ADA.id, agent_name: 'Ada', reason: 'budget' },
    ...overrides,
  } as ApprovalResponseDto;
}

function build() {
  const unit = makeServiceUnderTest(FiringApprovals);
  const m = {
    sut: unit.sut,
    offboarding: unit.mock(OffboardingService),
    approvals: unit.mock(ApprovalsService),
    roster: unit.mock(AgentRoster),
    audit: unit.mock(AuditTrail),
    lock: unit.mock(DistributedLock),
  };
  m.offboarding.agentOrThrow.mockResolvedValue(ADA);
  m.offboarding.wasFired.mockResolvedValue(false);
  m.roster.findByRef.mockResolvedValue(ADA);
  m.audit.record.mockResolvedValue(null);
  m.lock.runExclusive.mockImplementation((_name, fn) => fn());
  return m;
}

describe(FiringApprovals.name, () => {
  it('should file org:fire with the details in 256-character pieces, and fire with them put back together', async () => {
    const m = build();
    const details = `${'a'.repeat(256)}${'b'.repeat(256)}c`;
    m.approvals.list.mockResolvedValue({ items: [] } as never);
    m.approvals.fileRequest.mockImplementation((request) =>
      Promise.resolve(item({ status: 'pending', metadata: request.metadata, decided_by: null })),
    );

    const filed = await m.sut.request(MANAGER, 'Ada', { reason: 'budget', details });

    expect(m.approvals.fileRequest).toHaveBeenCalledWith(
      expect.objectContaining({ actionType: 'org:fire', requestedBy: 'eng', department: 'engineering' }),
    );
    expect(Object.keys(filed.metadata).filter((k) => k.startsWith('details_'))).toEqual([
      'details_0',
      'details_1',
      'details_2',
    ]);
    m.approvals.get.mockResolvedValue(item({ metadata: filed.metadata }));
    m.offboarding.start.mockResolvedValue(offboardingRecord({ id: 'record-1' }));
    m.offboarding.run.mockResolvedValue({} as never);

    await m.sut.decided({ id: 'approval-1', status: 'approved', decidedBy: 'ceo' });

    expect(m.offboarding.start).toHaveBeenCalledWith(
      ADA,
      'eng',
      { reason: 'budget', details },
      { approval_id: 'approval-1', approved_by: 'ceo' },
      'ceo',
    );
    expect(m.offboarding.run).toHaveBeenCalledWith('record-1');
  });

  it('should refuse a second request while one waits (4075)', async () => {
    const m = build();
    m.approvals.list.mockResolvedValue({ items: [item({ status: 'pending' })] } as never);

    await expect(m.sut.request(MANAGER, 'Ada', { reason: 'budget' })).rejects.toMatchObject({
      code: ErrorCode.FireRequestPending,
    });
  });

  it('should fire nobody on an approval by the person who asked, and audit it as denied', async () => {
    const m = build();
    m.approvals.get.mockResolvedValue(item({ decided_by: 'eng' }));

    await m.sut.decided({ id: 'approval-1', status: 'approved', decidedBy: 'eng' });

    expect(m.offboarding.start).not.toHaveBeenCalled();
    expect(m.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'agent.fired', outcome: 'denied', actor: 'eng' }),
    );
  });

  it('should not run a pipeline when another replica stored the record first', async () => {
    const m = build();
    m.approvals.get.mockResolvedValue(item());
    m.offboarding.start.mockResolvedValue(null);

    await m.sut.decided({ id: 'approval-1', status: 'approved', decidedBy: 'ceo' });

    expect(m.offboarding.run).not.toHaveBeenCalled();
  });
});
