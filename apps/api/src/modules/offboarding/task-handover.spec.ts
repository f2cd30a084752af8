import { ConflictError, ErrorCode } from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import { APP_CONFIG } from '@app/platform';
import { agentRow, makeServiceUnderTest, taskRow } from '@app/testing';

import { AgentRoster } from '../agents';
import { RunEnds } from '../engine';
import { TaskLifecycle, TaskStatistics } from '../tasks';
import { handoverEntry, offboardingRecord } from './offboarding.fixtures';
import { TaskHandover } from './task-handover';

const RECORD = offboardingRecord();
const MARK = '[offboarding fire-1]';
const BOB = agentRow({ id: 'agent-bob', name: 'Bob', department: 'engineering', position: 2 });
const CAT = agentRow({ id: 'agent-cat', name: 'Cat', department: 'engineering', position: 1 });
const ADA = agentRow({ id: 'agent-ada', name: 'Ada', department: 'engineering', position: 0, status: 'terminated' });

function held(overrides: Partial<TaskEntity> = {}): TaskEntity {
  return taskRow({ status: 'in_progress', assignedTo: 'Ada', assigneeId: 'agent-ada', version: 4, ...overrides });
}

/** Interrupted by this record's pipeline: unassigned, its reason marked. */
function ours(overrides: Partial<TaskEntity> = {}): TaskEntity {
  return held({
    status: 'interrupted',
    assignedTo: null,
    assigneeId: null,
    priority: 'high',
    statusReason: `x ${MARK}`,
    ...overrides,
  });
}

function build() {
  const config = { engine: { graceSeconds: 2, heartbeatSeconds: 1 } };
  const unit = makeServiceUnderTest(TaskHandover, [{ provide: APP_CONFIG, useValue: config }]);
  const m = {
    sut: unit.sut,
    lifecycle: unit.mock(TaskLifecycle),
    statistics: unit.mock(TaskStatistics),
    roster: unit.mock(AgentRoster),
    runEnds: unit.mock(RunEnds),
  };
  m.lifecycle.transition.mockImplementation((id) => Promise.resolve(taskRow({ id })));
  m.lifecycle.update.mockImplementation((id) => Promise.resolve(taskRow({ id })));
  return m;
}

