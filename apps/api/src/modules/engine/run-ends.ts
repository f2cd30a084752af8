import { Injectable } from '@nestjs/common';

import { TaskLifecycle } from '../tasks';
import { settledWithin } from './settled-within';
import { TaskEngine } from './task-engine';

/** How often a task whose run goes on on another replica is looked at again. */
const POLL_MS = 100;

/**
 * How a module that moved a task away from its run learns that the run is over. A run stops by
 * itself when its task is moved out of its run states (the engine watches every replica's task
 * moves); offboarding waits here before it hands a fired agent's tasks to someone else, so that the
 * old run can neither drop the new run's job nor apply its outcome over the new run's.
 */
@Injectable()
export class RunEnds {
  constructor(
    private readonly engine: TaskEngine,
    private readonly lifecycle: TaskLifecycle,
  ) {}

  /**
   * Waits (at most `timeoutMs`) until no run of the task goes on: its run in this process has ended,
   * and the task names no live run owner elsewhere (no owner, this process, or an owner whose
   * heartbeat went stale). True once that holds, false when time ran out.
   */
  async awaitEnd(taskId: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const local = this.engine.localRun(taskId);
      if (local && !(await settledWithin(local, deadline - Date.now()))) {
        return false;
      }
      const task = await this.lifecycle.find(taskId);
      if (!task || !this.engine.runningElsewhere(task)) {
        return true;
      }
      if (Date.now() >= deadline) {
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, deadline - Date.now())));
    }
  }
}
