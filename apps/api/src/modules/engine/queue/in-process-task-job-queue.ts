import { type TaskJob, type TaskJobHandler, TaskJobQueue, type TaskJobQueueStats } from '@app/domain';

export interface InProcessTaskJobQueueOptions {
  /** Handlers running at once in this process. */
  concurrency: number;
  /** Handlers running at once for one agent. */
  perAgentConcurrency: number;
  /** Called when a handler throws; the queue carries on with the next job. */
  onError?: (error: unknown, job: TaskJob) => void;
}

/**
 * The job queue of the embedded (SQLite, single-process) deployment: a FIFO list in memory. Nothing
 * here is durable, and it need not be: a job lost with the process is re-enqueued from the task
 * table at the next startup.
 */
export class InProcessTaskJobQueue extends TaskJobQueue {
  private readonly waiting: TaskJob[] = [];
  // Task ids queued or running: an enqueue of one of them is a duplicate.
  private readonly pending = new Set<string>();
  private readonly runningPerAgent = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** When each waiting job was queued (for the age of the oldest). */
  private readonly queuedAt = new WeakMap<TaskJob, number>();
  private handler: TaskJobHandler | null = null;
  private stopped = false;

  constructor(private readonly options: InProcessTaskJobQueueOptions) {
    super();
    if (!(options.concurrency >= 1) || !(options.perAgentConcurrency >= 1)) {
      throw new Error('task job queue: concurrency and perAgentConcurrency must be at least 1');
    }
  }

  start(handler: TaskJobHandler): Promise<void> {
    if (this.stopped || this.handler) {
      return Promise.reject(new Error('task job queue: start() may be called once, before stop()'));
    }
    this.handler = handler;
    this.dispatch();
    return Promise.resolve();
  }

  enqueue(job: TaskJob): Promise<void> {
    if (this.stopped || this.pending.has(job.taskId)) {
      return Promise.resolve();
    }
    this.pending.add(job.taskId);
    const queued: TaskJob = {
      taskId: job.taskId,
      agentId: job.agentId,
      ...(job.traceparent ? { traceparent: job.traceparent } : {}),
    };
    this.queuedAt.set(queued, Date.now());
    this.waiting.push(queued);
    this.dispatch();
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Queued jobs are dropped: their tasks are still pending in the task table, where the next
    // startup finds them.
    for (const job of this.waiting.splice(0)) {
      this.pending.delete(job.taskId);
    }
    while (this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight]);
    }
  }

  stats(): TaskJobQueueStats {
    // Jobs leave the list in order, but for one of a busy agent: the first waits longest.
    const first = this.waiting[0];
    return {
      queued: this.waiting.length,
      running: this.inFlight.size,
      oldestQueuedAt: first === undefined ? null : (this.queuedAt.get(first) ?? null),
    };
  }

  /** Starts every waiting job that fits, oldest first; a job whose agent is busy keeps its place. */
  private dispatch(): void {
    const handler = this.handler;
    if (!handler || this.stopped) {
      return;
    }
    let index = 0;
    while (index < this.waiting.length && this.inFlight.size < this.options.concurrency) {
      const job = this.waiting[index];
      if ((this.runningPerAgent.get(job.agentId) ?? 0) >= this.options.perAgentConcurrency) {
        index += 1;
        continue;
      }
      this.waiting.splice(index, 1);
      this.launch(handler, job);
    }
  }

  private launch(handler: TaskJobHandler, job: TaskJob): void {
    this.runningPerAgent.set(job.agentId, (this.runningPerAgent.get(job.agentId) ?? 0) + 1);
    const run = this.run(handler, job).finally(() => {
      this.inFlight.delete(run);
      this.pending.delete(job.taskId);
      const left = (this.runningPerAgent.get(job.agentId) ?? 1) - 1;
      if (left > 0) {
        this.runningPerAgent.set(job.agentId, left);
      } else {
        this.runningPerAgent.delete(job.agentId);
      }
      this.dispatch();
    });
    this.inFlight.add(run);
  }

  private async run(handler: TaskJobHandler, job: TaskJob): Promise<void> {
    try {
      await handler(job);
    } catch (error) {
      try {
        this.options.onError?.(error, job);
      } catch {
        // A failing error reporter must not stall the queue either.
      }
    }
  }
}
