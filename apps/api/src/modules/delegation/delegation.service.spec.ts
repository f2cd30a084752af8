import { DelegationRefusedError, ErrorCode, type SettingValue, ToolError } from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import { DistributedLock } from '@app/platform';
import { agentRow, departmentRow, makeServiceUnderTest, taskRow } from '@app/testing';

import { AgentRoster } from '../agents';
import { CompanyFacade } from '../company';
import { MessagePosting } from '../messages';
import { SettingsSnapshot } from '../settings';
import { TaskLifecycle } from '../tasks';
import { delegateTaskTool } from './delegate-task.tool';
import { delegationEvents } from './delegation-activity';
import { DelegationRepository } from './delegation.repository';
import { DelegationService, subtaskDescription } from './delegation.service';

const LEAD = agentRow({ id: 'id-lead', name: 'Lead', role: 'Engineering Lead' });
const DEV = agentRow({ id: 'id-dev', name: 'Dev', role: 'Developer' });
const DEFAULTS: Record<string, SettingValue> = {
  enforce_chain_of_command: true,
  allow_skip_level: false,
  max_delegation_depth: 5,
  dedup_window_seconds: 60,
  max_per_pair_per_minute: 10,
  burst_allowance: 3,
  bounce_threshold: 3,
  cooldown_seconds: 300,
};

function build(parent: TaskEntity = taskRow({ id: 'task-parent', assignedTo: 'Lead', status: 'in_progress' })) {
  const unit = makeServiceUnderTest(DelegationService);
  const m = {
    sut: unit.sut,
    records: unit.mock(DelegationRepository),
    roster: unit.mock(AgentRoster),
    company: unit.mock(CompanyFacade),
    lifecycle: unit.mock(TaskLifecycle),
    posting: unit.mock(MessagePosting),
    settings: unit.mock(SettingsSnapshot),
    lock: unit.mock(DistributedLock),
  };
  m.roster.findByRef.mockImplementation((ref) =>
    Promise.resolve([LEAD, DEV].find((a) => a.name === ref || a.id === ref) ?? null),
  );
  m.roster.all.mockResolvedValue([LEAD, DEV]);
  m.company.departments.mockResolvedValue([departmentRow({ name: 'Engineering', head: 'Engineering Lead' })]);
  m.lifecycle.getOrThrow.mockResolvedValue(parent);
  m.lifecycle.create.mockImplementation((row) => Promise.resolve(row));
  m.lifecycle.transition.mockImplementation((_id, _to, options) =>
    Promise.resolve({ ...(options.current as TaskEntity), ...options.changes?.(options.current as TaskEntity) }),
  );
  m.lock.runExclusive.mockImplementation((_name, fn) => fn());
  m.records.pairSince.mockResolvedValue([]);
  m.records.insert.mockResolvedValue();
  m.posting.post.mockResolvedValue({ id: 'message-1' } as Awaited<ReturnType<MessagePosting['post']>>);
  m.settings.value.mockImplementation((_ns: string, key: string) => DEFAULTS[key]);
  return m;
}

const request = {
  delegator: 'Lead',
  delegatee: 'Dev',
  originalTaskId: 'task-parent',
  title: 'Tests',
  description: 'Add them.',
};

