import { type Job, type JobResult, PgBoss } from 'pg-boss';

import {
  type TaskJob,
  type TaskJobHandler,
  TaskJobQueue,
  type TaskJobQueueConnections,
  type TaskJobQueueStats,
} from '@app/domain';
import { DEFAULT_POOL, pgPoolOptions, type PoolSettings, preparingClient, StatementNames } from '@app/persistence';

export interface PgBossTaskJobQueueOptions {
  connectionString: string;
  /** Handlers running at once on this replica. */
  concurrency: number;
  /** Handlers running at once for one agent on this replica. */
  perAgentConcurrency: number;
  /** Default `task-runs`. */
  queueName?: string;
  /** Schema holding pg-boss's own tables; default `pgboss`. */
  schema?: string;
  /**
   * Longest a run may hold its job (default 3600, at most 86400). Past it pg-boss stops waiting for
   * the handler on this replica and hands the job out again. It is also the only recovery bound for
   * a dead replica when heartbeats are off: short recovers crashed runs sooner, but a run that
   * legitimately lasts longer is delivered a second time (the handler's claim then skips it).
   */
  expireInSeconds?: number;
  /**
   * Liveness of a claimed job (default 30, at least 10; null turns it off). A running job is
   * touched every half interval; a job not touched for this long (its replica died) is handed out
   * again at the next supervision pass, however long expireInSeconds is.
   */
  heartbeatSeconds?: number | null;
  /**
   * Idle poll of each worker slot, at least 0.5; default 1. With LISTEN/NOTIFY up, a new job wakes
   * idle slots at once and this poll is only the backstop.
   */
  pollingIntervalSeconds?: number;
  /** LISTEN/NOTIFY wake-ups (one more connection per replica); default on. Off: polling only. */
  useListenNotify?: boolean;
  /** How often expired and heartbeat-stale jobs are looked for; default 15. */
  superviseIntervalSeconds?: number;
  /** Deliveries after the first when a run expires or its replica dies (default 3); not used for handler errors. */
  maxRedeliveries?: number;
  /**
   * pg-boss's repeated statements (a slot's fetch, a job's completion) run as prepared statements on
   * its pool's connections, as the service's own do (`SYNTHORG_DB_PREPARED_STATEMENTS`); default on.
   */
  preparedStatements?: boolean;
  /** Its own pg pool (`SYNTHORG_DB_QUEUE_POOL_SIZE`); default pg-boss's ten connections, two kept while idle. */
  pool?: PoolSettings;
  onError?: (error: unknown, job: TaskJob) => void;
  log?: (msg: string, fields?: object) => void;
}

/** The counters of a pg pool. */
interface PoolCounters {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

type Settings = Required<Omit<PgBossTaskJobQueueOptions, 'onError' | 'log'>>;

const POLICY = 'exclusive';

/**
 * The job queue of Postgres deployments, on pg-boss: each run is fetched by one replica
 * (SKIP LOCKED), and a run whose replica died becomes available again (heartbeat or expiry).
 *
 * - De-duplication: an `exclusive` queue with singletonKey = job key (default taskId) admits one job per key while
 *   it is created, retried or active; a duplicate send is dropped by a unique index.
 * - Per-agent limit: the job's group is its agent and pg-boss's localGroupConcurrency leaves the
 *   jobs of an agent at capacity in the table, for this replica's next poll or another replica,
 *   instead of holding them (and their expiry clock) while they wait.
 * - Handler errors: reported through onError and the job is failed terminally (no pg-boss retry;
 *   the engine retries through the task status). Only an expired or heartbeat-stale run is retried.
 * - Pickup: a send notifies (LISTEN/NOTIFY), waking idle slots on every replica at once; a slot
 *   that finishes a job fetches again straight away, and waits out the poll only after an empty
 *   fetch; the poll is the backstop for jobs whose notification was missed.
 */
export class PgBossTaskJobQueue extends TaskJobQueue {
  private readonly settings: Settings;
  private boss: PgBoss | null = null;
  private handler: TaskJobHandler | null = null;
  private stopping: Promise<void> | null = null;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private backlog = 0;
  private oldestQueuedAt: number | null = null;
  private backlogReadAt = 0;
  private backlogReading = false;

  constructor(private readonly options: PgBossTaskJobQueueOptions) {
    super();
    if (!(options.concurrency >= 1) || !(options.perAgentConcurrency >= 1)) {
      throw new Error('task job queue: concurrency and perAgentConcurrency must be at least 1');
    }
    this.settings = {
      connectionString: options.connectionString,
      concurrency: options.concurrency,
      perAgentConcurrency: options.perAgentConcurrency,
      queueName: options.queueName ?? 'task-runs',
      schema: options.schema ?? 'pgboss',
      expireInSeconds: options.expireInSeconds ?? 3600,
      heartbeatSeconds: options.heartbeatSeconds === undefined ? 30 : options.heartbeatSeconds,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
      useListenNotify: options.useListenNotify ?? true,
      superviseIntervalSeconds: options.superviseIntervalSeconds ?? 15,
      maxRedeliveries: options.maxRedeliveries ?? 3,
      preparedStatements: options.preparedStatements ?? true,
      pool: options.pool ?? DEFAULT_POOL,
    };
  }

