import { Inject, Injectable } from '@nestjs/common';

import {
  ConflictError,
  HANDED_OVER_STATUSES,
  InternalError,
  offboardingMarker,
  pickSuccessor,
  raisedPriority,
  type TaskPriority,
  type TaskStatus,
} from '@app/domain';
import type { OffboardingRecordEntity, TaskEntity, TaskHandoverEntry } from '@app/persistence';
import { APP_CONFIG, type AppConfig } from '@app/platform';

import { AgentRoster } from '../agents';
import { RunEnds } from '../engine';
import { TaskLifecycle, TaskStatistics } from '../tasks';

/** Tasks taken from one agent at most (far beyond what an agent holds). */
const HELD_LIMIT = 1_000;
/** A task's move is tried this often when others keep changing it meanwhile. */
const MOVE_ATTEMPTS = 5;

/** What waiting for the runs found: how many ended, and the tasks whose run still went on. */
export interface RunsStopped {
  stopped: number;
  late: string[];
}

/**
 * The task side of the offboarding pipeline: take the fired agent's open tasks (interrupted,
 * unassigned, priority raised one step, in one compare-and-set each), wait for their runs to end, and
 * hand each to the least loaded active colleague of the department. Every task move carries the
 * record's marker in its reason, so that a resumed step tells the tasks it moved itself from tasks
 * someone else moved, and moves nothing twice.
 */
@Injectable()
export class TaskHandover {
  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly statistics: TaskStatistics,
    private readonly roster: AgentRoster,
    private readonly runEnds: RunEnds,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The agent's assigned and in-progress tasks the record does not list yet, as planned entries. */
  async plan(record: OffboardingRecordEntity): Promise<TaskHandoverEntry[]> {
    const listed = new Set(record.handover.map((entry) => entry.taskId));
    const held = await this.lifecycle.heldBy(record.agentId, HANDED_OVER_STATUSES, HELD_LIMIT);
    return held
      .filter((task) => !listed.has(task.id))
      .map((task) => ({
        taskId: task.id,
        title: task.title,
        fromStatus: task.status,
        priorityBefore: task.priority,
        priorityAfter: raisedPriority(task.priority as TaskPriority),
        outcome: 'planned',
        toAgentId: null,
        toAgentName: null,
      }));
  }