describe(DelegationService.name, () => {
  it('should create the subtask under its parent with the chain, assign it, record it and message the delegatee', async () => {
    const m = build();
    m.posting.post.mockRejectedValue(new Error('channel store down'));

    const { record, task } = await m.sut.delegate({ ...request, refinement: 'Cover the edge cases.' });

    expect(task).toMatchObject({
      parentTaskId: 'task-parent',
      delegationChain: ['Lead'],
      createdBy: 'Lead',
      assignedTo: 'Dev',
      assigneeId: 'id-dev',
      description: 'Add them.\n\nRefinement: Cover the edge cases.',
    });
    expect(m.lock.runExclusive).toHaveBeenCalledWith('delegation:id-dev:id-lead', expect.any(Function));
    expect(m.lifecycle.transition).toHaveBeenCalledWith(task.id, 'assigned', expect.objectContaining({ by: 'Lead' }));
    expect(m.records.insert).toHaveBeenCalledWith(record);
    expect(record).toMatchObject({
      delegatorId: 'id-lead',
      delegateeId: 'id-dev',
      originalTaskId: 'task-parent',
      delegatedTaskId: task.id,
      refinement: 'Cover the edge cases.',
    });
    // The hand-over message is best effort: its failure leaves the delegation in place.
    expect(m.posting.post).toHaveBeenCalledWith(expect.objectContaining({ toAgent: 'Dev', type: 'delegation' }));
  });

  it('should refuse a delegation up the reporting line before reading any history', async () => {
    const m = build();
    await expect(m.sut.delegate({ ...request, delegator: 'Dev', delegatee: 'Lead' })).rejects.toMatchObject({
      check: 'authority',
      code: ErrorCode.DelegationNotAuthorized,
      httpStatus: 403,
    });
    expect(m.records.pairSince).not.toHaveBeenCalled();
    expect(m.lifecycle.create).not.toHaveBeenCalled();
  });

  it('should refuse at the ancestry check when the delegatee already handed this work down', async () => {
    const m = build(taskRow({ id: 'task-parent', delegationChain: ['Dev'], assignedTo: 'Lead' }));
    await expect(m.sut.delegate(request)).rejects.toMatchObject({ check: 'ancestry' });
    expect(m.lifecycle.create).not.toHaveBeenCalled();
    expect(m.records.insert).not.toHaveBeenCalled();
  });

  it('should refuse a terminated delegatee and an unknown agent', async () => {
    const m = build();
    m.roster.findByRef.mockImplementation((ref) =>
      Promise.resolve(ref === 'Lead' ? LEAD : ref === 'Dev' ? { ...DEV, status: 'terminated' } : null),
    );
    await expect(m.sut.delegate(request)).rejects.toMatchObject({ code: ErrorCode.AgentNotAvailable });
    await expect(m.sut.delegate({ ...request, delegatee: 'Nobody' })).rejects.toMatchObject({
      code: ErrorCode.AgentNotFound,
    });
  });
});

describe('delegate_task', () => {
  const ctx = { root: '/w', taskId: 'task-parent', agentId: 'id-lead', agentName: 'Lead' };
  const args = { delegatee: 'Dev', title: 'Tests', description: 'Add them.' };

  it('should tell the model which check refused, with its code and when to retry', async () => {
    const m = build();
    const tool = delegateTaskTool(m.sut);
    jest
      .spyOn(m.sut, 'delegate')
      .mockRejectedValue(new DelegationRefusedError('dedup', ErrorCode.DelegationDuplicate, 'same work 5 s ago', 55));
    await expect(tool.execute(args, ctx)).rejects.toEqual(
      new ToolError('delegate_task refused by the dedup check [4063]: same work 5 s ago; retry after 55 s'),
    );
  });

  it('should answer the subtask and the chain', async () => {
    const m = build();
    const text = await delegateTaskTool(m.sut).execute(args, ctx);
    expect(text).toMatch(
      /^Delegated to Dev as task task-[0-9a-f]{32} \(delegation [0-9a-f-]{36}\); delegation chain: Lead\.$/,
    );
  });

  it('should refuse arguments beyond the task limits', () => {
    const tool = delegateTaskTool(build().sut);
    expect(tool.schema.safeParse({ ...args, title: 'x'.repeat(257) }).success).toBe(false);
    expect(tool.schema.safeParse({ ...args, extra: 1 }).success).toBe(false);
  });
});

describe('delegation activity and subtask text', () => {
  it('should make a sent and a received event of one record, or one side for an agent', () => {
    const record = {
      id: 'd-1',
      delegatorId: 'id-lead',
      delegatorName: 'Lead',
      delegateeId: 'id-dev',
      delegateeName: 'Dev',
      originalTaskId: 'task-a',
      delegatedTaskId: 'task-b',
      title: 'Tests',
      fingerprint: 'f',
      refinement: '',
      timestamp: new Date('2026-01-01T00:00:00.000Z'),
    };
    expect(delegationEvents(record).map((e) => e.event_type)).toEqual(['delegation_sent', 'delegation_received']);
    expect(delegationEvents(record, 'id-dev')).toEqual([
      {
        event_type: 'delegation_received',
        timestamp: '2026-01-01T00:00:00.000Z',
        description: 'Received task task-b from Lead: Tests',
        related_ids: {
          agent_id: 'id-dev',
          delegation_id: 'd-1',
          delegator_id: 'id-lead',
          original_task_id: 'task-a',
          delegated_task_id: 'task-b',
        },
      },
    ]);
  });

  it('should append the refinement and the non-blank constraints', () => {
    expect(subtaskDescription('Do it.', '  ', [' a ', ''])).toBe('Do it.\n\nConstraints:\n- a');
    expect(subtaskDescription('Do it.')).toBe('Do it.');
  });
});