describe(TaskHandover.name, () => {
  it("should list the agent's open tasks the record does not have yet, one priority step up", async () => {
    const m = build();
    m.lifecycle.heldBy.mockResolvedValue([
      held({ id: 'task-1' }),
      held({ id: 'task-2', priority: 'critical', status: 'assigned' }),
    ]);

    const planned = await m.sut.plan({ ...RECORD, handover: [handoverEntry({ taskId: 'task-1' })] });

    expect(m.lifecycle.heldBy).toHaveBeenCalledWith('agent-ada', ['assigned', 'in_progress', 'interrupted'], 1000);
    expect(planned).toEqual([
      handoverEntry({
        taskId: 'task-2',
        title: 'Write the spec',
        fromStatus: 'assigned',
        priorityBefore: 'critical',
        priorityAfter: 'critical',
      }),
    ]);
  });

  it('should interrupt a task still held by the agent: unassigned, raised one step, marked, at the version read', async () => {
    const m = build();
    m.lifecycle.find.mockResolvedValue(held());

    const entry = await m.sut.interrupt(RECORD, handoverEntry());

    expect(entry).toMatchObject({ outcome: 'interrupted', fromStatus: 'in_progress', priorityAfter: 'high' });
    const [id, target, options] = m.lifecycle.transition.mock.calls[0];
    expect([id, target, options.by, options.expectedVersion]).toEqual(['task-1', 'interrupted', 'ceo', 4]);
    expect(options.changes?.(held())).toEqual({
      assignedTo: null,
      assigneeId: null,
      priority: 'high',
      statusReason: `Ada was fired (performance); to be handed to another agent ${MARK}`,
    });
  });

  it('should take over a task a shutdown interrupted with a field edit, not a move', async () => {
    const m = build();
    m.lifecycle.find.mockResolvedValue(held({ status: 'interrupted', priority: 'low' }));

    expect(await m.sut.interrupt(RECORD, handoverEntry())).toMatchObject({
      outcome: 'interrupted',
      priorityAfter: 'medium',
    });
    expect(m.lifecycle.transition).not.toHaveBeenCalled();
    expect(m.lifecycle.update).toHaveBeenCalledWith(
      'task-1',
      expect.any(Function),
      expect.objectContaining({ expectedVersion: 4 }),
    );
  });

  it('should write nothing for a task it interrupted before a restart, nor for one someone else moved', async () => {
    const m = build();
    m.lifecycle.find.mockResolvedValueOnce(ours());
    expect(await m.sut.interrupt(RECORD, handoverEntry())).toMatchObject({
      outcome: 'interrupted',
      priorityAfter: 'high',
    });
    m.lifecycle.find.mockResolvedValueOnce(held({ assignedTo: 'Bob', assigneeId: 'agent-bob' }));
    expect(await m.sut.interrupt(RECORD, handoverEntry())).toMatchObject({ outcome: 'moved' });
    m.lifecycle.find.mockResolvedValueOnce(held({ status: 'cancelled' }));
    expect(await m.sut.interrupt(RECORD, handoverEntry())).toMatchObject({ outcome: 'moved' });
    m.lifecycle.find.mockResolvedValueOnce(null);
    expect(await m.sut.interrupt(RECORD, handoverEntry())).toMatchObject({ outcome: 'moved' });
    expect(m.lifecycle.transition).not.toHaveBeenCalled();
  });

  it('should read the task again and retry when another writer changed it first', async () => {
    const m = build();
    m.lifecycle.find.mockResolvedValueOnce(held({ status: 'assigned' })).mockResolvedValueOnce(held({ version: 5 }));
    m.lifecycle.transition.mockRejectedValueOnce(new ConflictError('stale', ErrorCode.TaskVersionConflict));

    expect(await m.sut.interrupt(RECORD, handoverEntry())).toMatchObject({
      outcome: 'interrupted',
      fromStatus: 'in_progress',
    });
    expect(m.lifecycle.transition.mock.calls.map(([, , options]) => options.expectedVersion)).toEqual([4, 5]);
  });

  it('should wait for the runs of every interrupted task, count those in progress and report the late ones', async () => {
    const m = build();
    m.runEnds.awaitEnd.mockResolvedValueOnce(true).mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    const entries = [
      handoverEntry({ taskId: 'task-1', outcome: 'interrupted' }),
      handoverEntry({ taskId: 'task-2', outcome: 'interrupted', fromStatus: 'assigned' }),
      handoverEntry({ taskId: 'task-3', outcome: 'moved' }),
      handoverEntry({ taskId: 'task-4', outcome: 'interrupted' }),
    ];

    expect(await m.sut.awaitRuns(entries)).toEqual({ stopped: 1, late: ['task-4'] });
    expect(m.runEnds.awaitEnd.mock.calls.map(([id]) => id)).toEqual(['task-1', 'task-2', 'task-4']);
    expect(m.runEnds.awaitEnd.mock.calls[0][1]).toBeLessThanOrEqual(5000);
  });

  it('should give each interrupted task to the least loaded active colleague, counting what it gives', async () => {
    const m = build();
    m.roster.findByDepartment.mockResolvedValue([ADA, BOB, CAT]);
    m.statistics.activeLoads.mockResolvedValue(new Map([['agent-cat', 1]]));
    const entries = [
      handoverEntry({ taskId: 'task-1', outcome: 'interrupted' }),
      handoverEntry({ taskId: 'task-2', outcome: 'interrupted' }),
      handoverEntry({ taskId: 'task-3', outcome: 'moved' }),
      handoverEntry({ taskId: 'task-4', outcome: 'interrupted', toAgentId: 'agent-cat', toAgentName: 'Cat' }),
    ];

    const chosen = await m.sut.chooseSuccessors(RECORD, entries);

    expect(chosen.map((e) => e.toAgentName)).toEqual(['Bob', 'Cat', null, 'Cat']);
    expect(m.roster.findByDepartment).toHaveBeenCalledWith('engineering');
  });

  it('should hand an interrupted task to its chosen agent, marked, so the engine runs it', async () => {
    const m = build();
    m.lifecycle.find.mockResolvedValue(ours());
    m.roster.findByRef.mockResolvedValue(BOB);

    const entry = await m.sut.reassign(RECORD, handoverEntry({ outcome: 'interrupted', toAgentId: 'agent-bob' }));

    expect(entry).toMatchObject({ outcome: 'reassigned', toAgentName: 'Bob' });
    const [, target, options] = m.lifecycle.transition.mock.calls[0];
    expect(target).toBe('assigned');
    expect(options.changes?.(ours())).toEqual({
      assignedTo: 'Bob',
      assigneeId: 'agent-bob',
      statusReason: `handed over from Ada, who was fired ${MARK}`,
    });
    expect(() => options.changes?.(held())).toThrow('moved meanwhile');
  });

  it('should leave a task nobody can take interrupted and unassigned, saying why', async () => {
    const m = build();
    m.lifecycle.find.mockResolvedValue(ours());

    expect(await m.sut.reassign(RECORD, handoverEntry({ outcome: 'interrupted' }))).toMatchObject({
      outcome: 'unassigned',
    });
    const [, compute] = m.lifecycle.update.mock.calls[0];
    expect(compute(ours())).toEqual({
      statusReason: `Ada was fired (performance); no other active agent in engineering: assign it by hand ${MARK}`,
    });

    m.roster.findByRef.mockResolvedValue({ ...BOB, status: 'terminated' });
    const gone = await m.sut.reassign(
      RECORD,
      handoverEntry({ outcome: 'interrupted', toAgentId: 'agent-bob', toAgentName: 'Bob' }),
    );
    expect(gone).toMatchObject({ outcome: 'unassigned' });
    expect(m.lifecycle.update.mock.calls[1][1](ours())).toEqual({
      statusReason: `Ada was fired (performance); Bob, chosen to take it, is no longer active: assign it by hand ${MARK}`,
    });
  });

  it('should tell a task it handed over before a restart from one someone else moved, and write nothing', async () => {
    const m = build();
    const entry = handoverEntry({ outcome: 'interrupted', toAgentId: 'agent-bob', toAgentName: 'Bob' });
    m.lifecycle.find.mockResolvedValueOnce(held({ status: 'in_progress', assignedTo: 'Bob', assigneeId: 'agent-bob' }));
    expect(await m.sut.reassign(RECORD, entry)).toMatchObject({ outcome: 'reassigned' });
    m.lifecycle.find.mockResolvedValueOnce(held({ status: 'cancelled', assigneeId: null }));
    expect(await m.sut.reassign(RECORD, entry)).toMatchObject({ outcome: 'moved' });
    expect(await m.sut.reassign(RECORD, handoverEntry({ outcome: 'moved' }))).toMatchObject({ outcome: 'moved' });
    expect(m.lifecycle.transition).not.toHaveBeenCalled();
    expect(m.lifecycle.update).not.toHaveBeenCalled();
  });

  it('should count a task someone moved while it was being handed over as moved', async () => {
    const m = build();
    m.lifecycle.find.mockResolvedValue(ours());
    m.roster.findByRef.mockResolvedValue(BOB);
    // The lifecycle plans the write on the stored row, which someone else has changed.
    m.lifecycle.transition.mockImplementation((id, _target, options) =>
      Promise.resolve().then(() => {
        options.changes?.(held({ id }));
        return taskRow({ id });
      }),
    );

    const entry = await m.sut.reassign(RECORD, handoverEntry({ outcome: 'interrupted', toAgentId: 'agent-bob' }));

    expect(entry).toMatchObject({ outcome: 'moved' });
  });
});
