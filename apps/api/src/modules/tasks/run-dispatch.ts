import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, TASK_STATUSES, type TaskStatus } from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import { EventBus, LOGGING_RUNTIME, type LoggingRuntime, subscribeTo, type TypedReceivedEvent } from '@app/platform';

/** A task that a write on this replica has just moved to `assigned`: it has an assignee and waits for a run. */
export type AssignedTask = TaskEntity & { readonly status: 'assigned'; readonly assigneeId: string };

/** A persisted change of a task, announced by this replica or another one. */
export interface TaskMoved {
  readonly taskId: string;
  /** The status after the change (for a deletion, the status it was deleted in); null if unknown. */
  readonly status: TaskStatus | null;
  readonly deleted: boolean;
  /** Who made the change: a username, an agent name, or `engine`. */
  readonly requestedBy: string | null;
}

/** Receives tasks ready for a run. */
export type AssignedHandler = (task: AssignedTask) => void;

/** Receives every replica's task changes. */
export type MovedHandler = (move: TaskMoved) => void;

/**
 * The hand-off from tasks to runs. The task lifecycle reports here every persisted move to
 * `assigned` made on this replica, whoever made it (the API, recovery, a retry); the engine
 * registers the handler that queues the run (a durable queue on Postgres, so any replica's worker
 * may take it). Task changes made on any replica reach `onMoved`, so a run stops on whichever
 * replica it runs when a person moves its task away.
 */
@Injectable()
export class RunDispatch {
  private readonly log: Logger;
  private readonly assignedHandlers: AssignedHandler[] = [];

  constructor(
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.tasks');
  }

  /** Registers the run side of the hand-off; the returned function unregisters it. */
  onAssigned(handler: AssignedHandler): () => void {
    this.assignedHandlers.push(handler);
    return () => {
      const index = this.assignedHandlers.indexOf(handler);
      if (index >= 0) {
        this.assignedHandlers.splice(index, 1);
      }
    };
  }

  /** Subscribes to the task changes of every replica; the returned function unsubscribes. */
  onMoved(handler: MovedHandler): () => void {
    return subscribeTo(this.bus, Channel.Tasks, (event) => {
      const move = taskMoveOf(event);
      if (move) {
        handler(move);
      }
    });
  }

  /** Called by the task lifecycle after a persisted move to `assigned`. */
  assigned(task: TaskEntity): void {
    if (!isAssigned(task)) {
      return;
    }
    for (const handler of this.assignedHandlers) {
      try {
        handler(task);
      } catch (error) {
        // The write is saved and announced; a handler's failure must not turn it into an error.
        this.log.error({ err: error, task_id: task.id }, 'engine.task.listener_failed');
      }
    }
  }
}

function isAssigned(task: TaskEntity): task is AssignedTask {
  return task.status === 'assigned' && task.assigneeId !== null && task.assigneeId !== '';
}

/**
 * The task change an event on the tasks channel announces; null without a task id. Events of other
 * replicas were parsed from JSON, so each field is checked rather than trusted.
 */
function taskMoveOf(event: TypedReceivedEvent<typeof Channel.Tasks>): TaskMoved | null {
  const { task_id: taskId, status, requested_by: requestedBy } = event.payload as Record<string, unknown>;
  if (typeof taskId !== 'string') {
    return null;
  }
  return {
    taskId,
    status: TASK_STATUSES.find((known) => known === status) ?? null,
    deleted: event.event_type === 'task.deleted',
    requestedBy: typeof requestedBy === 'string' ? requestedBy : null,
  };
}
