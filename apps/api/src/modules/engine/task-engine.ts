import { existsSync } from 'node:fs';

import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  runMayContinueIn,
  type TaskJob,
  type TaskJobQueue,
  type TaskStatus,
  TERMINAL_TASK_STATUSES,
} from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import {
  APP_CONFIG,
  type AppConfig,
  DatabaseService,
  DistributedLock,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ReplicaIdentity,
  ReinitialisationHooks,
  ReinitialisationOrder,
  currentTraceparent,
  ServiceMetrics,
  StartupResumeHooks,
  withSpan,
  withTraceparent,
} from '@app/platform';

import { RunDispatch, statusOf, TaskLifecycle, type TaskMoved } from '../tasks';
import { AgentRunner, ENGINE_ACTOR } from './agent-runner';
import { RunHolds } from './holds/run-holds';
import { ReplicaLiveness } from './liveness/replica-liveness';
import { type ResumableRun, RunParking } from './parking/run-parking';
import type { RunControl } from './run-session';
import { InProcessTaskJobQueue } from './queue/in-process-task-job-queue';
import { PgBossTaskJobQueue } from './queue/pg-boss-task-job-queue';
import { RunRecovery } from './run-recovery';
import { settledWithin } from './settled-within';
import { WorkspaceManager } from './workspace/workspace-manager';

/** How often a replica looks for dead owners when liveness locks judge them. */
const LIVENESS_SWEEP_MS = 1_000;
/** Run owners judged per sweep. */
const OWNERS_PER_SWEEP = 500;
/** The longest a held run waits after its budget limit lifted before it is queued again. */
const HELD_CHECK_MAX_SECONDS = 10;
/** After the grace period and the abort, how long runs get to record their interruption. */
const CLEANUP_MS = 5_000;

/**
 * Schedules and supervises runs. A task that becomes `assigned` is queued (in process on SQLite,
 * pg-boss on Postgres); a worker claims it and the runner executes it. Running tasks heartbeat so
 * a replica that dies leaves them recoverable: at startup (and, on Postgres, periodically on one
 * replica) abandoned tasks go back to `assigned` and run again. SIGTERM stops cooperatively.
 */