  async start(handler: TaskJobHandler): Promise<void> {
    if (this.boss || this.stopping) {
      throw new Error('task job queue: start() may be called once, before stop()');
    }
    const s = this.settings;
    const boss = this.createBoss();
    this.boss = boss;
    this.handler = handler;
    try {
      await boss.start();
      await this.ensureQueue(boss);
      await boss.work<TaskJob>(
        s.queueName,
        {
          batchSize: 1,
          localConcurrency: s.concurrency,
          // pg-boss refuses a group limit above the slot count; such a limit would not bind anyway.
          localGroupConcurrency: Math.min(s.perAgentConcurrency, s.concurrency),
          pollingIntervalSeconds: s.pollingIntervalSeconds,
          notifyPollingIntervalSeconds: s.pollingIntervalSeconds,
          perJobResults: true,
        },
        async (jobs) => {
          const results = await this.track(this.inFlight, Promise.all(jobs.map((job) => this.run(job))));
          this.fetchAgainWhenDone(boss);
          return results;
        },
      );
    } catch (error) {
      this.boss = null;
      await boss.stop({ graceful: false, close: true }).catch(() => undefined);
      throw error;
    }
    this.options.log?.('tasks.queue.started', { queue: s.queueName, concurrency: s.concurrency });
  }

  /**
   * A slot that ran a job fetches again as soon as it is done, and waits out the poll only after an
   * empty fetch. pg-boss's own burst mode reads a backlog count that can be seconds old, so after a
   * burst of sends a slot would otherwise take one job per poll. The handler does not know which
   * slot runs it, so every slot still holding a job is marked: each fetches again after its own job,
   * which is what it would be told anyway, and idle slots keep waiting.
   */
  private fetchAgainWhenDone(boss: PgBoss): void {
    for (const slot of boss.getWipData()) {
      if (slot.name === this.settings.queueName && slot.count > 0) {
        boss.notifyWorker(slot.id);
      }
    }
  }

  async enqueue(job: TaskJob): Promise<void> {
    if (this.stopping) {
      return;
    }
    const boss = this.boss;
    if (!boss) {
      throw new Error('task job queue: enqueue() before start()');
    }
    const data: TaskJob = {
      taskId: job.taskId,
      agentId: job.agentId,
      ...(job.traceparent ? { traceparent: job.traceparent } : {}),
    };
    // A null id means a job for this task is already queued or running.
    await this.track(
      this.pending,
      boss.send(this.settings.queueName, data, { singletonKey: job.key ?? job.taskId, group: { id: job.agentId } }),
    );
  }

  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  stats(): TaskJobQueueStats {
    this.refreshBacklog();
    const connections = this.connections();
    return {
      queued: this.backlog,
      running: this.inFlight.size,
      oldestQueuedAt: this.oldestQueuedAt,
      ...(connections ? { connections } : {}),
    };
  }

