import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { type ActivityEvent, type ActivitySource, Channel, clipDescription } from '@app/domain';
import type { HeldRunEntity, TaskEntity } from '@app/persistence';
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../../agents';
import { statusOf, TaskLifecycle } from '../../tasks';
import { ENGINE_ACTOR } from '../run-finisher';
import { RunSpend } from '../run-spend';
import { HeldRunsRepository } from './held-runs.repository';

/** The status reason of a held task starts with this (the reference's termination reason). */
export const HELD_REASON = 'budget_exhausted';
/** A hold whose task does not (yet) carry the held reason is dropped only after this long. */
const DROP_AFTER_MS = 60_000;
/** Held rows looked at per pass. */
const BATCH = 200;

/** What stopped a run: a spend limit's refusal, and the call it refused. */
export interface SpendStop {
  task: TaskEntity;
  agentId: string;
  provider: string;
  model: string;
  /** The refused call's estimated cost (0 when refused before any call: the run's start). */
  estimate: number;
  limit: string | null;
  code: number;
  detail: string;
}

/**
 * Runs stopped by a budget limit — in flight (the task stays in progress, as the reference says), at
 * their start (the pre-flight blocks the task) or after a recovery — are held, never left silent: the
 * task's status reason names `budget_exhausted`, the limit and the code; a `run.held` event and an
 * activity entry go out. A pass (on one replica at a time) asks the spend control whether the refused
 * call would fit now — a new period, a raised limit, released or settled reservations — and lets
 * each such task go: held → released is a compare-and-set, and its winner alone queues the task
 * again (in progress → interrupted → assigned, or blocked → assigned), so it resumes exactly once.
 */
@Injectable()
export class RunHolds {
  private readonly log: Logger;

  constructor(
    private readonly holds: HeldRunsRepository,
    private readonly lifecycle: TaskLifecycle,
    private readonly agents: AgentRoster,
    private readonly spend: RunSpend,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.dispatcher');
  }

  /** The status reason a held task carries. */
  static reasonOf(stop: Pick<SpendStop, 'limit' | 'code' | 'detail'>): string {
    return `${HELD_REASON}: ${stop.limit ?? 'budget'} limit [${stop.code}] ${stop.detail}`;
  }

  /** Whether the task is held as this module leaves it (no run, the held reason). */
  static isHeld(task: TaskEntity): boolean {
    return (
      task.runOwner === null &&
      (task.status === 'in_progress' || task.status === 'blocked') &&
      (task.statusReason ?? '').startsWith(HELD_REASON)
    );
  }

  /** Records the hold, logs it and announces it; failures are logged (the task keeps its reason). */
  async hold(stop: SpendStop): Promise<void> {
    const row: HeldRunEntity = {
      id: randomUUID(),
      taskId: stop.task.id,
      agentId: stop.agentId,
      provider: stop.provider.slice(0, 64),
      model: stop.model.slice(0, 256),
      estimateUsd: Math.max(0, stop.estimate),
      reason: HELD_REASON,
      limitName: stop.limit?.slice(0, 32) ?? null,
      code: stop.code,
      detail: stop.detail,
      state: 'held',
      heldAt: new Date(),
      releasedAt: null,
    };
    try {
      await this.holds.hold(row);
    } catch (error) {
      this.log.error({ err: error, task_id: row.taskId }, 'engine.run.hold_failed');
      return;
    }
    this.log.warn({ task_id: row.taskId, limit: row.limitName, code: row.code, reason: row.detail }, 'engine.run.held');
    await this.announce('run.held', row);
  }

  /**
   * One pass over the held tasks: those whose refused call fits again are queued once more. Answers
   * how many it let go.
   */
  async releaseReady(): Promise<number> {
    let released = 0;
    for (const row of await this.holds.held(BATCH)) {
      try {
        released += (await this.releaseIfFits(row)) ? 1 : 0;
      } catch (error) {
        this.log.warn({ err: error, task_id: row.taskId }, 'engine.run.release_check_failed');
      }
    }
    return released;
  }

