/** One task run to dispatch: the task to execute and the agent it is assigned to. */
export interface TaskJob {
  taskId: string;
  agentId: string;
  /**
   * De-duplication key of a durable queue (default: the task id). The engine passes the task's
   * assignment (id and version), so a recovered task is not mistaken for the dead run's job.
   */
  key?: string;
  /**
   * W3C trace context of the request that queued the run (`traceparent` header value): the run's
   * spans continue that trace, on whichever replica takes the job. Absent when tracing is off.
   */
  traceparent?: string;
}

export type TaskJobHandler = (job: TaskJob) => Promise<void>;

export interface TaskJobQueueStats {
  queued: number;
  running: number;
  /** When the oldest job still waiting to start was queued (epoch ms); null when none waits. */
  oldestQueuedAt: number | null;
  /** The connections of the queue's own database pool, when it keeps one (a Postgres queue). */
  connections?: TaskJobQueueConnections;
}

/** A database pool's connections: checked out, open and unused, and callers queued for one. */
export interface TaskJobQueueConnections {
  inUse: number;
  idle: number;
  waiting: number;
}

/** Dispatches task runs. At-least-once; a handler must tolerate a duplicate (it claims the task atomically). */
export abstract class TaskJobQueue {
  /** Begins dispatching to the handler. */
  abstract start(handler: TaskJobHandler): Promise<void>;
  /** Idempotent per taskId while that job is queued or running on this queue. */
  abstract enqueue(job: TaskJob): Promise<void>;
  /** Stops intake, then waits until running handlers settle (the caller makes them settle). */
  abstract stop(): Promise<void>;
  abstract stats(): TaskJobQueueStats;
}
