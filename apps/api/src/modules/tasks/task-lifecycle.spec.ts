import pino from 'pino';

import { Channel, ConflictError, ErrorCode, NotFoundError, type TaskStatus } from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import type { EventBus, LoggingRuntime, PublishableEvent } from '@app/platform';
import { taskRow } from '@app/testing';

import { RunDispatch } from './run-dispatch';
import { TaskLifecycle } from './task-lifecycle';
import type { TaskChanges, TasksRepository } from './tasks.repository';

const T0 = new Date('2026-01-01T00:00:00.000Z');

function makeTask(overrides: Partial<TaskEntity> = {}): TaskEntity {
  return taskRow({ createdAt: T0, updatedAt: T0, ...overrides });
}

const ASSIGNED = { assignedTo: 'Ada', assigneeId: 'agent-ada' } as const;

/** The repository's contract in memory: rows are copied in and out, every CAS bumps the version. */
class FakeTasksRepository {
  readonly rows = new Map<string, TaskEntity>();
  readonly casCalls: { id: string; version: number; changes: TaskChanges; steps: number }[] = [];
  /** Runs just before the next compare-and-set, like a concurrent writer sneaking in. */
  beforeNextCas: (() => void) | null = null;

  findById = jest.fn((id: string): Promise<TaskEntity | null> => {
    const row = this.rows.get(id);
    return Promise.resolve(row ? { ...row } : null);
  });

  insert = jest.fn((row: TaskEntity): Promise<void> => {
    this.rows.set(row.id, { ...row });
    return Promise.resolve();
  });

  compareAndSet = jest.fn((base: TaskEntity, changes: TaskChanges, steps = 1): Promise<TaskEntity | null> => {
    const { id, version } = base;
    this.casCalls.push({ id, version, changes, steps });
    const interfere = this.beforeNextCas;
    this.beforeNextCas = null;
    interfere?.();
    const row = this.rows.get(id);
    if (!row || row.version !== version) {
      return Promise.resolve(null);
    }
    const saved = { ...row, ...changes, version: row.version + steps, updatedAt: new Date() };
    this.rows.set(id, saved);
    return Promise.resolve({ ...saved });
  });

  delete = jest.fn((id: string): Promise<boolean> => Promise.resolve(this.rows.delete(id)));

  /** Another writer's edit: bumps the stored version. */
  bump(id: string, changes: TaskChanges = {}): void {
    const row = this.rows.get(id);
    if (row) {
      this.rows.set(id, { ...row, ...changes, version: row.version + 1 });
    }
  }
}