  /**
   * The connections of pg-boss's pg pool (its fetches, completions and supervision; its LISTEN
   * connection is a client of its own, outside the pool). pg-boss keeps the pool on its database
   * object without typing it as public, so the counters are read only when they are there.
   */
  private connections(): TaskJobQueueConnections | null {
    const boss = this.boss;
    if (!boss || this.stopping) {
      return null;
    }
    const pool = (boss.getDb() as unknown as { pool?: Partial<PoolCounters> }).pool;
    if (
      typeof pool?.totalCount !== 'number' ||
      typeof pool.idleCount !== 'number' ||
      typeof pool.waitingCount !== 'number'
    ) {
      return null;
    }
    return { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
  }

  private createBoss(): PgBoss {
    const s = this.settings;
    const boss = new PgBoss({
      connectionString: s.connectionString,
      schema: s.schema,
      application_name: 'synthorg-task-queue',
      // Cron is not used by this queue; supervision is, for expiry and heartbeats.
      schedule: false,
      supervise: true,
      superviseIntervalSeconds: s.superviseIntervalSeconds,
      monitorIntervalSeconds: s.superviseIntervalSeconds,
      // pg-boss's cached queue settings (its notify flag among them) are refreshed this often (default 60 s).
      queueCacheIntervalSeconds: s.superviseIntervalSeconds,
      useListenNotify: s.useListenNotify,
      // pg-boss hands its options to its pg pool: size, idle minimum, idle timeout and keepalive, and
      // the documented `Client` option, which picks the client class.
      ...pgPoolOptions(s.pool),
      ...(s.preparedStatements ? { Client: preparingClient(new StatementNames()) } : {}),
    });
    // pg-boss reports connection and maintenance failures as events; an EventEmitter without an
    // `error` listener would throw them at the process instead.
    boss.on('error', (error) => this.options.log?.('tasks.queue.error', { error: error.message }));
    boss.on('warning', (w) => this.options.log?.('tasks.queue.warning', { message: w.message }));
    return boss;
  }

  /** Creates the queue (a no-op when another replica did) and brings its settings to this config. */
  private async ensureQueue(boss: PgBoss): Promise<void> {
    const s = this.settings;
    const settings = {
      retryLimit: s.maxRedeliveries,
      retryDelay: 0,
      expireInSeconds: s.expireInSeconds,
      // Each send also notifies, in its own transaction, so idle slots on every replica wake at once.
      notify: true,
    };
    await boss.createQueue(s.queueName, {
      policy: POLICY,
      ...settings,
      ...(s.heartbeatSeconds === null ? {} : { heartbeatSeconds: s.heartbeatSeconds }),
    });
    await boss.updateQueue(s.queueName, { ...settings, heartbeatSeconds: s.heartbeatSeconds });
    const queue = await boss.getQueue(s.queueName);
    if (queue?.policy !== POLICY) {
      throw new Error(
        `task job queue: queue "${s.queueName}" exists with policy "${String(queue?.policy)}", ` +
          `but de-duplication needs "${POLICY}"; drop it or use another queue name`,
      );
    }
  }

  private async run(job: Job<TaskJob>): Promise<JobResult> {
    const data: TaskJob = {
      taskId: job.data.taskId,
      agentId: job.data.agentId,
      ...(typeof job.data.traceparent === 'string' ? { traceparent: job.data.traceparent } : {}),
    };
    try {
      await this.handler?.(data);
      return { id: job.id, status: 'completed' };
    } catch (error) {
      this.report(error, data);
      // Terminal: the engine decides about retries from the task's status, not the queue.
      return { id: job.id, status: 'deadletter', output: { message: messageOf(error) } };
    }
  }

  private report(error: unknown, job: TaskJob): void {
    try {
      if (this.options.onError) {
        this.options.onError(error, job);
      } else {
        this.options.log?.('tasks.job.failed', { task_id: job.taskId, error: messageOf(error) });
      }
    } catch {
      // A failing error reporter must not fail the job's settlement.
    }
  }

  private async shutdown(): Promise<void> {
    const boss = this.boss;
    if (!boss) {
      return;
    }
    await Promise.allSettled([...this.pending]);
    // Stops every worker slot fetching and waits for the handlers it is running.
    await boss.offWork(this.settings.queueName, { wait: true });
    // pg-boss stops waiting for a handler past expireInSeconds; the port promises to wait for it.
    while (this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight]);
    }
    await Promise.allSettled([...this.pending]);
    await boss.stop({ graceful: true, close: true, timeout: 1000 });
    this.options.log?.('tasks.queue.stopped', { queue: this.settings.queueName });
  }

  /**
   * Reads the queue's backlog in the background. pg-boss recounts it once per supervision pass, so
   * reading it more often than that would only repeat the same figure.
   */
  private refreshBacklog(): void {
    const boss = this.boss;
    const fresh = Date.now() - this.backlogReadAt < this.settings.superviseIntervalSeconds * 1000;
    if (!boss || this.stopping || this.backlogReading || fresh) {
      return;
    }
    this.backlogReading = true;
    const read = Promise.all([boss.getQueue(this.settings.queueName), this.readOldestQueued(boss)])
      .then(([queue, oldest]) => {
        this.backlog = queue?.queuedCount ?? 0;
        this.oldestQueuedAt = oldest;
      })
      .catch((error: unknown) => this.options.log?.('tasks.queue.error', { error: messageOf(error) }))
      .finally(() => {
        this.backlogReading = false;
        this.backlogReadAt = Date.now();
      });
    void this.track(this.pending, read);
  }

  /** When the oldest job waiting to be fetched was created (epoch ms), or null. */
  private async readOldestQueued(boss: PgBoss): Promise<number | null> {
    const schema = this.settings.schema.replace(/"/g, '""');
    const result = await boss
      .getDb()
      .executeSql(
        `SELECT min(created_on) AS oldest FROM "${schema}".job WHERE name = $1 AND state IN ('created', 'retry')`,
        [this.settings.queueName],
      );
    const oldest = (result.rows[0] as { oldest?: Date | string | null } | undefined)?.oldest ?? null;
    return oldest === null ? null : new Date(oldest).getTime();
  }

  private track<T>(set: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> {
    set.add(promise);
    void promise.finally(() => set.delete(promise)).catch(() => undefined);
    return promise;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
