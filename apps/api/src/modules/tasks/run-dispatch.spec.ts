import pino from 'pino';

import { Channel } from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import type { EventListener, LoggingRuntime, ReceivedEvent } from '@app/platform';
import { taskRow } from '@app/testing';

import { RunDispatch, type TaskMoved } from './run-dispatch';

function setup() {
  const listeners = new Set<EventListener>();
  const bus = {
    publish: () => Promise.resolve(),
    subscribe: (listener: EventListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const log = { error: jest.fn() };
  const logging = { forName: () => Object.assign(pino({ level: 'silent' }), log) };
  const sut = new RunDispatch(bus, logging as unknown as LoggingRuntime);
  const deliver = (event: Partial<ReceivedEvent>): void =>
    listeners.forEach((listener) =>
      listener({
        channel: Channel.Tasks,
        event_type: 'task.status_changed',
        payload: {},
        timestamp: '2026-01-01T00:00:00.000Z',
        origin: 'remote',
        event_id: '1',
        ...event,
      }),
    );
  return { sut, deliver, listeners, log };
}

const assigned = (overrides: Partial<TaskEntity> = {}): TaskEntity =>
  taskRow({ status: 'assigned', assignedTo: 'Ada', assigneeId: 'agent-ada', ...overrides });

describe(RunDispatch.name, () => {
  describe('assigned', () => {
    it('should hand an assigned task with an assignee to every handler', () => {
      const { sut } = setup();
      const first = jest.fn();
      const second = jest.fn();
      sut.onAssigned(first);
      sut.onAssigned(second);

      sut.assigned(assigned());

      expect(first).toHaveBeenCalledWith(expect.objectContaining({ id: 'task-1', assigneeId: 'agent-ada' }));
      expect(second).toHaveBeenCalledTimes(1);
    });

    it('should not hand over a task without an assignee or in another status', () => {
      const { sut } = setup();
      const handler = jest.fn();
      sut.onAssigned(handler);

      sut.assigned(assigned({ assigneeId: null }));
      sut.assigned(assigned({ status: 'in_progress' }));

      expect(handler).not.toHaveBeenCalled();
    });

    it('should log a failing handler and still call the next one', () => {
      const { sut, log } = setup();
      const next = jest.fn();
      sut.onAssigned(() => {
        throw new Error('queue closed');
      });
      sut.onAssigned(next);

      expect(() => sut.assigned(assigned())).not.toThrow();

      expect(next).toHaveBeenCalledTimes(1);
      expect(log.error).toHaveBeenCalledWith(
        expect.objectContaining({ task_id: 'task-1' }),
        'engine.task.listener_failed',
      );
    });
  });

  describe('onMoved', () => {
    it('should turn a task event into a typed move', () => {
      const { sut, deliver } = setup();
      const moves: TaskMoved[] = [];
      sut.onMoved((move) => moves.push(move));

      deliver({ payload: { task_id: 'task-1', status: 'cancelled', requested_by: 'bob' } });
      deliver({ event_type: 'task.deleted', payload: { task_id: 'task-2', status: 'in_progress' } });
      deliver({ payload: { task_id: 'task-3', status: 'unheard_of', requested_by: 7 } });

      expect(moves).toEqual([
        { taskId: 'task-1', status: 'cancelled', deleted: false, requestedBy: 'bob' },
        { taskId: 'task-2', status: 'in_progress', deleted: true, requestedBy: null },
        { taskId: 'task-3', status: null, deleted: false, requestedBy: null },
      ]);
    });

    it('should ignore other channels and events without a task id, and stop after unsubscribing', () => {
      const { sut, deliver, listeners } = setup();
      const handler = jest.fn();
      const off = sut.onMoved(handler);

      deliver({ channel: 'agents', payload: { task_id: 'task-1', status: 'assigned' } });
      deliver({ payload: { status: 'assigned' } });
      off();
      deliver({ payload: { task_id: 'task-1', status: 'assigned' } });

      expect(handler).not.toHaveBeenCalled();
      expect(listeners.size).toBe(0);
    });
  });
});
