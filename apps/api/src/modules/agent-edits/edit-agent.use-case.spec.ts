import { ErrorCode, HumanRole } from '@app/domain';
import type { AgentEntity } from '@app/persistence';
import { DistributedLock } from '@app/platform';
import { actorContext, agentRow, departmentRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster } from '../agents';
import { AuditTrail } from '../audit';
import { AgentBudgetLimits } from '../budget';
import { CompanyFacade } from '../company';
import { type AgentEditPlan, AgentEditPlanner } from './agent-edit-planner';
import type { UpdateAgentDto } from './dto/agent-edit.dto';
import { EditAgentUseCase } from './edit-agent.use-case';

const ADA = agentRow({ id: 'agent-ada-0001', name: 'Ada', department: 'engineering', version: 4 });
const ETAG = '"agent-agent-ad-v4"';
const CEO = actorContext();
const MANAGER = actorContext({ username: 'mo', role: HumanRole.Manager, department: 'engineering' });

const memoryPlan = (): AgentEditPlan => ({
  changes: { settings: { memory: { type: 'none' } } },
  fieldChanges: [{ field: 'memory', from: '{"type":"session"}', to: '{"type":"none"}' }],
  department: null,
});

function build(stored: AgentEntity = ADA) {
  const unit = makeServiceUnderTest(EditAgentUseCase);
  const m = {
    sut: unit.sut,
    roster: unit.mock(AgentRoster),
    planner: unit.mock(AgentEditPlanner),
    company: unit.mock(CompanyFacade),
    budget: unit.mock(AgentBudgetLimits),
    audit: unit.mock(AuditTrail),
    lock: unit.mock(DistributedLock),
  };
  m.roster.findByRef.mockResolvedValue(stored);
  m.roster.render.mockImplementation((agent) => ({ id: agent.id, name: agent.name }) as never);
  m.roster.editAtVersion.mockImplementation((agent, edit) =>
    Promise.resolve({ ...agent, ...edit.changes, version: agent.version + 1 }),
  );
  m.planner.plan.mockResolvedValue(memoryPlan());
  m.audit.record.mockResolvedValue(null);
  m.lock.runExclusive.mockImplementation((_name, fn) => fn());
  return m;
}

const dto = (body: Partial<UpdateAgentDto>): UpdateAgentDto => body;

