import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import type { TaskEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { TaskLifecycle } from '../tasks';
import { ENGINE_ACTOR } from './run-finisher';

/** Rows read per recovery pass; the sweep repeats until a pass finds fewer. */
const RECOVERY_BATCH = 200;

/**
 * Puts the tasks a dead process left behind back to `assigned` (in progress under a dead owner →
 * interrupted → assigned; interrupted → assigned) and finds every task waiting for a run. A task
 * that cannot go back (another replica recovered it first, a person moved it, it has no assignee)
 * is left as it is.
 */
@Injectable()
export class RunRecovery {
  private readonly log: Logger;

  constructor(
    private readonly lifecycle: TaskLifecycle,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.dispatcher');
  }

  /**
   * Recovers the tasks of owners whose heartbeat is older than `staleBefore` (every interrupted task
   * too at startup) and answers the tasks waiting for a run, for the caller to queue.
   */
  async recover(staleBefore: Date, liveOwner: string, atStartup: boolean): Promise<TaskEntity[]> {
    let recovered = 0;
    for (;;) {
      const batch = await this.lifecycle.abandoned(staleBefore, RECOVERY_BATCH, liveOwner, atStartup);
      for (const task of batch) {
        recovered += (await this.restart(task)) ? 1 : 0;
      }
      if (batch.length < RECOVERY_BATCH) {
        break;
      }
    }
    const waiting = await this.lifecycle.waiting(10_000);
    if (recovered > 0 || atStartup) {
      this.log.info({ recovered, queued: waiting.length, at_startup: atStartup }, 'engine.recovery.completed');
    }
    return waiting;
  }

  private async restart(task: TaskEntity): Promise<boolean> {
    const reason = `recovered: run owner ${task.runOwner ?? 'unknown'} stopped before the run finished`;
    try {
      let version = task.version;
      if (task.status === 'in_progress') {
        const interrupted = await this.lifecycle.transition(task.id, 'interrupted', {
          by: ENGINE_ACTOR,
          expectedVersion: version,
          changes: () => ({ runOwner: null, runHeartbeatAt: null, statusReason: reason }),
        });
        version = interrupted.version;
      }
      await this.lifecycle.transition(task.id, 'assigned', {
        by: ENGINE_ACTOR,
        expectedVersion: version,
        changes: () => ({ runOwner: null, runHeartbeatAt: null, statusReason: reason }),
      });
      this.log.warn({ task_id: task.id, previous_owner: task.runOwner }, 'engine.task.recovered');
      return true;
    } catch (error) {
      // Another replica recovered it first, or a human moved it: nothing to do.
      this.log.debug({ err: error, task_id: task.id }, 'engine.task.recovery_skipped');
      return false;
    }
  }
}