@Injectable()
export class TaskEngine implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** This process's identity in `tasks.run_owner`. */
  readonly owner: string;
  private readonly log: Logger;
  private queue: TaskJobQueue | null = null;
  private stopping = false;
  private readonly abort = new AbortController();
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly stops = new Map<string, AbortController>();
  /** Tasks whose run here a move stopped: their claim is given back when the run ends. */
  private readonly movedAway = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly dispatch: RunDispatch,
    private readonly runner: AgentRunner,
    private readonly workspaces: WorkspaceManager,
    private readonly database: DatabaseService,
    private readonly lock: DistributedLock,
    private readonly hooks: ReinitialisationHooks,
    private readonly parking: RunParking,
    private readonly startupHooks: StartupResumeHooks,
    private readonly recovery: RunRecovery,
    private readonly holds: RunHolds,
    private readonly liveness: ReplicaLiveness,
    identity: ReplicaIdentity,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    private readonly metrics: ServiceMetrics,
  ) {
    this.owner = identity.owner;
    this.log = logging.forName('engine.dispatcher');
  }

  get isRunning(): boolean {
    return this.queue !== null && !this.stopping;
  }

  /** Task ids running on this replica now. */
  runningTasks(): string[] {
    return [...this.running.keys()];
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.engine.enabled) {
      this.log.warn({}, 'engine.dispatcher.disabled');
      return;
    }
    if (this.database.state !== 'ready') {
      // Persistence retries in the background; the engine follows once it is up.
      this.log.error({}, 'engine.dispatcher.waiting_for_persistence');
      const timer = setInterval(() => {
        if (this.database.state === 'ready' && !this.stopping && !this.queue) {
          clearInterval(timer);
          this.start().catch((error: unknown) => this.log.error({ err: error }, 'engine.dispatcher.start_failed'));
        }
      }, 2_000);
      timer.unref();
      this.timers.push(timer);
      return;
    }
    await this.start();
  }

  private async start(): Promise<void> {
    const engine = this.config.engine;
    await this.workspaces.init().catch((error: unknown) => {
      this.log.error({ err: error, dir: engine.workspaceDir }, 'engine.workspace.init_failed');
    });
    // This replica's liveness lock comes before any claim, so no run of it is ever judged without one.
    await this.liveness.start();
    this.queue = this.createQueue();
    await this.queue.start((job) => this.handle(job));
    const offAssigned = this.dispatch.onAssigned((task) => this.enqueue(task));
    const offMoves = this.dispatch.onMoved((move) => this.onTaskMoved(move));
    // Setup completion's runtime rebuild: tasks assigned before the company was ready are queued.
    const offRebuild = this.hooks.register({
      name: 'engine.rebuild',
      order: ReinitialisationOrder.Runtime,
      run: () => this.recover(false),
    });
    const offDecided = this.parking.onDecided((run) => this.enqueueResume(run));
    const offMetrics = this.metrics.onScrape('engine.queue', () => this.measureQueue());
    // Startup rule 11: decided but not resumed runs go last, once the server is up.
    const offResume = this.startupHooks.register({ name: 'engine.parked.redispatch', run: () => this.redispatch() });
    this.unsubscribe = () => {
      offMoves();
      offAssigned();
      offRebuild();
      offDecided();
      offResume();
      offMetrics();
    };
    await this.recover(true);
    await this.tidyLeftWorkspaces();
    this.every(engine.heartbeatSeconds * 1000, () => this.heartbeat());
    this.every(this.liveness.enabled ? LIVENESS_SWEEP_MS : engine.heartbeatSeconds * 2000, () => this.sweep());
    this.every(engine.heartbeatSeconds * 2000, async () => {
      await this.lock.tryRunExclusive('engine.parked', () => this.redispatch());
    });
    // Held runs whose budget limit lifted are queued again, on one replica at a time.
    this.every(Math.min(engine.heartbeatSeconds, HELD_CHECK_MAX_SECONDS) * 1000, async () => {
      await this.lock.tryRunExclusive('engine.held', () => this.holds.releaseReady());
    });
    this.log.info(
      { owner: this.owner, backend: this.config.persistence.backend, concurrency: engine.concurrency },
      'engine.dispatcher.started',
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.stopping) {
      return;
    }
    this.stopping = true;
    this.unsubscribe?.();
    this.timers.splice(0).forEach((timer) => clearInterval(timer));
    if (!this.queue) {
      return;
    }
    const queueStopped = this.queue.stop();
    const graceMs = this.config.engine.graceSeconds * 1000;
    this.log.info({ running: this.running.size, grace_ms: graceMs }, 'engine.shutdown.started');
    if (!(await this.settled(graceMs))) {
      this.log.warn({ running: this.runningTasks() }, 'engine.shutdown.force_cancel');
      this.abort.abort(new Error('engine shutting down'));
      if (!(await this.settled(CLEANUP_MS))) {
        await this.markInterrupted(this.runningTasks());
      }
    }
    await queueStopped;
    this.log.info({}, 'engine.shutdown.completed');
  }

  private createQueue(): TaskJobQueue {
    const { engine, persistence } = this.config;
    const onError = (error: unknown, job: TaskJob): void =>
      this.log.error({ err: error, task_id: job.taskId }, 'engine.job.failed');
    if (persistence.backend === 'postgres' && persistence.databaseUrl) {
      return new PgBossTaskJobQueue({
        connectionString: persistence.databaseUrl,
        concurrency: engine.concurrency,
        perAgentConcurrency: engine.perAgentConcurrency,
        heartbeatSeconds: Math.max(10, engine.heartbeatSeconds * 2),
        preparedStatements: persistence.preparedStatements,
        pool: persistence.queuePool,
        onError,
        log: (msg, fields) => this.log.info(fields ?? {}, msg),
      });
    }
    return new InProcessTaskJobQueue({
      concurrency: engine.concurrency,
      perAgentConcurrency: engine.perAgentConcurrency,
      onError,
    });
  }

  /** The queue's figures for a scrape: depth by state and the age of the oldest waiting job. */
  private measureQueue(): void {
    const queue = this.queue;
    if (!queue) {
      return;
    }
    const stats = queue.stats();
    this.metrics.queueDepth.set({ state: 'queued' }, stats.queued);
    this.metrics.queueDepth.set({ state: 'running' }, stats.running);
    const oldest = stats.oldestQueuedAt;
    this.metrics.queueOldestAge.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    const pool = stats.connections;
    if (pool) {
      this.metrics.dbPool.set({ pool: 'queue', state: 'in_use' }, pool.inUse);
      this.metrics.dbPool.set({ pool: 'queue', state: 'idle' }, pool.idle);
      this.metrics.dbPool.set({ pool: 'queue', state: 'waiting' }, pool.waiting);
    }
  }

  private enqueue(task: TaskEntity): void {
    if (!this.queue || this.stopping || !task.assigneeId) {
      return;
    }
    this.queue
      .enqueue({
        taskId: task.id,
        agentId: task.assigneeId,
        key: `${task.id}@${task.version}`,
        // The request (or run) that assigned it: the run continues its trace, wherever it runs.
        traceparent: currentTraceparent(),
      })
      .catch((error: unknown) => {
        this.log.error({ err: error, task_id: task.id }, 'engine.job.enqueue_failed');
      });
  }

  private enqueueResume(run: ResumableRun): void {
    if (!this.queue || this.stopping) {
      return;
    }
    this.queue
      .enqueue({ taskId: run.taskId, agentId: run.agentId, key: `${run.taskId}@resume-${run.approvalId}` })
      .catch((error: unknown) => this.log.error({ err: error, task_id: run.taskId }, 'engine.job.enqueue_failed'));
  }

  /**
   * Queues every decided parked run again (a job lost with a process, or one that arrived while its
   * run was still parking). A run whose task moved on meanwhile (a person cancelled it, or recovery
   * restarted it) is retired instead: it will not continue.
   */
  private async redispatch(): Promise<void> {
    for (const run of await this.parking.decidedRuns()) {
      const task = await this.lifecycle.find(run.taskId);
      if (task?.status === 'in_progress') {
        this.enqueueResume(run);
      } else {
        await this.parking.retire(run.approvalId);
      }
    }
  }

  /**
   * A person (or another replica) moved a task that runs here out of `in_progress` — cancelled,
   * blocked, failed, interrupted, deleted: the run stops at its next turn boundary and its call in
   * flight is aborted; the person's decision stands.
   */
  private onTaskMoved(move: TaskMoved): void {
    const stop = this.stops.get(move.taskId);
    const movedAway = move.deleted || !runMayContinueIn(move.status);
    if (stop && movedAway && move.requestedBy !== ENGINE_ACTOR && !stop.signal.aborted) {
      void this.stopIfMovedAway(move, stop);
    }
    // A task running here is tidied when its run ends.
    if ((move.deleted || isFinished(move.status)) && !this.running.has(move.taskId)) {
      void this.tidyWorkspace(move.taskId);
    }
  }

  /**
   * A task that will not run again gives its worktree back (the branch, with any uncommitted work
   * committed to it, stays): a run cancelled or deleted mid-way, a task completed by hand after a
   * merge conflict. Failures are logged; the worktree then waits for the next chance.
   */
  private async tidyWorkspace(taskId: string): Promise<void> {
    if (this.stopping) {
      return; // persistence is closing; the next start tidies up
    }
    try {
      if (!existsSync(this.workspaces.pathOf(taskId))) {
        return;
      }
      const task = await this.lifecycle.find(taskId);
      if (task && (!isFinished(task.status) || this.runningElsewhere(task))) {
        return;
      }
      if (await this.workspaces.retire(taskId)) {
        this.log.info({ task_id: taskId, status: task?.status ?? 'deleted' }, 'engine.workspace.retired');
      }
    } catch (error) {
      this.log.warn({ err: error, task_id: taskId }, 'engine.workspace.retire_failed');
    }
  }

  /**
   * Whether a run of the task goes on on another live replica (its heartbeat is fresh). The workspace
   * directory is shared by the replicas: such a run still works in the worktree, and that replica
   * tidies when the run ends.
   */
  runningElsewhere(task: TaskEntity): boolean {
    return (
      task.runOwner !== null &&
      task.runOwner !== this.owner &&
      task.runHeartbeatAt !== null &&
      task.runHeartbeatAt >= this.staleBefore()
    );
  }

  /**
   * Another owner whose heartbeat is older than this is dead: three missed beats on Postgres; on the
   * embedded backend there is no other replica, so every other owner is.
   */
  private staleBefore(): Date {
    return this.config.persistence.backend === 'sqlite'
      ? new Date('9999-12-31')
      : new Date(Date.now() - this.config.engine.heartbeatSeconds * 3000);
  }

  /** At startup: worktrees a previous process left behind for tasks that have finished since. */
  private async tidyLeftWorkspaces(): Promise<void> {
    const left = await this.workspaces.active().catch((error: unknown) => {
      this.log.warn({ err: error }, 'engine.workspace.list_failed');
      return [];
    });
    for (const taskId of left) {
      await this.tidyWorkspace(taskId);
    }
  }

  private async handle(job: TaskJob): Promise<void> {
    if (this.stopping || this.running.has(job.taskId)) {
      return;
    }
    const run = withTraceparent(job.traceparent, () =>
      withSpan('engine.run', { 'synthorg.task_id': job.taskId, 'synthorg.agent_id': job.agentId }, (span) =>
        this.runUntilSettled(job.taskId, job.agentId).then((status) => {
          span?.setAttribute('synthorg.run.status', status ?? 'not_applied');
          return status;
        }),
      ),
    ).catch((error: unknown) => {
      this.log.error({ err: error, task_id: job.taskId }, 'engine.run.crashed');
      return null;
    });
    this.running.set(job.taskId, run);
    let settled: TaskStatus | null;
    try {
      settled = await run;
    } finally {
      this.running.delete(job.taskId);
    }
    if (this.movedAway.delete(job.taskId)) {
      await this.releaseStopped(job.taskId);
    }
    // A run that left the task terminal has nothing to resume, and nothing can move the task again.
    if (!isFinished(settled)) {
      // A decision that came while the run was still parking found it busy: it resumes now.
      const decided = await this.parking.decidedFor(job.taskId).catch(() => null);
      if (decided) {
        this.enqueueResume(decided);
      }
    }
    await this.tidyWorkspace(job.taskId);
  }

  /**
   * Events of other replicas can arrive late: an older change (the task's creation, say) may reach
   * this replica after its run claimed the task. The stored row decides, so only a change that still
   * stands stops the run.
   */
  private async stopIfMovedAway(move: TaskMoved, stop: AbortController): Promise<void> {
    let current: TaskEntity | null;
    try {
      current = await this.lifecycle.find(move.taskId);
    } catch (error) {
      this.log.warn({ err: error, task_id: move.taskId }, 'engine.run.move_check_failed');
      return;
    }
    if (current !== null && runMayContinueIn(current.status as TaskStatus)) {
      this.log.debug({ task_id: move.taskId, status: move.status }, 'engine.run.stale_move_ignored');
      return;
    }
    if (!stop.signal.aborted) {
      const status = current?.status ?? 'deleted';
      this.log.info({ task_id: move.taskId, status }, 'engine.run.stopped_by_change');
      this.movedAway.add(move.taskId);
      stop.abort(new Error(`task moved to ${status}`));
    }
  }

  /** The run of the task going on in this process, if any (it settles when the run ends). */
  localRun(taskId: string): Promise<unknown> | undefined {
    return this.running.get(taskId);
  }

  /**
   * A run that stopped because someone interrupted its task did not apply its outcome, so the task
   * still names this process as its run owner: cleared, so that whoever waits for the run to end on
   * another replica (awaitRunEnd) need not wait for the heartbeat to go stale.
   */
  private async releaseStopped(taskId: string): Promise<void> {
    try {
      const task = await this.lifecycle.find(taskId);
      if (task?.status === 'interrupted' && task.runOwner === this.owner) {
        await this.lifecycle.update(taskId, () => ({ runOwner: null, runHeartbeatAt: null }), {
          by: ENGINE_ACTOR,
          expectedVersion: task.version,
          current: task,
        });
      }
    } catch (error) {
      // Someone moved the task on meanwhile: its owner is theirs to set.
      this.log.debug({ err: error, task_id: taskId }, 'engine.run.release_skipped');
    }
  }

  /**
   * Runs the task, and again while a failed run put it straight back to `assigned` (a retry): the
   * queue would drop that retry's job as a duplicate of the one still running here. Answers the
   * status the last run left the task in, when known.
   */
  private async runUntilSettled(taskId: string, assignee: string): Promise<TaskStatus | null> {
    // One stop switch per task: the engine's shutdown, or a human moving the task away mid-run.
    const own = new AbortController();
    this.stops.set(taskId, own);
    const onShutdown = (): void => own.abort(this.abort.signal.reason);
    this.abort.signal.addEventListener('abort', onShutdown);
    const control = { shouldStop: () => this.stopping || own.signal.aborted, signal: own.signal };
    try {
      return await this.runWhileAssigned(taskId, assignee, control);
    } finally {
      this.abort.signal.removeEventListener('abort', onShutdown);
      this.stops.delete(taskId);
    }
  }

  private async runWhileAssigned(taskId: string, assignee: string, control: RunControl): Promise<TaskStatus | null> {
    let stored: TaskStatus | null = null;
    while (!control.shouldStop()) {
      const end = await this.runner.run(taskId, this.owner, control, assignee);
      if (!end) {
        break;
      }
      stored = end.stored;
      if (isFinished(stored)) {
        break; // a terminal status stands: no re-read
      }
      const task = await this.lifecycle.find(taskId);
      stored = task ? statusOf(task) : null;
      if (stored !== 'assigned') {
        break;
      }
    }
    return stored;
  }

  /**
   * Recovers abandoned tasks (see RunRecovery) and queues every waiting task. With liveness locks the
   * owners are judged by the periodic sweep alone: this pass takes interrupted tasks and orphans.
   */
  private async recover(atStartup: boolean): Promise<void> {
    const none = this.liveness.enabled ? new Set<string>() : undefined;
    const waiting = await this.recovery.recover(this.staleBefore(), this.owner, atStartup, none);
    waiting.forEach((task) => this.enqueue(task));
  }

  private async heartbeat(): Promise<void> {
    await this.lifecycle.heartbeat(this.runningTasks(), this.owner, new Date());
    // Tasks still naming this replica whose run here is over (its outcome was lost with the database).
    if (
      this.config.persistence.backend === 'postgres' &&
      (await this.recovery.requeueStranded(this.owner, (id) => this.running.has(id))) > 0
    ) {
      this.log.warn({}, 'engine.recovery.stranded_requeued');
    }
  }

  /**
   * Periodic recovery on one replica at a time (a no-op wait on the embedded backend). With liveness
   * locks, an owner is dead when its lock is gone (ReplicaLiveness), whatever its heartbeat says: a
   * slow replica keeps its work, a killed one loses it within the grace and a sweep.
   */
  private async sweep(): Promise<void> {
    if (this.config.persistence.backend !== 'postgres') {
      return;
    }
    await this.lock.tryRunExclusive('engine.recovery', async () => {
      if (!this.liveness.enabled) {
        await this.recover(false);
        return;
      }
      const dead = await this.liveness.deadAmong(await this.lifecycle.runOwners(this.owner, OWNERS_PER_SWEEP));
      const waiting = await this.recovery.recover(this.staleBefore(), this.owner, false, dead);
      dead.forEach((owner) => this.liveness.forget(owner));
      waiting.forEach((task) => this.enqueue(task));
    });
  }

  private every(ms: number, fn: () => Promise<void>): void {
    const timer = setInterval(() => {
      if (!this.stopping) {
        fn().catch((error: unknown) => this.log.error({ err: error }, 'engine.dispatcher.tick_failed'));
      }
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private async settled(ms: number): Promise<boolean> {
    if (this.running.size === 0) {
      return true;
    }
    return (await settledWithin(Promise.allSettled([...this.running.values()]), ms)) && this.running.size === 0;
  }

  private async markInterrupted(taskIds: readonly string[]): Promise<void> {
    for (const id of taskIds) {
      await this.lifecycle
        .transition(id, 'interrupted', {
          by: ENGINE_ACTOR,
          changes: () => ({ runOwner: null, runHeartbeatAt: null, statusReason: 'interrupted by shutdown' }),
        })
        .catch((error: unknown) => this.log.warn({ err: error, task_id: id }, 'engine.shutdown.mark_failed'));
    }
  }
}

/** A task in a terminal state does not run again: its worktree can go (its branch stays). */
function isFinished(status: string | null): boolean {
  return TERMINAL_TASK_STATUSES.some((terminal) => terminal === status);
}
