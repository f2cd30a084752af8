import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  assertAssignment,
  assertTransition,
  Channel,
  ConflictError,
  ErrorCode,
  type EventTypeOf,
  InternalError,
  NotFoundError,
  type TaskStatus,
} from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { RunDispatch } from './run-dispatch';
import { statusOf, toTaskDto } from './tasks.mapper';
import { type TaskChanges, TasksRepository } from './tasks.repository';

/** Every persisted task change is announced on the tasks channel (dashboards, other replicas). */
type TaskEventType = Exclude<EventTypeOf<typeof Channel.Tasks>, `coordination_${string}`>;

/** Writes without an expected version re-read and retry this often before giving up with 4003. */
const UNCONDITIONAL_ATTEMPTS = 5;

export interface WriteOptions {
  /** Who asked: a username, an agent name, or `engine`. */
  by: string;
  /** The client's compare-and-set version; without it the write applies to the latest version. */
  expectedVersion?: number;
  /**
   * The row as the caller last read or wrote it: the first attempt plans against it instead of
   * reading it again. The compare-and-set still checks its version, so a stale row only costs a
   * re-read and a second attempt (or, with expectedVersion, the usual conflict).
   */
  current?: TaskEntity;
  /**
   * A move to `assigned` that is not handed to the engine for a run: the writer holds the task and
   * moves it on itself (a coordination assigning the parent it works on).
   */
  hold?: boolean;
}

/**
 * The single writer of task state: every create, update, transition and delete goes through here,
 * is checked against the state machine and the assignment invariant, persisted as a compare-and-set
 * on the stored version, and published on the tasks channel. The API and the engine share it; every
 * move to `assigned` is handed to the engine through RunDispatch.
 */
@Injectable()
export class TaskLifecycle {
  private readonly log: Logger;

  constructor(
    private readonly tasks: TasksRepository,
    private readonly bus: EventBus,
    private readonly dispatch: RunDispatch,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.tasks');
  }

  async getOrThrow(id: string): Promise<TaskEntity> {
    const row = await this.tasks.findById(id);
    if (!row) {
      throw new NotFoundError(`Task "${id}" not found`, ErrorCode.TaskNotFound);
    }
    return row;
  }

  /** The stored row, or null when there is none. */
  find(id: string): Promise<TaskEntity | null> {
    return this.tasks.findById(id);
  }

  /** Tasks waiting for a run (assigned), oldest first. */
  waiting(limit: number): Promise<TaskEntity[]> {
    return this.tasks.waiting(limit);
  }

  /** Runs a dead process left behind (see TasksRepository.abandoned). */
  abandoned(staleBefore: Date, limit: number, liveOwner: string, includeInterrupted: boolean): Promise<TaskEntity[]> {
    return this.tasks.abandoned(staleBefore, limit, liveOwner, includeInterrupted);
  }

  /** A run owner's proof of life on its tasks: no version change and no announcement (not an edit). */
  heartbeat(ids: readonly string[], owner: string, at: Date): Promise<void> {
    return this.tasks.heartbeat(ids, owner, at);
  }

  async create(row: TaskEntity, by: string): Promise<TaskEntity> {
    if (row.status !== 'created') {
      throw new InternalError('a new task must start as created');
    }
    assertAssignment(statusOf(row), row.assignedTo);
    await this.tasks.insert(row);
    this.log.info({ task_id: row.id, requested_by: by }, 'engine.task.created');
    await this.publish('task.created', row, null, by);
    return row;
  }

  /** Field edits (no status change). */
  update(id: string, compute: (row: TaskEntity) => TaskChanges, options: WriteOptions): Promise<TaskEntity> {
    return this.write(id, options, 'task.updated', (row) => {
      const changes = compute(row);
      if (changes.status !== undefined && changes.status !== row.status) {
        // Status moves go through transition() and its state machine, never through an edit.
        throw new InternalError('task status cannot change through an update');
      }
      assertAssignment(statusOf(row), changes.assignedTo === undefined ? row.assignedTo : changes.assignedTo);
      return changes;
    });
  }