describe(EditAgentUseCase.name, () => {
  it('should write the planned changes with their career event and audit row, and answer the new ETag', async () => {
    const m = build();
    const result = await m.sut.execute(CEO, 'ada', dto({ memory: { type: 'none' }, reason: 'quiet week' }), ETAG);

    expect(result.etag).toBe('"agent-agent-ad-v5"');
    expect(m.roster.editAtVersion).toHaveBeenCalledWith(ADA, {
      changes: { settings: { memory: { type: 'none' } } },
      changed: ['memory'],
      requestedBy: 'alice',
      details: 'memory: {"type":"session"} → {"type":"none"} (quiet week)',
      metadata: {
        changed: 'memory',
        'memory.from': '{"type":"session"}',
        'memory.to': '{"type":"none"}',
        reason: 'quiet week',
      },
    });
    expect(m.audit.record).toHaveBeenCalledWith({
      actor: 'alice',
      action: 'agent.updated',
      target: 'agent:agent-ada-0001',
      outcome: 'success',
      details: { agent: 'Ada', changes: memoryPlan().fieldChanges, version: 5, reason: 'quiet week' },
    });
    // Nothing about the budget changed: no lock, no budget check.
    expect(m.lock.runExclusive).not.toHaveBeenCalled();
  });

  it('should answer 404 (3013) for an unknown agent', async () => {
    const m = build();
    m.roster.findByRef.mockResolvedValue(null);
    await expect(m.sut.execute(CEO, 'nobody', dto({}), undefined)).rejects.toMatchObject({
      code: ErrorCode.AgentNotFound,
    });
  });

  it("should refuse a manager another department's agent, or a move out of theirs, with 403 (1999)", async () => {
    const m = build(agentRow({ ...ADA, department: 'product' }));
    await expect(m.sut.execute(MANAGER, 'ada', dto({}), undefined)).rejects.toMatchObject({
      code: ErrorCode.AgentOutsideManagedDepartment,
      httpStatus: 403,
    });
    const own = build();
    await expect(own.sut.execute(MANAGER, 'ada', dto({ department: 'product' }), undefined)).rejects.toMatchObject({
      code: ErrorCode.AgentOutsideManagedDepartment,
    });
    const none = build();
    await expect(none.sut.execute({ ...MANAGER, department: null }, 'ada', dto({}), undefined)).rejects.toMatchObject({
      code: ErrorCode.AgentOutsideManagedDepartment,
    });
    expect(own.planner.plan).not.toHaveBeenCalled();
  });

  it('should refuse a terminated agent (4999) and a stale If-Match (4002) before planning anything', async () => {
    const fired = build(agentRow({ ...ADA, status: 'terminated' }));
    await expect(fired.sut.execute(CEO, 'ada', dto({}), undefined)).rejects.toMatchObject({
      code: ErrorCode.AgentTerminated,
    });
    const stale = build();
    await expect(stale.sut.execute(CEO, 'ada', dto({}), '"agent-agent-ad-v3"')).rejects.toMatchObject({
      code: ErrorCode.VersionConflict,
      httpStatus: 409,
    });
    expect(stale.planner.plan).not.toHaveBeenCalled();
  });

  it('should write and record nothing for an edit that changes nothing', async () => {
    const m = build();
    m.planner.plan.mockResolvedValue({ changes: {}, fieldChanges: [], department: null });
    expect(await m.sut.execute(CEO, 'ada', dto({}), undefined)).toEqual({
      agent: { id: ADA.id, name: 'Ada' },
      etag: ETAG,
    });
    expect(m.roster.editAtVersion).not.toHaveBeenCalled();
    expect(m.audit.record).not.toHaveBeenCalled();
  });

  it('should read again and retry when another write came first, without If-Match', async () => {
    const m = build();
    const moved = agentRow({ ...ADA, version: 5 });
    m.roster.findByRef.mockResolvedValueOnce(ADA).mockResolvedValueOnce(moved);
    m.roster.editAtVersion.mockResolvedValueOnce(null);

    const result = await m.sut.execute(CEO, 'ada', dto({ memory: { type: 'none' } }), undefined);

    expect(result.etag).toBe('"agent-agent-ad-v6"');
    expect(m.planner.plan).toHaveBeenCalledTimes(2);
    expect(m.roster.editAtVersion.mock.calls.map(([agent]) => agent.version)).toEqual([4, 5]);
  });

  it('should answer 409 (4002) when another write came first and If-Match was given, or after three tries', async () => {
    const m = build();
    m.roster.editAtVersion.mockResolvedValue(null);
    await expect(m.sut.execute(CEO, 'ada', dto({}), ETAG)).rejects.toMatchObject({ code: ErrorCode.VersionConflict });
    expect(m.roster.editAtVersion).toHaveBeenCalledTimes(1);
    await expect(m.sut.execute(CEO, 'ada', dto({}), undefined)).rejects.toMatchObject({
      code: ErrorCode.VersionConflict,
    });
    expect(m.roster.editAtVersion).toHaveBeenCalledTimes(4);
  });

  it('should judge a new monthly limit against the other active limits of the department it ends in, under the lock', async () => {
    const m = build(agentRow({ ...ADA, budgetLimitMonthly: 10 }));
    const product = departmentRow({ name: 'product', budgetPercent: 20 });
    m.planner.plan.mockResolvedValue({
      changes: { department: 'product', budgetLimitMonthly: 150 },
      fieldChanges: [{ field: 'department', from: 'engineering', to: 'product' }],
      department: product,
    });
    m.roster.findByDepartment.mockResolvedValue([
      agentRow({ id: 'agent-ada-0001', budgetLimitMonthly: 10 }),
      agentRow({ id: 'b', budgetLimitMonthly: 30 }),
      agentRow({ id: 'c', budgetLimitMonthly: null }),
      agentRow({ id: 'd', budgetLimitMonthly: 500, status: 'terminated' }),
      agentRow({ id: 'e', budgetLimitMonthly: 20, status: 'on_leave' }),
    ]);
    m.budget.assertFits.mockReturnValue(undefined);

    await m.sut.execute(CEO, 'ada', dto({ department: 'product', budget_limit_monthly: 150 }), undefined);

    expect(m.lock.runExclusive).toHaveBeenCalledWith('agents.budget_limits', expect.any(Function));
    expect(m.roster.findByDepartment).toHaveBeenCalledWith('product');
    expect(m.budget.assertFits).toHaveBeenCalledWith({
      department: 'product',
      departmentPercent: 20,
      otherLimits: [30, 20],
      limit: 150,
      previous: null,
    });
  });

  it('should write nothing when the budget refuses the limit', async () => {
    const m = build();
    m.planner.plan.mockResolvedValue({
      changes: { budgetLimitMonthly: 900 },
      fieldChanges: [{ field: 'budget_limit_monthly', from: 'null', to: '900' }],
      department: null,
    });
    m.company.findDepartment.mockResolvedValue(departmentRow({ budgetPercent: 60 }));
    m.roster.findByDepartment.mockResolvedValue([]);
    m.budget.assertFits.mockImplementation(() => {
      throw new Error('over the share');
    });

    await expect(m.sut.execute(CEO, 'ada', dto({ budget_limit_monthly: 900 }), undefined)).rejects.toThrow(
      'over the share',
    );
    expect(m.roster.editAtVersion).not.toHaveBeenCalled();
    expect(m.audit.record).not.toHaveBeenCalled();
  });
});
