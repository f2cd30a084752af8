import { ConflictError, ErrorCode, ForbiddenError, HumanRole, NotFoundError, ValidationError } from '@app/domain';
import type { ApprovalItemEntity } from '@app/persistence';
import type { ActorContext } from '@app/platform';
import { makeServiceUnderTest } from '@app/testing';

import { AgentRoster } from '../agents';
import { TaskLifecycle } from '../tasks';
import { ApprovalsRepository } from './approvals.repository';
import { ApprovalsService } from './approvals.service';
import { ApprovalOutcomes } from './approval-outcomes';
import { ApprovalPolicy } from './approval-policy';

const CREATED = new Date('2026-01-01T00:00:00.000Z');

function makeItem(overrides: Partial<ApprovalItemEntity> = {}): ApprovalItemEntity {
  return {
    id: 'a-1',
    actionType: 'deploy:staging',
    title: 'Deploy',
    description: '',
    requestedBy: 'agent-1',
    riskLevel: 'high',
    status: 'pending',
    taskId: null,
    department: 'engineering',
    metadata: {},
    decidedBy: null,
    decisionReason: null,
    onTimeout: null,
    escalationStep: -1,
    assignedRole: null,
    version: 1,
    createdAt: CREATED,
    decidedAt: null,
    expiresAt: null,
    ...overrides,
  };
}

function actor(role: HumanRole, department: string | null = null): ActorContext {
  return {
    userId: 'u1',
    username: `${role}-user`,
    role,
    sessionId: 's1',
    mustChangePassword: false,
    department,
    via: 'bearer',
    expiresAt: Date.now() + 60_000,
  };
}

function setup() {
  const under = makeServiceUnderTest(ApprovalsService);
  under.mock(ApprovalOutcomes).settled.mockResolvedValue();
  under.mock(ApprovalOutcomes).created.mockResolvedValue();
  under
    .mock(ApprovalPolicy)
    .timeouts.mockReturnValue({ policy: 'wait', denyTimeoutMinutes: 240, tiers: {}, chain: [] });
  return under;
}

describe(ApprovalsService.name, () => {
  it('should throw ApprovalNotFound when no item has the id', async () => {
    const { sut, mock } = setup();
    mock(ApprovalsRepository).findById.mockResolvedValue(null);

    const failure = sut.get('missing');

    await expect(failure).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.ApprovalNotFound });
  });

  it('should refuse a manager of another department and let the department manager decide', async () => {
    const { sut, mock } = setup();
    const item = makeItem();
    mock(ApprovalsRepository).findById.mockResolvedValue(item);
    mock(ApprovalsRepository).changePending.mockImplementation((base, changes) =>
      Promise.resolve({ ...base, ...changes, version: base.version + 1 }),
    );

    await expect(sut.approve(actor(HumanRole.Manager, 'sales'), 'a-1', {})).rejects.toBeInstanceOf(ForbiddenError);
    await expect(sut.approve(actor(HumanRole.Observer), 'a-1', {})).rejects.toBeInstanceOf(ForbiddenError);
    const decided = await sut.approve(actor(HumanRole.Manager, 'engineering'), 'a-1', { comment: 'ok' });

    expect(decided).toMatchObject({ status: 'approved', decided_by: 'manager-user', decision_reason: 'ok' });
    expect(mock(ApprovalOutcomes).settled).toHaveBeenCalledTimes(1);
  });

  it('should answer 4006 when the compare-and-set loses to another decision', async () => {
    const { sut, mock } = setup();
    mock(ApprovalsRepository)
      .findById.mockResolvedValueOnce(makeItem())
      .mockResolvedValueOnce(makeItem({ status: 'approved', version: 2 }));
    mock(ApprovalsRepository).changePending.mockResolvedValue(null);

    const failure = sut.reject(actor(HumanRole.Ceo), 'a-1', { reason: 'no' });

    await expect(failure).rejects.toBeInstanceOf(ConflictError);
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.ApprovalAlreadyDecided });
    expect(mock(ApprovalOutcomes).settled).not.toHaveBeenCalled();
  });

  it('should expire an item past a denying deadline and answer 4023 when someone decides it', async () => {
    const { sut, mock } = setup();
    const item = makeItem({ onTimeout: 'deny', expiresAt: new Date(Date.now() - 1000) });
    mock(ApprovalsRepository).findById.mockResolvedValue(item);
    mock(ApprovalsRepository).changePending.mockImplementation((base, changes) =>
      Promise.resolve({ ...base, ...changes, version: base.version + 1 }),
    );

    const failure = sut.approve(actor(HumanRole.BoardMember), 'a-1', {});

    await expect(failure).rejects.toMatchObject({ code: ErrorCode.ApprovalExpired });
    expect(mock(ApprovalsRepository).changePending).toHaveBeenCalledWith(
      item,
      expect.objectContaining({ status: 'expired' }),
    );
  });

  it('should refuse metadata with more than 20 keys or a non-string value', async () => {
    const { sut, mock } = setup();
    mock(TaskLifecycle).find.mockResolvedValue(null);
    const dto = { action_type: 'code:write', title: 't', description: '', risk_level: 'low' as const };
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));

    await expect(sut.create(actor(HumanRole.Ceo), { ...dto, metadata: many })).rejects.toBeInstanceOf(ValidationError);
    await expect(
      sut.create(actor(HumanRole.Ceo), { ...dto, metadata: { k: 1 as unknown as string } }),
    ).rejects.toMatchObject({ code: ErrorCode.ApprovalMetadataInvalid });
  });

  it('should give an item filed for a task the department of its assignee', async () => {
    const { sut, mock } = setup();
    mock(TaskLifecycle).find.mockResolvedValue({ id: 't1', assigneeId: 'agent-1' } as never);
    mock(AgentRoster).findByRef.mockResolvedValue({ id: 'agent-1', department: 'engineering' } as never);
    mock(ApprovalsRepository).insert.mockResolvedValue();

    await sut.create(actor(HumanRole.Ceo), {
      action_type: 'code:write',
      title: 't',
      description: '',
      risk_level: 'low',
      task_id: 't1',
    });

    expect(mock(ApprovalsRepository).insert).toHaveBeenCalledWith(
      expect.objectContaining({ department: 'engineering', taskId: 't1' }),
    );
  });

  it("should file an escalation under the verdict's action type and risk, and fall back to the tool at high", async () => {
    const { sut, mock } = setup();
    mock(ApprovalsRepository).insert.mockResolvedValue();
    const call = {
      approvalId: 'a-9',
      taskId: 't1',
      agentId: 'agent-1',
      agentName: 'Ada',
      department: 'engineering',
      tool: 'Write_File',
      arguments: { path: 'x' },
      reason: 'locked autonomy',
    };

    await sut.fileEscalation({ ...call, actionType: 'code:write', riskLevel: 'medium' });
    await sut.fileEscalation(call);

    const filed = mock(ApprovalsRepository).insert.mock.calls.map(([row]) => [row.actionType, row.riskLevel]);
    expect(filed).toEqual([
      ['code:write', 'medium'],
      ['tool:write_file', 'high'],
    ]);
  });
});