function setup(seed: TaskEntity[] = [], publish?: (event: PublishableEvent) => Promise<void>) {
  const repo = new FakeTasksRepository();
  for (const row of seed) {
    repo.rows.set(row.id, { ...row });
  }
  const events: PublishableEvent[] = [];
  const bus: EventBus = {
    publish:
      publish ??
      ((event: PublishableEvent) => {
        events.push(event);
        return Promise.resolve();
      }),
    subscribe: () => () => {},
  };
  const logging = { forName: () => pino({ level: 'silent' }) };
  const dispatch = new RunDispatch(bus, logging as unknown as LoggingRuntime);
  const sut = new TaskLifecycle(
    repo as unknown as TasksRepository,
    bus,
    dispatch,
    logging as unknown as LoggingRuntime,
  );
  return { sut, repo, events, dispatch };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe(TaskLifecycle.name, () => {
  describe('create', () => {
    it('should insert the row and publish task.created', async () => {
      const { sut, repo, events } = setup();
      const row = makeTask();

      await expect(sut.create(row, 'alice')).resolves.toBe(row);

      expect(repo.insert).toHaveBeenCalledWith(row);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        channel: Channel.Tasks,
        event_type: 'task.created',
        payload: {
          task_id: 'task-1',
          status: 'created',
          previous_status: null,
          requested_by: 'alice',
          version: 1,
          task: { id: 'task-1', status: 'created', created_by: 'alice', created_at: T0.toISOString() },
        },
      });
    });

    it('should refuse a created task with an assignee with 4017 and write nothing', async () => {
      const { sut, repo, events } = setup();

      const error = await rejectionOf(sut.create(makeTask(ASSIGNED), 'alice'));

      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ code: ErrorCode.TaskAssignmentConflict });
      expect(repo.insert).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });
  });

  describe('transition', () => {
    it('should apply a legal move, bump the version and publish task.status_changed', async () => {
      const { sut, repo, events } = setup([makeTask({ version: 4 })]);

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
      const { sut } = setup([makeTask({ status: 'in_review', ...ASSIGNED, retryCount: 2 })]);
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
      const { sut, repo, events } = setup([makeTask({ status: from, ...(from === 'created' ? {} : ASSIGNED) })]);

      const error = await rejectionOf(sut.transition('task-1', to, { by: 'bob' }));

      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ code });
      expect(repo.compareAndSet).not.toHaveBeenCalled();
      expect(repo.rows.get('task-1')).toMatchObject({ status: from, version: 1 });
      expect(events).toEqual([]);
    });

    it('should refuse a move to assigned without an assignee with 4017', async () => {
      const { sut, repo, events } = setup([makeTask()]);

      const error = await rejectionOf(sut.transition('task-1', 'assigned', { by: 'bob' }));

      expect(error).toMatchObject({ code: ErrorCode.TaskAssignmentConflict });
      expect(repo.compareAndSet).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });

    it('should refuse a stale expectedVersion with 4003 before planning the write', async () => {
      const { sut, repo, events } = setup([makeTask({ version: 3 })]);
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
      const { sut } = setup([makeTask({ version: 3 })]);

      const saved = await sut.transition('task-1', 'assigned', {
        by: 'bob',
        expectedVersion: 3,
        changes: () => ({ ...ASSIGNED }),
      });

      expect(saved.version).toBe(4);
    });

    it('should re-read and retry a compare-and-set lost to a concurrent writer when no version is expected', async () => {
      const { sut, repo, events } = setup([makeTask({ version: 1 })]);
      repo.beforeNextCas = () => repo.bump('task-1', { title: 'Edited meanwhile' });

      const saved = await sut.transition('task-1', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) });

      expect(repo.casCalls.map((c) => c.version)).toEqual([1, 2]);
      expect(saved).toMatchObject({ status: 'assigned', version: 3, title: 'Edited meanwhile' });
      expect(events).toHaveLength(1);
      expect(events[0].payload).toMatchObject({ previous_status: 'created', version: 3 });
    });

    it('should re-check the state machine on the retry', async () => {
      const { sut, repo, events } = setup([makeTask({ status: 'in_progress', ...ASSIGNED })]);
      repo.beforeNextCas = () => repo.bump('task-1', { status: 'cancelled' });

      const error = await rejectionOf(sut.transition('task-1', 'in_review', { by: 'engine' }));

      expect(error).toMatchObject({ code: ErrorCode.TaskAlreadyTerminal });
      expect(repo.compareAndSet).toHaveBeenCalledTimes(1);
      expect(events).toEqual([]);
    });

    it('should give up with 4003 after five lost compare-and-sets', async () => {
      const { sut, repo, events } = setup([makeTask()]);
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
      const { sut, repo, events } = setup([makeTask({ version: 7 })]);
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
      const { sut, repo, events } = setup([task]);

      const saved = await sut.transition('task-1', 'in_review', { by: 'engine', current: task });

      expect(repo.findById).toHaveBeenCalledTimes(0);
      expect(repo.casCalls.map((c) => c.version)).toEqual([3]);
      expect(saved).toMatchObject({ status: 'in_review', version: 4 });
      expect(events[0].payload).toMatchObject({ previous_status: 'in_progress', version: 4 });
    });

    it('should move through several steps in one write, announcing each at its own version', async () => {
      const task = makeTask({ status: 'in_progress', ...ASSIGNED, version: 3, runOwner: 'me' });
      const { sut, repo, events } = setup([task]);
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
      const { sut, dispatch } = setup([task]);
      const dispatched: TaskEntity[] = [];
      dispatch.onAssigned((row) => dispatched.push(row));

      await sut.transitionThrough('task-1', ['failed', 'assigned'], { by: 'engine', current: task });

      expect(dispatched.map((t) => [t.status, t.version])).toEqual([['assigned', 4]]);
    });

    it('should refuse an empty path with a rejection, writing nothing', async () => {
      const { sut, repo } = setup([makeTask()]);

      await expect(sut.transitionThrough('task-1', [], { by: 'engine' })).rejects.toThrow('at least one step');
      expect(repo.compareAndSet).not.toHaveBeenCalled();
    });

    it('should refuse a path with an illegal step without writing anything', async () => {
      const task = makeTask({ status: 'in_progress', ...ASSIGNED, version: 2 });
      const { sut, repo, events } = setup([task]);

      const error = await rejectionOf(sut.transitionThrough('task-1', ['completed', 'in_review'], { by: 'engine' }));

      expect(error).toMatchObject({ code: ErrorCode.InvalidTaskTransition });
      expect(repo.compareAndSet).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });

    it('should judge the stored row when the current row the caller gave is stale', async () => {
      const stale = makeTask({ status: 'in_progress', ...ASSIGNED, version: 3 });
      const { sut, repo, events } = setup([stale]);
      repo.bump('task-1', { status: 'cancelled' });

      const error = await rejectionOf(sut.transition('task-1', 'in_review', { by: 'engine', current: stale }));

      expect(error).toMatchObject({ code: ErrorCode.TaskAlreadyTerminal });
      expect(repo.rows.get('task-1')).toMatchObject({ status: 'cancelled', version: 4 });
      expect(events).toEqual([]);
    });

    it('should apply the move to the stored row when a stale current row would have refused it', async () => {
      const stale = makeTask({ status: 'created', version: 1 });
      const { sut, repo } = setup([stale]);
      repo.bump('task-1', { status: 'in_progress', ...ASSIGNED });

      const saved = await sut.transition('task-1', 'in_review', { by: 'engine', current: stale });

      expect(saved).toMatchObject({ status: 'in_review', version: 3 });
      expect(repo.casCalls.map((c) => c.version)).toEqual([2]);
    });

    it('should answer 3004 for a missing task', async () => {
      const { sut } = setup();

      const error = await rejectionOf(sut.transition('task-404', 'assigned', { by: 'bob' }));

      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: ErrorCode.TaskNotFound });
    });
  });

  describe('onAssigned', () => {
    it('should call listeners once on a move to assigned and not on other moves', async () => {
      const { sut, dispatch } = setup([makeTask()]);
      const listener = jest.fn();
      dispatch.onAssigned(listener);

      await sut.transition('task-1', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) });
      expect(listener).toHaveBeenCalledTimes(1);
      expect(listener).toHaveBeenCalledWith(expect.objectContaining({ id: 'task-1', status: 'assigned', version: 2 }));

      await sut.transition('task-1', 'in_progress', { by: 'engine' });
      await sut.transition('task-1', 'failed', { by: 'engine' });
      await sut.update('task-1', () => ({ title: 'Renamed' }), { by: 'bob' });
      expect(listener).toHaveBeenCalledTimes(1);

      await sut.transition('task-1', 'assigned', { by: 'engine' });
      expect(listener).toHaveBeenCalledTimes(2);
    });

    it('should not call listeners for a field edit of an assigned task', async () => {
      const { sut, dispatch } = setup([makeTask({ status: 'assigned', ...ASSIGNED })]);
      const listener = jest.fn();
      dispatch.onAssigned(listener);

      await sut.update('task-1', () => ({ priority: 'high' }), { by: 'bob' });

      expect(listener).not.toHaveBeenCalled();
    });

    it('should call every listener, and stop calling one once unsubscribed', async () => {
      const { sut, dispatch } = setup([makeTask(), makeTask({ id: 'task-2' })]);
      const kept = jest.fn();
      const removed = jest.fn();
      dispatch.onAssigned(kept);
      const unsubscribe = dispatch.onAssigned(removed);

      await sut.transition('task-1', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) });
      unsubscribe();
      unsubscribe();
      await sut.transition('task-2', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) });

      expect(kept).toHaveBeenCalledTimes(2);
      expect(removed).toHaveBeenCalledTimes(1);
      expect(removed).toHaveBeenCalledWith(expect.objectContaining({ id: 'task-1' }));
    });
  });

  describe('update', () => {
    it('should apply field edits, bump the version and publish task.updated', async () => {
      const { sut, events } = setup([makeTask({ status: 'assigned', ...ASSIGNED, version: 2 })]);

      const saved = await sut.update('task-1', () => ({ title: 'New title' }), { by: 'bob', expectedVersion: 2 });

      expect(saved).toMatchObject({ title: 'New title', status: 'assigned', version: 3 });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        event_type: 'task.updated',
        payload: { status: 'assigned', previous_status: 'assigned', version: 3, requested_by: 'bob' },
      });
    });

    it.each<[TaskStatus, Partial<TaskEntity>, TaskChanges]>([
      ['assigned', ASSIGNED, { assignedTo: null, assigneeId: null }],
      ['in_progress', ASSIGNED, { assignedTo: null }],
      ['in_review', ASSIGNED, { assignedTo: '' }],
      ['created', {}, { ...ASSIGNED }],
    ])(
      'should refuse an edit of a %s task that breaks the assignment invariant with 4017',
      async (status, row, changes) => {
        const { sut, repo, events } = setup([makeTask({ status, ...row })]);

        const error = await rejectionOf(sut.update('task-1', () => changes, { by: 'bob' }));

        expect(error).toBeInstanceOf(ConflictError);
        expect(error).toMatchObject({ code: ErrorCode.TaskAssignmentConflict });
        expect(repo.compareAndSet).not.toHaveBeenCalled();
        expect(events).toEqual([]);
      },
    );

    it('should allow clearing the assignee where it is optional', async () => {
      const { sut } = setup([makeTask({ status: 'blocked', ...ASSIGNED })]);

      const saved = await sut.update('task-1', () => ({ assignedTo: null, assigneeId: null }), { by: 'bob' });

      expect(saved.assignedTo).toBeNull();
    });

    it('should refuse a stale expectedVersion with 4003', async () => {
      const { sut, repo } = setup([makeTask({ version: 5 })]);

      const error = await rejectionOf(sut.update('task-1', () => ({ title: 'x' }), { by: 'bob', expectedVersion: 4 }));

      expect(error).toMatchObject({ code: ErrorCode.TaskVersionConflict });
      expect(repo.compareAndSet).not.toHaveBeenCalled();
    });
  });

  describe('delete', () => {
    it('should delete the row and publish task.deleted with its last state', async () => {
      const { sut, repo, events } = setup([makeTask({ status: 'assigned', ...ASSIGNED, version: 3 })]);

      await sut.delete('task-1', 'carol');

      expect(repo.rows.has('task-1')).toBe(false);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        channel: Channel.Tasks,
        event_type: 'task.deleted',
        payload: {
          task_id: 'task-1',
          status: 'assigned',
          previous_status: 'assigned',
          requested_by: 'carol',
          version: 3,
        },
      });
    });

    it('should answer 3004 for a missing task and publish nothing', async () => {
      const { sut, repo, events } = setup();

      const error = await rejectionOf(sut.delete('task-404', 'carol'));

      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: ErrorCode.TaskNotFound });
      expect(repo.delete).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });

    it('should answer 3004 when the row vanishes between the read and the delete', async () => {
      const { sut, repo, events } = setup([makeTask()]);
      repo.delete.mockResolvedValueOnce(false);

      const error = await rejectionOf(sut.delete('task-1', 'carol'));

      expect(error).toMatchObject({ code: ErrorCode.TaskNotFound });
      expect(events).toEqual([]);
    });
  });

  it('should not fail a committed write when publishing fails', async () => {
    const { sut, repo } = setup([makeTask()], () => Promise.reject(new Error('bus down')));

    const saved = await sut.transition('task-1', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) });

    expect(saved.version).toBe(2);
    expect(repo.rows.get('task-1')).toMatchObject({ status: 'assigned', version: 2 });
  });
});
