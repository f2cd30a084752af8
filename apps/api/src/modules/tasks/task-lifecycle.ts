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
import { type TaskChanges, TasksRepository, withChanges } from './tasks.repository';

/** Every persisted task change is announced on the tasks channel (dashboards, other replicas). */
type TaskEventType = Exclude<EventTypeOf<typeof Channel.Tasks>, `coordination_${string}`>;

/**
 * What a write does to the row it is planned against: one set of changes per step. An edit and a
 * single move are one step; a path of moves (a run's in_review then completed) is one write of
 * several steps, each announced as its own change at its own version.
 */
type WritePlan = (row: TaskEntity) => TaskChanges[];

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

  /** The tasks an agent holds in the given statuses, oldest first (at most `limit`). */
  heldBy(agentId: string, statuses: readonly TaskStatus[], limit: number): Promise<TaskEntity[]> {
    return this.tasks.heldBy(agentId, statuses, limit);
  }

  /** Tasks waiting for a run (assigned), oldest first. */
  waiting(limit: number): Promise<TaskEntity[]> {
    return this.tasks.waiting(limit);
  }

  /** Runs a dead process left behind (see TasksRepository.abandoned). */
  abandoned(
    staleBefore: Date,
    limit: number,
    liveOwner: string,
    includeInterrupted: boolean,
    owners?: readonly string[],
  ): Promise<TaskEntity[]> {
    return this.tasks.abandoned(staleBefore, limit, liveOwner, includeInterrupted, owners);
  }

  /** The other run owners of tasks in progress. */
  runOwners(liveOwner: string, limit: number): Promise<string[]> {
    return this.tasks.runOwners(liveOwner, limit);
  }

  /** Tasks in progress with no run and no reason (see TasksRepository.orphaned). */
  orphaned(before: Date, limit: number): Promise<TaskEntity[]> {
    return this.tasks.orphaned(before, limit);
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
      return [changes];
    });
  }

  /** A state-machine move with the columns that travel with it (assignee, reason, run fields). */
  transition(
    id: string,
    target: TaskStatus,
    options: WriteOptions & { changes?: (row: TaskEntity) => TaskChanges },
  ): Promise<TaskEntity> {
    const { changes } = options;
    return this.transitionThrough(id, [target], { ...options, changes: changes && ((row) => changes(row)) });
  }

  /**
   * Several state-machine moves in one compare-and-set: each step is checked against the row the
   * step before leaves, and the columns of each (`changes` is asked per step, with that row) apply
   * in order. The version goes up by one per step, and every step is logged and announced as its
   * own move at its own version, exactly as separate transitions would be; only the intermediate
   * rows are never stored, so nobody can act on them (a run that completes passes through in_review
   * without a window in which a person could take it from there).
   */
  transitionThrough(
    id: string,
    path: readonly TaskStatus[],
    options: WriteOptions & { changes?: (row: TaskEntity, target: TaskStatus) => TaskChanges },
  ): Promise<TaskEntity> {
    if (path.length === 0) {
      return Promise.reject(new InternalError('a transition needs at least one step'));
    }
    return this.write(id, options, 'task.status_changed', (row) => {
      const steps: TaskChanges[] = [];
      let at = row;
      for (const target of path) {
        assertTransition(statusOf(at), target);
        const changes = { ...(options.changes?.(at, target) ?? {}), status: target };
        assertAssignment(target, changes.assignedTo === undefined ? at.assignedTo : changes.assignedTo);
        steps.push(changes);
        at = withChanges(at, changes, at.version + 1, at.updatedAt);
      }
      return steps;
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
    plan: WritePlan,
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
      const steps = plan(row);
      const saved = await this.tasks.compareAndSet(row, merged(steps), steps.length);
      if (saved) {
        await this.afterWrite(eventType, row, steps, saved, options);
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
    plan: WritePlan,
  ): Promise<TaskEntity | null> {
    let steps: TaskChanges[];
    try {
      steps = plan(known);
    } catch {
      return null;
    }
    const saved = await this.tasks.compareAndSet(known, merged(steps), steps.length);
    if (saved) {
      await this.afterWrite(eventType, known, steps, saved, options);
    }
    return saved;
  }

  /** Logs and announces each step of a write in order, at its own version; the last one is `saved`. */
  private async afterWrite(
    eventType: TaskEventType,
    base: TaskEntity,
    steps: readonly TaskChanges[],
    saved: TaskEntity,
    options: WriteOptions,
  ): Promise<void> {
    let at = base;
    for (const [i, changes] of steps.entries()) {
      const row = i === steps.length - 1 ? saved : withChanges(at, changes, base.version + i + 1, saved.updatedAt);
      await this.afterStep(eventType, row, statusOf(at), options);
      at = row;
    }
  }

  private async afterStep(
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

/** The columns a write of several steps leaves: each step's values over the ones before. */
function merged(steps: readonly TaskChanges[]): TaskChanges {
  const all: Record<string, unknown> = {};
  for (const changes of steps) {
    for (const [key, value] of Object.entries(changes)) {
      if (value !== undefined) {
        all[key] = value;
      }
    }
  }
  return all;
}

function versionConflict(id: string, expected: number, actual: number): ConflictError {
  return new ConflictError(
    `Task "${id}" is at version ${actual}, not ${expected}: re-read it and retry`,
    ErrorCode.TaskVersionConflict,
  );
}