  private async releaseIfFits(row: HeldRunEntity): Promise<boolean> {
    const task = await this.lifecycle.find(row.taskId);
    if (!task || !RunHolds.isHeld(task)) {
      if (task && Date.now() - row.heldAt.getTime() < DROP_AFTER_MS) {
        return false; // written just before its run's outcome: the task gets the held reason next
      }
      // A person moved it on (cancelled, unblocked, deleted): the hold has nothing left to resume.
      if (await this.holds.release(row.id, new Date(), 'dropped')) {
        this.log.info({ task_id: row.taskId, status: task?.status ?? 'deleted' }, 'engine.run.hold_dropped');
      }
      return false;
    }
    const agent = await this.agents.findByRef(row.agentId);
    if (!agent || agent.status !== 'active') {
      return false;
    }
    const verdict = await this.spend.check({
      task,
      agent,
      provider: row.provider,
      model: row.model,
      // Refused at its start (no call yet): resumes once the spend is below the limit, not at it.
      estimatedCost: row.estimateUsd > 0 ? row.estimateUsd : Number.EPSILON,
    });
    if (!verdict.ok || !(await this.holds.release(row.id, new Date()))) {
      return false;
    }
    const reason = `resumed: the ${row.limitName ?? 'budget'} limit lets the run through again`;
    try {
      let version = task.version;
      if (task.status === 'in_progress') {
        const interrupted = await this.lifecycle.transition(task.id, 'interrupted', {
          by: ENGINE_ACTOR,
          expectedVersion: version,
          current: task,
          changes: () => ({ runOwner: null, runHeartbeatAt: null, statusReason: reason }),
        });
        version = interrupted.version;
      }
      const queued = await this.lifecycle.transition(task.id, 'assigned', {
        by: ENGINE_ACTOR,
        expectedVersion: version,
        changes: () => ({ statusReason: reason }),
      });
      this.log.info({ task_id: task.id, limit: row.limitName, status: statusOf(queued) }, 'engine.run.released');
    } catch (error) {
      // A person moved the task between the read and the write: their move stands.
      this.log.warn({ err: error, task_id: task.id }, 'engine.run.release_not_applied');
      return false;
    }
    await this.announce('run.released', row);
    return true;
  }

  /** The feed's entries: a hold, and its release when there was one. */
  activitySource(): ActivitySource {
    return {
      name: 'held_run_store',
      eventTypes: ['status_changed'],
      read: async (since, agentId) => (await this.holds.since(since, agentId, 2000)).flatMap(heldEvents),
    };
  }

  private async announce(type: 'run.held' | 'run.released', row: HeldRunEntity): Promise<void> {
    await announce(this.bus, this.log, {
      channel: Channel.Budget,
      event_type: type,
      payload: {
        task_id: row.taskId,
        agent_id: row.agentId,
        reason: row.reason,
        limit: row.limitName,
        code: row.code,
        detail: row.detail,
      },
    });
  }
}

function heldEvents(row: HeldRunEntity): ActivityEvent[] {
  const related = { agent_id: row.agentId, task_id: row.taskId };
  const limit = row.limitName ?? 'budget';
  const events: ActivityEvent[] = [
    {
      event_type: 'status_changed',
      timestamp: row.heldAt.toISOString(),
      description: clipDescription(`Run of task ${row.taskId} held: ${limit} limit [${row.code}] ${row.detail}`),
      related_ids: related,
    },
  ];
  if (row.state === 'released' && row.releasedAt) {
    events.push({
      event_type: 'status_changed',
      timestamp: row.releasedAt.toISOString(),
      description: clipDescription(`Run of task ${row.taskId} released: the ${limit} limit lets it through again`),
      related_ids: related,
    });
  }
  return events;
}