  /** A state-machine move with the columns that travel with it (assignee, reason, run fields). */
  transition(
    id: string,
    target: TaskStatus,
    options: WriteOptions & { changes?: (row: TaskEntity) => TaskChanges },
  ): Promise<TaskEntity> {
    return this.write(id, options, 'task.status_changed', (row) => {
      assertTransition(statusOf(row), target);
      const changes = { ...(options.changes?.(row) ?? {}), status: target };
      assertAssignment(target, changes.assignedTo === undefined ? row.assignedTo : changes.assignedTo);
      return changes;
    });
  }

  async delete(id: string, by: string): Promise<void> {
    const row = await this.getOrThrow(id);
    if (!(await this.tasks.delete(id))) {
      throw new NotFoundError(`Task "${id}" not found`, ErrorCode.TaskNotFound);
    }
    this.log.info({ task_id: id, requested_by: by }, 'engine.task.deleted');
    await this.publish('task.deleted', row, statusOf(row), by);
  }

  private async write(
    id: string,
    options: WriteOptions,
    eventType: TaskEventType,
    plan: (row: TaskEntity) => TaskChanges,
  ): Promise<TaskEntity> {
    const known = options.current?.id === id ? options.current : undefined;
    if (known && (options.expectedVersion === undefined || known.version === options.expectedVersion)) {
      const saved = await this.writeKnown(known, options, eventType, plan);
      if (saved) {
        return saved;
      }
    }
    for (let attempt = 1; ; attempt += 1) {
      const row = await this.getOrThrow(id);
      if (options.expectedVersion !== undefined && row.version !== options.expectedVersion) {
        throw versionConflict(id, options.expectedVersion, row.version);
      }
      const changes = plan(row);
      const saved = await this.tasks.compareAndSet(row, changes);
      if (saved) {
        await this.afterWrite(eventType, saved, statusOf(row), options);
        return saved;
      }
      if (options.expectedVersion !== undefined || attempt >= UNCONDITIONAL_ATTEMPTS) {
        const current = await this.getOrThrow(id);
        throw versionConflict(id, options.expectedVersion ?? row.version, current.version);
      }
    }
  }

  /**
   * One attempt against the caller's copy. Null when the copy was stale (the compare-and-set missed)
   * or the plan refused it: the caller's normal path then judges the stored row, so the answer is
   * always the one the stored row deserves.
   */
  private async writeKnown(
    known: TaskEntity,
    options: WriteOptions,
    eventType: TaskEventType,
    plan: (row: TaskEntity) => TaskChanges,
  ): Promise<TaskEntity | null> {
    let changes: TaskChanges;
    try {
      changes = plan(known);
    } catch {
      return null;
    }
    const saved = await this.tasks.compareAndSet(known, changes);
    if (saved) {
      await this.afterWrite(eventType, saved, statusOf(known), options);
    }
    return saved;
  }

  private async afterWrite(
    eventType: TaskEventType,
    saved: TaskEntity,
    previous: TaskStatus,
    options: WriteOptions,
  ): Promise<void> {
    const by = options.by;
    const status = statusOf(saved);
    if (status !== previous) {
      this.log.info(
        { task_id: saved.id, agent_id: saved.assigneeId, from: previous, to: status, requested_by: by },
        'engine.task.transitioned',
      );
    }
    await this.publish(eventType, saved, previous, by);
    if (status === 'assigned' && previous !== 'assigned' && options.hold !== true) {
      this.dispatch.assigned(saved);
    }
  }

  private publish(eventType: TaskEventType, row: TaskEntity, previous: TaskStatus | null, by: string): Promise<void> {
    return announce(this.bus, this.log, {
      channel: Channel.Tasks,
      event_type: eventType,
      payload: {
        task_id: row.id,
        status: statusOf(row),
        previous_status: previous,
        requested_by: by,
        version: row.version,
        task: toTaskDto(row),
      },
    });
  }
}

function versionConflict(id: string, expected: number, actual: number): ConflictError {
  return new ConflictError(
    `Task "${id}" is at version ${actual}, not ${expected}: re-read it and retry`,
    ErrorCode.TaskVersionConflict,
  );
}