  /**
   * Interrupts a planned task: still the agent's and open, it becomes interrupted, unassigned and one
   * step more urgent (its run, if any, stops on the move); already moved by this pipeline, it is
   * taken as it is; moved by someone else, it is left alone.
   */
  async interrupt(record: OffboardingRecordEntity, entry: TaskHandoverEntry): Promise<TaskHandoverEntry> {
    for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt += 1) {
      const task = await this.lifecycle.find(entry.taskId);
      if (task && movedByUs(task, record)) {
        return { ...entry, outcome: 'interrupted', priorityAfter: task.priority };
      }
      if (!task || task.assigneeId !== record.agentId || !HANDED_OVER_STATUSES.includes(task.status as TaskStatus)) {
        return { ...entry, outcome: 'moved' };
      }
      const priority = raisedPriority(task.priority as TaskPriority);
      const changes = {
        assignedTo: null,
        assigneeId: null,
        priority,
        statusReason: `${record.agentName} was fired (${record.reason}); to be handed to another agent ${offboardingMarker(record.id)}`,
      };
      const options = { by: record.requestedBy, expectedVersion: task.version, current: task };
      try {
        // Interrupted already (a shutdown stopped its run): only the columns change.
        await (task.status === 'interrupted'
          ? this.lifecycle.update(task.id, () => changes, options)
          : this.lifecycle.transition(task.id, 'interrupted', { ...options, changes: () => changes }));
        return {
          ...entry,
          fromStatus: task.status,
          priorityBefore: task.priority,
          priorityAfter: priority,
          outcome: 'interrupted',
        };
      } catch (error) {
        if (!(error instanceof ConflictError)) {
          throw error;
        }
      }
    }
    throw new InternalError(`task ${entry.taskId} kept changing while it was being interrupted`);
  }

  /**
   * Waits for the runs of the interrupted tasks to end: those in progress, and those a job had just
   * picked up while assigned (it stops before its claim). At most the engine's shutdown grace plus
   * three heartbeats in all, the time a live run gets to stop or a dead one to be seen as dead. Late
   * runs are reported; their tasks are handed over all the same. `stopped` counts the tasks that were
   * in progress.
   */
  async awaitRuns(entries: readonly TaskHandoverEntry[]): Promise<RunsStopped> {
    const deadline = Date.now() + (this.config.engine.graceSeconds + 3 * this.config.engine.heartbeatSeconds) * 1000;
    const result: RunsStopped = { stopped: 0, late: [] };
    for (const entry of entries.filter((e) => e.outcome === 'interrupted')) {
      if (!(await this.runEnds.awaitEnd(entry.taskId, Math.max(0, deadline - Date.now())))) {
        result.late.push(entry.taskId);
      } else if (entry.fromStatus === 'in_progress') {
        result.stopped += 1;
      }
    }
    return result;
  }

  /**
   * Chooses who takes each interrupted task not given one yet: the least loaded active colleague of
   * the department (what they hold plus what this hand-over gives them). The choice is saved before
   * any task moves, so a resumed step hands each task to the same agent.
   */
  async chooseSuccessors(
    record: OffboardingRecordEntity,
    entries: readonly TaskHandoverEntry[],
  ): Promise<TaskHandoverEntry[]> {
    const candidates = await this.roster.findByDepartment(record.department);
    const loads = new Map(await this.statistics.activeLoads());
    return entries.map((entry) => {
      if (entry.outcome !== 'interrupted' || entry.toAgentId !== null) {
        return entry;
      }
      const successor = pickSuccessor(candidates, { id: record.agentId, department: record.department }, loads);
      if (!successor) {
        return entry;
      }
      loads.set(successor.id, (loads.get(successor.id) ?? 0) + 1);
      return { ...entry, toAgentId: successor.id, toAgentName: successor.name };
    });
  }

  /**
   * Hands an interrupted task to its chosen agent (interrupted → assigned: the engine then runs it),
   * or, with nobody to take it, says so in its reason and leaves it interrupted and unassigned.
   */
  async reassign(record: OffboardingRecordEntity, entry: TaskHandoverEntry): Promise<TaskHandoverEntry> {
    if (entry.outcome !== 'interrupted') {
      return entry;
    }
    const task = await this.lifecycle.find(entry.taskId);
    if (!task || !movedByUs(task, record)) {
      // Handed over before a restart (it went to the chosen agent), or moved by someone else.
      const handed = task !== null && entry.toAgentId !== null && task.assigneeId === entry.toAgentId;
      return { ...entry, outcome: handed ? 'reassigned' : 'moved' };
    }
    const successor = entry.toAgentId === null ? null : await this.roster.findByRef(entry.toAgentId);
    if (!successor || successor.status !== 'active') {
      const why =
        entry.toAgentId === null
          ? `no other active agent in ${record.department}`
          : `${entry.toAgentName ?? entry.toAgentId}, chosen to take it, is no longer active`;
      const left = await this.leaveUnassigned(record, task, why);
      return { ...entry, outcome: left ? 'unassigned' : 'moved' };
    }
    const handed = await stillOurs(
      this.lifecycle.transition(task.id, 'assigned', {
        by: record.requestedBy,
        current: task,
        changes: (row) => {
          assertOurs(row, record);
          return {
            assignedTo: successor.name,
            assigneeId: successor.id,
            statusReason: `handed over from ${record.agentName}, who was fired ${offboardingMarker(record.id)}`,
          };
        },
      }),
    );
    return handed ? { ...entry, outcome: 'reassigned', toAgentName: successor.name } : { ...entry, outcome: 'moved' };
  }

  /** Says in the task's reason why nobody took it; false when someone moved the task meanwhile. */
  private leaveUnassigned(record: OffboardingRecordEntity, task: TaskEntity, why: string): Promise<boolean> {
    const reason = `${record.agentName} was fired (${record.reason}); ${why}: assign it by hand ${offboardingMarker(record.id)}`;
    if (task.statusReason === reason) {
      return Promise.resolve(true);
    }
    return stillOurs(
      this.lifecycle.update(
        task.id,
        (row) => {
          assertOurs(row, record);
          return { statusReason: reason };
        },
        { by: record.requestedBy, current: task },
      ),
    );
  }
}

/** Thrown by a write's plan when the stored task is no longer the one this pipeline moved. */
class MovedMeanwhile extends Error {}

function assertOurs(task: TaskEntity, record: OffboardingRecordEntity): void {
  if (!movedByUs(task, record)) {
    throw new MovedMeanwhile(`task ${task.id} was moved meanwhile`);
  }
}

/** Whether the write went through: false when its plan found the task moved by someone else. */
async function stillOurs(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof MovedMeanwhile) {
      return false;
    }
    throw error;
  }
}

/** An interrupted, unassigned task whose reason carries this record's marker: this pipeline moved it. */
function movedByUs(task: TaskEntity, record: OffboardingRecordEntity): boolean {
  return (
    task.status === 'interrupted' &&
    task.assigneeId === null &&
    (task.statusReason ?? '').includes(offboardingMarker(record.id))
  );
}
