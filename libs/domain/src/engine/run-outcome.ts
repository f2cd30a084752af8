import type { TaskStatus } from '../tasks/task-enums';
import type { TerminationReason } from './react-loop';

/** States a run may pass through on its own; a move elsewhere by someone else stops the run. */
export const RUN_STATES: readonly TaskStatus[] = ['assigned', 'in_progress', 'in_review', 'completed'];

/** Whether a task in this status (null: unknown or deleted) may still be under its run's control. */
export function runMayContinueIn(status: TaskStatus | null): boolean {
  return status !== null && RUN_STATES.includes(status);
}

export interface RunOutcomePlan {
  /** Transitions to apply in order, starting from `in_progress`. */
  steps: TaskStatus[];
  /** The retry count after the plan (incremented when a failed task is put back to assigned). */
  retryCount: number;
  /** Whether the run ended with a known outcome that feeds the agent's performance. */
  recordsMetric: boolean;
  /** The metric's success flag when one is recorded. */
  success: boolean;
}

/**
 * What a finished run does to its task (engine.md §4): completion goes through review to completed;
 * shutdown interrupts; an error fails the task and, while retries remain, puts it back to assigned
 * (fail-and-reassign recovery); max turns, budget exhaustion and parking leave it in progress with
 * the reason recorded.
 */
export function planRunOutcome(reason: TerminationReason, retryCount: number, maxRetries: number): RunOutcomePlan {
  switch (reason) {
    case 'completed':
      return { steps: ['in_review', 'completed'], retryCount, recordsMetric: true, success: true };
    case 'shutdown':
      return { steps: ['interrupted'], retryCount, recordsMetric: false, success: false };
    case 'error':
      return retryCount < maxRetries
        ? { steps: ['failed', 'assigned'], retryCount: retryCount + 1, recordsMetric: true, success: false }
        : { steps: ['failed'], retryCount, recordsMetric: true, success: false };
    case 'max_turns':
    case 'budget_exhausted':
    case 'parked':
      return { steps: [], retryCount, recordsMetric: false, success: false };
  }
}
