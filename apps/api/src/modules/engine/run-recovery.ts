import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import type { TaskEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { TaskLifecycle } from '../tasks';
import { ENGINE_ACTOR } from './run-finisher';
import { RunSpend } from './run-spend';

const FAR_FUTURE = new Date('9999-12-31');
/** Rows read per recovery pass; the sweep repeats until a pass finds fewer. */
const RECOVERY_BATCH = 200;

/**
 * Puts the tasks a dead process left behind back to `assigned` (in progress under a dead owner →
 * interrupted → assigned; interrupted → assigned) and finds every task waiting for a run. Before a
 * dead owner's tasks go back, its open budget reservations are settled (each at its estimate, once),
 * so that the runs that take its tasks over are judged against what was really spent, not against
 * calls that will never report. A task that cannot go back (another replica recovered it first, a
 * person moved it, it has no assignee) is left as it is. Tasks in progress with no run and no reason
 * (a write lost between two steps) are queued again too, or their reason recorded.
 */
@Injectable()
export class RunRecovery {
  private readonly log: Logger;

  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly spend: RunSpend,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.dispatcher');
  }

  /**
   * Recovers the tasks of owners whose heartbeat is older than `staleBefore`, or, when `deadOwners`
   * is given (liveness), of those owners alone (every interrupted task too at startup), and the
   * orphans untouched since `staleBefore`; answers the tasks waiting for a run, for
   * the caller to queue.
   */
  async recover(
    staleBefore: Date,
    liveOwner: string,
    atStartup: boolean,
    deadOwners?: ReadonlySet<string>,
  ): Promise<TaskEntity[]> {
    // Judged by liveness: only these owners' tasks, whatever their heartbeats say.
    const owners = deadOwners === undefined ? undefined : [...deadOwners];
    const before = owners === undefined ? staleBefore : FAR_FUTURE;
    let recovered = 0;
    let settled = 0;
    const settledOwners = new Set<string>();
    for (;;) {
      const batch = await this.lifecycle.abandoned(before, RECOVERY_BATCH, liveOwner, atStartup, owners);
      for (const owner of new Set(batch.map((task) => task.runOwner))) {
        if (owner !== null && !settledOwners.has(owner)) {
          settledOwners.add(owner);
          settled += await this.settle(owner);
        }
      }
      for (const task of batch) {
        recovered += (await this.restart(
          task,
          `recovered: run owner ${task.runOwner ?? 'unknown'} stopped before the run finished`,
        ))
          ? 1
          : 0;
      }
      if (batch.length < RECOVERY_BATCH) {
        break;
      }
    }
    const orphans = await this.requeueOrphans(staleBefore);
    const waiting = await this.lifecycle.waiting(10_000);
    if (recovered > 0 || orphans > 0 || atStartup) {
      this.log.info(
        { recovered, orphans, reservations_settled: settled, queued: waiting.length, at_startup: atStartup },
        'engine.recovery.completed',
      );
    }
    return waiting;
  }

  /** The dead owner's open reservations, charged at their estimates; a failure is logged (the budget sweep retries). */
  private async settle(owner: string): Promise<number> {
    try {
      const settled = await this.spend.settleAbandoned(owner);
      if (settled > 0) {
        this.log.warn({ previous_owner: owner, reservations: settled }, 'engine.recovery.reservations_settled');
      }
      return settled;
    } catch (error) {
      this.log.error({ err: error, previous_owner: owner }, 'engine.recovery.settle_failed');
      return 0;
    }
  }

  /**
   * Tasks in progress with no run and no reason: queued again when they have an assignee, else given
   * the reason they cannot run.
   */
  private async requeueOrphans(before: Date): Promise<number> {
    let queued = 0;
    for (const task of await this.lifecycle.orphaned(before, RECOVERY_BATCH)) {
      if (task.assigneeId === null) {
        await this.lifecycle
          .update(task.id, () => ({ statusReason: 'no run and no assignee: assign an agent to continue' }), {
            by: ENGINE_ACTOR,
            expectedVersion: task.version,
            current: task,
          })
          .catch((error: unknown) => this.log.debug({ err: error, task_id: task.id }, 'engine.task.orphan_skipped'));
        this.log.warn({ task_id: task.id }, 'engine.task.orphan_unassigned');
        continue;
      }
      if (await this.restart(task, 're-queued: in progress with no run and no reason')) {
        queued += 1;
        this.log.warn({ task_id: task.id }, 'engine.task.orphan_requeued');
      }
    }
    return queued;
  }

  /**
   * This replica's own tasks in progress that no run here holds any more: a run whose outcome could not
   * be written (the database went away as it ended). They go back to `assigned`, without settling any
   * reservation (this replica is alive; its runs settle their own). Answers how many went back.
   */
  async requeueStranded(owner: string, runsHere: (taskId: string) => boolean): Promise<number> {
    const mine = await this.lifecycle.abandoned(FAR_FUTURE, RECOVERY_BATCH, '', false, [owner]);
    let queued = 0;
    // Asked after the read: a run that claimed its task meanwhile is registered before its claim.
    for (const task of mine.filter((t) => !runsHere(t.id))) {
      if (await this.restart(task, 'recovered: the run ended without writing its outcome')) {
        queued += 1;
      }
    }
    return queued;
  }

  private async restart(task: TaskEntity, reason: string): Promise<boolean> {
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
