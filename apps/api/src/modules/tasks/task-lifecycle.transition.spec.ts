import { Channel, ConflictError, ErrorCode, NotFoundError, type TaskStatus } from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import { taskRow } from '@app/testing';

import { TaskLifecycle } from './task-lifecycle';
import { ASSIGNED, rejectionOf, setupLifecycle, T0 } from './task-lifecycle.fixtures';
import type { TaskChanges } from './tasks.repository';

function makeTask(overrides: Partial<TaskEntity> = {}): TaskEntity {
  return taskRow({ createdAt: T0, updatedAt: T0, ...overrides });
}

describe(TaskLifecycle.name, () => {
  describe('transition', () => {
    it('should apply a legal move, bump the version and publish task.status_changed', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask({ version: 4 })]);

      const saved = await sut.transition('task-1', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) });

      expect(saved).toMatchObject({ status: 'assigned', version: 5, ...ASSIGNED });
      expect(repo.rows.get('task-1')).toMatchObject({ status: 'assigned', version: 5 });
      expect(repo.casCalls).toEqual([
        { id: 'task-1', version: 4, changes: { ...ASSIGNED, status: 'assigned' }, steps: 1 },
      ]);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        channel: Channel.Tasks,
        event_type: 'task.status_changed',
        payload: { task_id: 'task-1', status: 'assigned', previous_status: 'created', requested_by: 'bob', version: 5 },
      });
    });

    it('should pass the current row to the changes callback', async () => {
      const { sut } = setupLifecycle([makeTask({ status: 'in_review', ...ASSIGNED, retryCount: 2 })]);
      const changes = jest.fn((row: TaskEntity): TaskChanges => ({ statusReason: `was ${row.status}` }));

      const saved = await sut.transition('task-1', 'in_progress', { by: 'engine', changes });

      expect(changes).toHaveBeenCalledWith(expect.objectContaining({ status: 'in_review', retryCount: 2 }));
      expect(saved.statusReason).toBe('was in_review');
    });

    it.each<[TaskStatus, TaskStatus, ErrorCode]>([
      ['created', 'in_progress', ErrorCode.InvalidTaskTransition],
      ['assigned', 'completed', ErrorCode.InvalidTaskTransition],
      ['in_progress', 'in_progress', ErrorCode.InvalidTaskTransition],
      ['completed', 'assigned', ErrorCode.TaskAlreadyTerminal],
      ['cancelled', 'cancelled', ErrorCode.TaskAlreadyTerminal],
    ])('should refuse %s -> %s with %s, writing and publishing nothing', async (from, to, code) => {
      const { sut, repo, events } = setupLifecycle([
        makeTask({ status: from, ...(from === 'created' ? {} : ASSIGNED) }),
      ]);

      const error = await rejectionOf(sut.transition('task-1', to, { by: 'bob' }));

      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ code });
      expect(repo.compareAndSet).not.toHaveBeenCalled();
      expect(repo.rows.get('task-1')).toMatchObject({ status: from, version: 1 });
      expect(events).toEqual([]);
    });

    it('should refuse a move to assigned without an assignee with 4017', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask()]);

      const error = await rejectionOf(sut.transition('task-1', 'assigned', { by: 'bob' }));

      expect(error).toMatchObject({ code: ErrorCode.TaskAssignmentConflict });
      expect(repo.compareAndSet).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });

    it('should refuse a stale expectedVersion with 4003 before planning the write', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask({ version: 3 })]);
      const changes = jest.fn(() => ({ ...ASSIGNED }));

      const error = await rejectionOf(sut.transition('task-1', 'assigned', { by: 'bob', expectedVersion: 2, changes }));

      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ code: ErrorCode.TaskVersionConflict });
      expect((error as Error).message).toContain('version 3, not 2');
      expect(changes).not.toHaveBeenCalled();
      expect(repo.compareAndSet).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });

    it('should apply the move when expectedVersion matches', async () => {
      const { sut } = setupLifecycle([makeTask({ version: 3 })]);

      const saved = await sut.transition('task-1', 'assigned', {
        by: 'bob',
        expectedVersion: 3,
        changes: () => ({ ...ASSIGNED }),
      });

      expect(saved.version).toBe(4);
    });

    it('should re-read and retry a compare-and-set lost to a concurrent writer when no version is expected', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask({ version: 1 })]);
      repo.beforeNextCas = () => repo.bump('task-1', { title: 'Edited meanwhile' });

      const saved = await sut.transition('task-1', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) });

      expect(repo.casCalls.map((c) => c.version)).toEqual([1, 2]);
      expect(saved).toMatchObject({ status: 'assigned', version: 3, title: 'Edited meanwhile' });
      expect(events).toHaveLength(1);
      expect(events[0].payload).toMatchObject({ previous_status: 'created', version: 3 });
    });

    it('should re-check the state machine on the retry', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask({ status: 'in_progress', ...ASSIGNED })]);
      repo.beforeNextCas = () => repo.bump('task-1', { status: 'cancelled' });

      const error = await rejectionOf(sut.transition('task-1', 'in_review', { by: 'engine' }));

      expect(error).toMatchObject({ code: ErrorCode.TaskAlreadyTerminal });
      expect(repo.compareAndSet).toHaveBeenCalledTimes(1);
      expect(events).toEqual([]);
    });

    it('should give up with 4003 after five lost compare-and-sets', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask()]);
      const cas = repo.compareAndSet.getMockImplementation();
      repo.compareAndSet.mockImplementation((base, changes) => {
        repo.bump(base.id);
        return cas ? cas(base, changes) : Promise.resolve(null);
      });

      const error = await rejectionOf(
        sut.transition('task-1', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) }),
      );

      expect(error).toMatchObject({ code: ErrorCode.TaskVersionConflict });
      expect(repo.compareAndSet).toHaveBeenCalledTimes(5);
      expect(events).toEqual([]);
    });

    it('should not retry a lost compare-and-set when a version is expected', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask({ version: 7 })]);
      repo.beforeNextCas = () => repo.bump('task-1');

      const error = await rejectionOf(
        sut.transition('task-1', 'assigned', { by: 'bob', expectedVersion: 7, changes: () => ({ ...ASSIGNED }) }),
      );

      expect(error).toMatchObject({ code: ErrorCode.TaskVersionConflict });
      expect((error as Error).message).toContain('version 8, not 7');
      expect(repo.compareAndSet).toHaveBeenCalledTimes(1);
      expect(repo.rows.get('task-1')).toMatchObject({ status: 'created', version: 8 });
      expect(events).toEqual([]);
    });

    it('should write from the current row the caller gives without reading it again', async () => {
      const task = makeTask({ status: 'in_progress', ...ASSIGNED, version: 3 });
      const { sut, repo, events } = setupLifecycle([task]);

      const saved = await sut.transition('task-1', 'in_review', { by: 'engine', current: task });

      expect(repo.findById).toHaveBeenCalledTimes(0);
      expect(repo.casCalls.map((c) => c.version)).toEqual([3]);
      expect(saved).toMatchObject({ status: 'in_review', version: 4 });
      expect(events[0].payload).toMatchObject({ previous_status: 'in_progress', version: 4 });
    });

    it('should move through several steps in one write, announcing each at its own version', async () => {
      const task = makeTask({ status: 'in_progress', ...ASSIGNED, version: 3, runOwner: 'me' });
      const { sut, repo, events } = setupLifecycle([task]);
      const at: string[] = [];

      const saved = await sut.transitionThrough('task-1', ['in_review', 'completed'], {
        by: 'engine',
        current: task,
        changes: (row, target) => {
          at.push(`${row.status}@${row.version}->${target}`);
          return target === 'completed'
            ? { statusReason: null, result: 'Done.' }
            : { statusReason: 'completed', runOwner: null };
        },
      });

      expect(at).toEqual(['in_progress@3->in_review', 'in_review@4->completed']);
      expect(repo.casCalls).toEqual([
        {
          id: 'task-1',
          version: 3,
          steps: 2,
          changes: { statusReason: null, runOwner: null, result: 'Done.', status: 'completed' },
        },
      ]);
      expect(saved).toMatchObject({ status: 'completed', version: 5, result: 'Done.', runOwner: null });
      expect(repo.rows.get('task-1')).toMatchObject({ status: 'completed', version: 5 });
      expect(events.map((e) => e.payload)).toEqual([
        expect.objectContaining({ status: 'in_review', previous_status: 'in_progress', version: 4 }),
        expect.objectContaining({ status: 'completed', previous_status: 'in_review', version: 5 }),
      ]);
      const first = events[0].payload as unknown as { task: { status_reason: string | null; result: unknown } };
      expect(first.task).toMatchObject({ status: 'in_review', status_reason: 'completed' });
    });

    it('should hand a path that ends in assigned to the engine once, after the last step', async () => {
      const task = makeTask({ status: 'in_progress', ...ASSIGNED, version: 2 });
      const { sut, dispatch } = setupLifecycle([task]);
      const dispatched: TaskEntity[] = [];
      dispatch.onAssigned((row) => dispatched.push(row));

      await sut.transitionThrough('task-1', ['failed', 'assigned'], { by: 'engine', current: task });

      expect(dispatched.map((t) => [t.status, t.version])).toEqual([['assigned', 4]]);
    });

    it('should refuse an empty path with a rejection, writing nothing', async () => {
      const { sut, repo } = setupLifecycle([makeTask()]);

      await expect(sut.transitionThrough('task-1', [], { by: 'engine' })).rejects.toThrow('at least one step');
      expect(repo.compareAndSet).not.toHaveBeenCalled();
    });

    it('should refuse a path with an illegal step without writing anything', async () => {
      const task = makeTask({ status: 'in_progress', ...ASSIGNED, version: 2 });
      const { sut, repo, events } = setupLifecycle([task]);

      const error = await rejectionOf(sut.transitionThrough('task-1', ['completed', 'in_review'], { by: 'engine' }));

      expect(error).toMatchObject({ code: ErrorCode.InvalidTaskTransition });
      expect(repo.compareAndSet).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });

    it('should judge the stored row when the current row the caller gave is stale', async () => {
      const stale = makeTask({ status: 'in_progress', ...ASSIGNED, version: 3 });
      const { sut, repo, events } = setupLifecycle([stale]);
      repo.bump('task-1', { status: 'cancelled' });

      const error = await rejectionOf(sut.transition('task-1', 'in_review', { by: 'engine', current: stale }));

      expect(error).toMatchObject({ code: ErrorCode.TaskAlreadyTerminal });
      expect(repo.rows.get('task-1')).toMatchObject({ status: 'cancelled', version: 4 });
      expect(events).toEqual([]);
    });

    it('should apply the move to the stored row when a stale current row would have refused it', async () => {
      const stale = makeTask({ status: 'created', version: 1 });
      const { sut, repo } = setupLifecycle([stale]);
      repo.bump('task-1', { status: 'in_progress', ...ASSIGNED });

      const saved = await sut.transition('task-1', 'in_review', { by: 'engine', current: stale });

      expect(saved).toMatchObject({ status: 'in_review', version: 3 });
      expect(repo.casCalls.map((c) => c.version)).toEqual([2]);
    });

    it('should answer 3004 for a missing task', async () => {
      const { sut } = setupLifecycle();

      const error = await rejectionOf(sut.transition('task-404', 'assigned', { by: 'bob' }));

      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: ErrorCode.TaskNotFound });
    });
  });
});
