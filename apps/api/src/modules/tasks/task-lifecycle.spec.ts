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
  describe('create', () => {
    it('should insert the row and publish task.created', async () => {
      const { sut, repo, events } = setupLifecycle();
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
      const { sut, repo, events } = setupLifecycle();

      const error = await rejectionOf(sut.create(makeTask(ASSIGNED), 'alice'));

      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ code: ErrorCode.TaskAssignmentConflict });
      expect(repo.insert).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });
  });

  describe('onAssigned', () => {
    it('should call listeners once on a move to assigned and not on other moves', async () => {
      const { sut, dispatch } = setupLifecycle([makeTask()]);
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
      const { sut, dispatch } = setupLifecycle([makeTask({ status: 'assigned', ...ASSIGNED })]);
      const listener = jest.fn();
      dispatch.onAssigned(listener);

      await sut.update('task-1', () => ({ priority: 'high' }), { by: 'bob' });

      expect(listener).not.toHaveBeenCalled();
    });

    it('should call every listener, and stop calling one once unsubscribed', async () => {
      const { sut, dispatch } = setupLifecycle([makeTask(), makeTask({ id: 'task-2' })]);
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
      const { sut, events } = setupLifecycle([makeTask({ status: 'assigned', ...ASSIGNED, version: 2 })]);

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
        const { sut, repo, events } = setupLifecycle([makeTask({ status, ...row })]);

        const error = await rejectionOf(sut.update('task-1', () => changes, { by: 'bob' }));

        expect(error).toBeInstanceOf(ConflictError);
        expect(error).toMatchObject({ code: ErrorCode.TaskAssignmentConflict });
        expect(repo.compareAndSet).not.toHaveBeenCalled();
        expect(events).toEqual([]);
      },
    );

    it('should allow clearing the assignee where it is optional', async () => {
      const { sut } = setupLifecycle([makeTask({ status: 'blocked', ...ASSIGNED })]);

      const saved = await sut.update('task-1', () => ({ assignedTo: null, assigneeId: null }), { by: 'bob' });

      expect(saved.assignedTo).toBeNull();
    });

    it('should refuse a stale expectedVersion with 4003', async () => {
      const { sut, repo } = setupLifecycle([makeTask({ version: 5 })]);

      const error = await rejectionOf(sut.update('task-1', () => ({ title: 'x' }), { by: 'bob', expectedVersion: 4 }));

      expect(error).toMatchObject({ code: ErrorCode.TaskVersionConflict });
      expect(repo.compareAndSet).not.toHaveBeenCalled();
    });
  });

  describe('delete', () => {
    it('should delete the row and publish task.deleted with its last state', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask({ status: 'assigned', ...ASSIGNED, version: 3 })]);

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
      const { sut, repo, events } = setupLifecycle();

      const error = await rejectionOf(sut.delete('task-404', 'carol'));

      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: ErrorCode.TaskNotFound });
      expect(repo.delete).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });

    it('should answer 3004 when the row vanishes between the read and the delete', async () => {
      const { sut, repo, events } = setupLifecycle([makeTask()]);
      repo.delete.mockResolvedValueOnce(false);

      const error = await rejectionOf(sut.delete('task-1', 'carol'));

      expect(error).toMatchObject({ code: ErrorCode.TaskNotFound });
      expect(events).toEqual([]);
    });
  });

  it('should not fail a committed write when publishing fails', async () => {
    const { sut, repo } = setupLifecycle([makeTask()], () => Promise.reject(new Error('bus down')));

    const saved = await sut.transition('task-1', 'assigned', { by: 'bob', changes: () => ({ ...ASSIGNED }) });

    expect(saved.version).toBe(2);
    expect(repo.rows.get('task-1')).toMatchObject({ status: 'assigned', version: 2 });
  });
});
