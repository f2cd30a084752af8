import type { TaskJob } from '@app/domain';

import { InProcessTaskJobQueue, type InProcessTaskJobQueueOptions } from './in-process-task-job-queue';

/** A handler whose runs finish only when the test releases them. */
function controlledHandler() {
  const started: TaskJob[] = [];
  const releases = new Map<string, Array<(error?: Error) => void>>();
  const handler = jest.fn(
    (job: TaskJob) =>
      new Promise<void>((resolve, reject) => {
        started.push(job);
        const list = releases.get(job.taskId) ?? [];
        list.push((error) => (error ? reject(error) : resolve()));
        releases.set(job.taskId, list);
      }),
  );
  const release = async (taskId: string, error?: Error): Promise<void> => {
    const next = releases.get(taskId)?.shift();
    if (!next) {
      throw new Error(`no running handler for ${taskId}`);
    }
    next(error);
    await flush();
  };
  return { handler, started, release, startedIds: () => started.map((j) => j.taskId) };
}

/** Lets the queue's promise callbacks run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 3; i += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const job = (taskId: string, agentId = `agent-${taskId}`): TaskJob => ({ taskId, agentId });

describe(InProcessTaskJobQueue.name, () => {
  let queue: InProcessTaskJobQueue;
  let h: ReturnType<typeof controlledHandler>;

  async function startQueue(options: Partial<InProcessTaskJobQueueOptions> = {}): Promise<void> {
    queue = new InProcessTaskJobQueue({ concurrency: 2, perAgentConcurrency: 1, ...options });
    h = controlledHandler();
    await queue.start(h.handler);
  }

  afterEach(async () => {
    // Settle whatever a test left running so stop() resolves.
    const stopping = queue.stop();
    for (const { taskId } of h.started) {
      await h.release(taskId).catch(() => undefined);
    }
    await stopping;
  });

  it('should run at most `concurrency` handlers at once when more jobs are queued', async () => {
    await startQueue({ concurrency: 2, perAgentConcurrency: 5 });
    for (const id of ['t1', 't2', 't3', 't4']) {
      await queue.enqueue(job(id));
    }
    await flush();
    expect(h.startedIds()).toEqual(['t1', 't2']);
    expect(queue.stats()).toMatchObject({ queued: 2, running: 2, oldestQueuedAt: expect.any(Number) });

    await h.release('t1');
    expect(h.startedIds()).toEqual(['t1', 't2', 't3']);
    expect(queue.stats()).toMatchObject({ queued: 1, running: 2 });
  });

  it('should let jobs of other agents overtake when an agent is at its per-agent cap', async () => {
    await startQueue({ concurrency: 3, perAgentConcurrency: 1 });
    await queue.enqueue(job('a1', 'A'));
    await queue.enqueue(job('a2', 'A'));
    await queue.enqueue(job('b1', 'B'));
    await queue.enqueue(job('a3', 'A'));
    await flush();
    expect(h.startedIds()).toEqual(['a1', 'b1']);
    expect(queue.stats()).toMatchObject({ queued: 2, running: 2 });

    await h.release('a1');
    expect(h.startedIds()).toEqual(['a1', 'b1', 'a2']);
    await h.release('a2');
    expect(h.startedIds()).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('should allow several runs of one agent up to perAgentConcurrency', async () => {
    await startQueue({ concurrency: 5, perAgentConcurrency: 2 });
    for (const id of ['a1', 'a2', 'a3']) {
      await queue.enqueue(job(id, 'A'));
    }
    await flush();
    expect(h.startedIds()).toEqual(['a1', 'a2']);
  });

  it('should ignore a duplicate task id when the job is queued or running', async () => {
    await startQueue({ concurrency: 1 });
    await queue.enqueue(job('t1'));
    await queue.enqueue(job('t2'));
    await flush();
    await queue.enqueue(job('t1')); // running
    await queue.enqueue(job('t2')); // queued
    expect(queue.stats()).toMatchObject({ queued: 1, running: 1 });

    await h.release('t1');
    await h.release('t2');
    expect(h.startedIds()).toEqual(['t1', 't2']);
    expect(queue.stats()).toMatchObject({ queued: 0, running: 0, oldestQueuedAt: null });
  });

  it('should run a task again when it is re-enqueued after its run completed', async () => {
    await startQueue();
    await queue.enqueue(job('t1'));
    await flush();
    await h.release('t1');
    await queue.enqueue(job('t1'));
    await flush();
    expect(h.startedIds()).toEqual(['t1', 't1']);
  });

  it('should report a failing handler and carry on when a handler throws', async () => {
    const onError = jest.fn();
    await startQueue({ concurrency: 1, onError });
    await queue.enqueue(job('t1'));
    await queue.enqueue(job('t2'));
    await flush();
    const boom = new Error('boom');
    await h.release('t1', boom);

    expect(onError).toHaveBeenCalledWith(boom, job('t1'));
    expect(h.startedIds()).toEqual(['t1', 't2']);
  });

  it('should carry on when the handler throws synchronously and the reporter throws too', async () => {
    queue = new InProcessTaskJobQueue({
      concurrency: 1,
      perAgentConcurrency: 1,
      onError: () => {
        throw new Error('reporter down');
      },
    });
    h = controlledHandler();
    const seen: string[] = [];
    await queue.start((j) => {
      seen.push(j.taskId);
      if (j.taskId === 't1') {
        throw new Error('sync');
      }
      return Promise.resolve();
    });
    await queue.enqueue(job('t1'));
    await queue.enqueue(job('t2'));
    await flush();
    expect(seen).toEqual(['t1', 't2']);
    expect(queue.stats()).toMatchObject({ queued: 0, running: 0 });
  });

  it('should hold jobs enqueued before start and run them when started', async () => {
    queue = new InProcessTaskJobQueue({ concurrency: 2, perAgentConcurrency: 1 });
    h = controlledHandler();
    await queue.enqueue(job('t1'));
    await flush();
    expect(queue.stats()).toMatchObject({ queued: 1, running: 0 });
    await queue.start(h.handler);
    await flush();
    expect(h.startedIds()).toEqual(['t1']);
  });

  it('should wait for running handlers, drop queued jobs and ignore later enqueues when stopped', async () => {
    await startQueue({ concurrency: 1 });
    await queue.enqueue(job('t1'));
    await queue.enqueue(job('t2'));
    await flush();

    let stopped = false;
    const stopping = queue.stop().then(() => {
      stopped = true;
    });
    await flush();
    expect(stopped).toBe(false);
    expect(queue.stats()).toMatchObject({ queued: 0, running: 1 });
    await queue.enqueue(job('t3'));
    expect(queue.stats()).toMatchObject({ queued: 0, running: 1 });

    await h.release('t1');
    await stopping;
    expect(stopped).toBe(true);
    expect(h.startedIds()).toEqual(['t1']);
    expect(queue.stats()).toMatchObject({ queued: 0, running: 0 });
  });

  it('should resolve stop at once when nothing is running', async () => {
    await startQueue();
    await expect(queue.stop()).resolves.toBeUndefined();
    await expect(queue.start(h.handler)).rejects.toThrow('start() may be called once');
  });

  it('should refuse a concurrency below one when constructed', () => {
    h = controlledHandler();
    queue = new InProcessTaskJobQueue({ concurrency: 1, perAgentConcurrency: 1 });
    expect(() => new InProcessTaskJobQueue({ concurrency: 0, perAgentConcurrency: 1 })).toThrow('at least 1');
    expect(() => new InProcessTaskJobQueue({ concurrency: 1, perAgentConcurrency: 0 })).toThrow('at least 1');
  });
});
