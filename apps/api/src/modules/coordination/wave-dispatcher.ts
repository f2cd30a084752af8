import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { InternalError, parentSteps, type SubtaskDefinition, subtaskSettled, type TaskStatus } from '@app/domain';
import type { AgentEntity, TaskEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { newTaskRow, RunDispatch, TaskLifecycle } from '../tasks';

/** A subtask and the agent routing chose for it. */
export interface RoutedSubtask {
  readonly definition: SubtaskDefinition;
  readonly agent: AgentEntity;
}

export interface DispatchOptions {
  readonly failFast: boolean;
  /** How long one wave may take to settle. */
  readonly waveTimeoutMs: number;
  /** Who asked for the coordination (the subtasks' creator). */
  readonly by: string;
}

export interface DispatchOutcome {
  /** The subtasks created, in dispatch order. */
  readonly taskIds: string[];
  readonly waveCount: number;
  /** Why dispatch stopped or what failed; null when every subtask completed. */
  readonly error: string | null;
}

/** Longest pause between two reads of a wave's tasks; a change announced on the bus ends it early. */
const POLL_MS = 500;

/**
 * Runs waves of subtasks through the engine: each wave's subtasks are created as tasks of their own
 * (parent_task_id set, dependencies on earlier waves' tasks) and assigned, which queues their runs on
 * the engine's job queue, so any replica's workers take them. The parent is held in progress meanwhile,
 * without a run of its own.
 */
@Injectable()
export class WaveDispatcher {
  private readonly log: Logger;

  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly dispatch: RunDispatch,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('coordination');
  }

  /** Moves the created parent to in progress under the coordinator, without a run of its own. */
  async claimParent(parent: TaskEntity, coordinator: AgentEntity, by: string): Promise<TaskEntity> {
    const assigned = await this.lifecycle.transition(parent.id, 'assigned', {
      by,
      expectedVersion: parent.version,
      current: parent,
      hold: true,
      changes: () => ({ assignedTo: coordinator.name, assigneeId: coordinator.id, statusReason: null }),
    });
    // No run owner: recovery leaves an ownerless task in progress alone, so the parent is never run
    // as a task of its own, even when this replica stops before the coordination ends.
    return this.lifecycle.transition(parent.id, 'in_progress', {
      by,
      expectedVersion: assigned.version,
      current: assigned,
      changes: (row) => ({ startedAt: row.startedAt ?? new Date(), statusReason: 'coordinating subtasks' }),
    });
  }

  /** Dispatches the waves in order; stops at a wave that does not settle, or that failed under fail_fast. */
  async run(parent: TaskEntity, waves: readonly RoutedSubtask[][], options: DispatchOptions): Promise<DispatchOutcome> {
    const taskIds: string[] = [];
    const idOf = new Map<string, string>();
    const nudge = this.nudger();
    let failures: string[] = [];
    let waveCount = 0;
    try {
      for (const [index, wave] of waves.entries()) {
        waveCount = index + 1;
        const ids = await this.dispatchWave(parent, wave, idOf, options.by);
        taskIds.push(...ids);
        this.log.info({ task_id: parent.id, wave: index + 1, subtasks: ids }, 'coordination.wave.dispatched');
        const settled = await this.waitForWave(ids, Date.now() + options.waveTimeoutMs, nudge);
        if (!settled) {
          return { taskIds, waveCount: index + 1, error: `wave ${index + 1} did not settle in time` };
        }
        const failed = settled.filter((t) => t.status !== 'completed').map((t) => `${t.id} (${t.status})`);
        failures = [...failures, ...failed];
        if (failed.length > 0 && options.failFast) {
          return {
            taskIds,
            waveCount: index + 1,
            error: `wave ${index + 1}: ${failed.join(', ')}; fail_fast stops here`,
          };
        }
      }
      return {
        taskIds,
        waveCount: waves.length,
        error: failures.length > 0 ? `not completed: ${failures.join(', ')}` : null,
      };
    } catch (error) {
      // The subtasks created so far still roll up, and the parent still moves to their status.
      this.log.error({ err: error, task_id: parent.id }, 'coordination.dispatch.failed');
      return { taskIds, waveCount, error: `dispatch failed: ${(error as Error).message}` };
    } finally {
      nudge.stop();
    }
  }

  /** The subtasks' current statuses (a deleted one is left out). */
  async statuses(taskIds: readonly string[]): Promise<TaskStatus[]> {
    const rows = await Promise.all(taskIds.map((id) => this.lifecycle.find(id)));
    return rows.filter((row): row is TaskEntity => row !== null).map((row) => row.status as TaskStatus);
  }

  /** Moves the parent from in progress to its rolled-up status. */
  async finishParent(parentId: string, target: TaskStatus, by: string): Promise<void> {
    const steps = parentSteps(target);
    if (steps === null) {
      throw new InternalError(`the parent cannot move from in_progress to ${target}`);
    }
    if (steps.length === 0) {
      await this.lifecycle.update(parentId, () => ({ statusReason: 'subtasks still open' }), { by });
      return;
    }
    for (const step of steps) {
      await this.lifecycle.transition(parentId, step, {
        by,
        changes: () => ({
          statusReason: step === 'completed' ? null : `subtasks rolled up to ${target}`,
          ...(step === 'completed' || step === 'cancelled' ? { completedAt: new Date() } : {}),
        }),
      });
    }
  }

  private async dispatchWave(
    parent: TaskEntity,
    wave: readonly RoutedSubtask[],
    idOf: Map<string, string>,
    by: string,
  ): Promise<string[]> {
    const rows = wave.map((routed) => subtaskRow(parent, routed.definition, idOf, by));
    rows.forEach((row, i) => idOf.set(wave[i].definition.id, row.id));
    for (const row of rows) {
      await this.lifecycle.create(row, by);
    }
    // All created before any is assigned: a wave's runs start together.
    for (const [i, row] of rows.entries()) {
      const agent = wave[i].agent;
      await this.lifecycle.transition(row.id, 'assigned', {
        by,
        expectedVersion: row.version,
        current: row,
        changes: () => ({ assignedTo: agent.name, assigneeId: agent.id }),
      });
    }
    return rows.map((row) => row.id);
  }

  /** The wave's rows once every one has settled; null at the deadline. */
  private async waitForWave(ids: readonly string[], deadline: number, nudge: Nudger): Promise<TaskEntity[] | null> {
    const settled = new Map<string, TaskEntity>();
    nudge.watch(ids);
    while (Date.now() < deadline) {
      for (const id of ids.filter((i) => !settled.has(i))) {
        const row = await this.lifecycle.find(id);
        if (row === null || subtaskSettled(row.status as TaskStatus, row.retryCount, row.maxRetries)) {
          settled.set(id, row ?? ({ id, status: 'cancelled' } as TaskEntity));
        }
      }
      if (settled.size === ids.length) {
        return ids.map((id) => settled.get(id) as TaskEntity);
      }
      await nudge.wait(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    }
    return null;
  }

  /**
   * Wakes a waiting wave as soon as one of its tasks changes on any replica. A change that arrives
   * while the wave's tasks are being read is kept, so the next wait returns at once and reads again.
   */
  private nudger(): Nudger {
    let watched: ReadonlySet<string> = new Set();
    let changed = false;
    let wake: (() => void) | null = null;
    const stop = this.dispatch.onMoved((move) => {
      if (watched.has(move.taskId)) {
        changed = true;
        wake?.();
      }
    });
    return {
      stop,
      watch: (ids) => {
        watched = new Set(ids);
        changed = false;
      },
      wait: (ms) =>
        new Promise<void>((resolve) => {
          const done = (): void => {
            clearTimeout(timer);
            wake = null;
            changed = false;
            resolve();
          };
          const timer = setTimeout(done, changed ? 0 : ms);
          wake = done;
        }),
    };
  }
}

interface Nudger {
  stop(): void;
  /** The tasks whose changes end a wait. */
  watch(ids: readonly string[]): void;
  wait(ms: number): Promise<void>;
}

function subtaskRow(
  parent: TaskEntity,
  definition: SubtaskDefinition,
  idOf: ReadonlyMap<string, string>,
  by: string,
): TaskEntity {
  return newTaskRow({
    title: definition.title,
    description: definition.description,
    type: parent.type,
    priority: parent.priority,
    project: parent.project,
    createdBy: by,
    dependencies: definition.dependencies.map((dep) => idOf.get(dep) ?? dep),
    estimatedComplexity: definition.estimatedComplexity,
    deadline: parent.deadline,
    maxRetries: parent.maxRetries,
    parentTaskId: parent.id,
  });
}
