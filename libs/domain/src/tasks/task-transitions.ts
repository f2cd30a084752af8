import { ConflictError, ErrorCode } from '../errors';
import type { TaskStatus } from './task-enums';

/**
 * The task state machine as data: every legal `from → to`. A transition to the same state is never
 * legal; `completed` and `cancelled` have no exits.
 */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  created: ['assigned'],
  assigned: ['in_progress', 'blocked', 'cancelled', 'failed', 'interrupted'],
  in_progress: ['in_review', 'blocked', 'cancelled', 'failed', 'interrupted'],
  in_review: ['completed', 'in_progress', 'blocked', 'cancelled'],
  blocked: ['assigned'],
  failed: ['assigned'],
  interrupted: ['assigned'],
  completed: [],
  cancelled: [],
};

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'cancelled'];

/** States in which an assignee is mandatory, and the one state in which it is forbidden. */
export const ASSIGNEE_REQUIRED: readonly TaskStatus[] = ['assigned', 'in_progress', 'in_review', 'completed'];
const ASSIGNEE_FORBIDDEN: readonly TaskStatus[] = ['created'];

export function isTerminalStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

/** @throws ConflictError 4016 from a terminal state, 4015 for any other illegal move. */
export function assertTransition(from: TaskStatus, to: TaskStatus): void {
  if (canTransition(from, to)) {
    return;
  }
  if (isTerminalStatus(from)) {
    throw new ConflictError(
      `Task is ${from}, a terminal state: it cannot move to ${to}`,
      ErrorCode.TaskAlreadyTerminal,
    );
  }
  const legal = TASK_TRANSITIONS[from];
  throw new ConflictError(
    `Invalid task transition ${from} -> ${to} (allowed from ${from}: ${legal.join(', ')})`,
    ErrorCode.InvalidTaskTransition,
  );
}

/** Cancel is the transition to `cancelled`; a terminal task cannot be cancelled again. */
export function assertCancellable(from: TaskStatus): void {
  assertTransition(from, 'cancelled');
}

/**
 * The assignment invariant, checked on every write: `created` needs no assignee; assigned,
 * in_progress, in_review and completed need one; the other states allow either.
 * @throws ConflictError 4017
 */
export function assertAssignment(status: TaskStatus, assignedTo: string | null): void {
  if (ASSIGNEE_REQUIRED.includes(status) && !assignedTo) {
    throw new ConflictError(`A task that is ${status} must have an assignee`, ErrorCode.TaskAssignmentConflict);
  }
  if (ASSIGNEE_FORBIDDEN.includes(status) && assignedTo) {
    throw new ConflictError(
      'A created task cannot have an assignee: assign it with the transition created -> assigned',
      ErrorCode.TaskAssignmentConflict,
    );
  }
}
