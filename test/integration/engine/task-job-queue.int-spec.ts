import { Client } from 'pg';
import { PgBoss } from 'pg-boss';

import type { TaskJob } from '@app/domain';
import { createTestDatabase, gate, type TestDatabase, testBackends } from '@app/testing';

import {
  PgBossTaskJobQueue,
  type PgBossTaskJobQueueOptions,
} from '../../../apps/api/src/modules/engine/queue/pg-boss-task-job-queue';

/** Polls until the predicate holds; fails after the deadline instead of hanging the suite. */
async function waitFor(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(25);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Records every delivery, per task and per replica. */
class Deliveries {
  readonly runs: Array<TaskJob & { replica: string; at: number }> = [];
  count(taskId: string): number {
    return this.runs.filter((r) => r.taskId === taskId).length;
  }
  byReplica(replica: string): number {
    return this.runs.filter((r) => r.replica === replica).length;
  }
}

const describePostgres = testBackends().includes('postgres') ? describe : describe.skip;

describePostgres('PgBossTaskJobQueue on postgres', () => {
  let db: TestDatabase;
  let queueNumber = 0;
  let queueName = '';
  const started: PgBossTaskJobQueue[] = [];
  const logged: Array<{ msg: string; fields?: object }> = [];

  function makeQueue(options: Partial<PgBossTaskJobQueueOptions> = {}): PgBossTaskJobQueue {
    const queue = new PgBossTaskJobQueue({
      connectionString: db.settings.databaseUrl ?? '',
      concurrency: 4,
      perAgentConcurrency: 2,
      queueName,
      pollingIntervalSeconds: 0.5,
      superviseIntervalSeconds: 1,
      log: (msg, fields) => logged.push({ msg, fields }),
      ...options,
    });
    started.push(queue);
    return queue;
  }

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
  });

  beforeEach(() => {
    queueNumber += 1;
    queueName = `task-runs-${queueNumber}`;
    logged.length = 0;
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((q) => q.stop()));
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('should run a job once when it is enqueued', async () => {
    const seen = new Deliveries();
    const queue = makeQueue();
    await queue.start((job) => {
      seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      return Promise.resolve();
    });
    await queue.enqueue({ taskId: 'task-1', agentId: 'agent-1' });

    await waitFor(() => seen.count('task-1') === 1, 'the run');
    await sleep(1200); // more than two polls: nothing is delivered again
    expect(seen.runs).toEqual([expect.objectContaining({ taskId: 'task-1', agentId: 'agent-1' })]);
    expect(queue.stats().running).toBe(0);
  }, 15_000);

  it("should run every job once with pg-boss's statements unprepared too (a transaction-mode pooler)", async () => {
    const seen = new Deliveries();
    const queue = makeQueue({ preparedStatements: false });
    await queue.start((job) => {
      seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      return Promise.resolve();
    });
    for (let i = 1; i <= 5; i++) {
      await queue.enqueue({ taskId: `task-${i}`, agentId: `agent-${i}` });
    }

    await waitFor(() => seen.runs.length === 5, 'the runs');
    await sleep(1200);
    expect(seen.runs.map((r) => r.taskId).sort()).toEqual(['task-1', 'task-2', 'task-3', 'task-4', 'task-5']);
  }, 15_000);

  it('should hold at most its pool size of connections however many slots run', async () => {
    const seen = new Deliveries();
    const queue = makeQueue({
      concurrency: 4,
      useListenNotify: false, // no LISTEN connection beside the pool: the count is the pool's alone
      pool: { size: 2, minIdle: 0, idleSeconds: 60 },
    });
    const observer = new Client({ connectionString: db.settings.databaseUrl ?? '' });
    await observer.connect();
    let most = 0;
    // What the queue reports of its pool (the metrics' `queue` pool) stays within the same bound.
    let mostReported = 0;
    let sampling = true;
    const sample = (async () => {
      while (sampling) {
        const { rows } = await observer.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'synthorg-task-queue'",
        );
        most = Math.max(most, rows[0]?.n ?? 0);
        const pool = queue.stats().connections;
        if (pool) {
          expect(pool.waiting).toBeGreaterThanOrEqual(0);
          mostReported = Math.max(mostReported, pool.inUse + pool.idle);
        }
        await sleep(20);
      }
    })();
    try {
      await queue.start(async (job) => {
        await sleep(50);
        seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      });
      for (let i = 1; i <= 12; i++) {
        await queue.enqueue({ taskId: `task-${i}`, agentId: `agent-${i}` });
      }

      await waitFor(() => seen.runs.length === 12, 'the runs');
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(2);
      expect(mostReported).toBeGreaterThan(0);
      expect(mostReported).toBeLessThanOrEqual(2);
    } finally {
      sampling = false;
      await sample;
      await observer.end();
    }
  }, 20_000);

  it('should wake an idle slot through LISTEN/NOTIFY instead of waiting out the poll', async () => {
    const seen = new Deliveries();
    const queue = makeQueue({ pollingIntervalSeconds: 30 });
    await queue.start((job) => {
      seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      return Promise.resolve();
    });
    await sleep(1500); // every slot has made its first fetch and now sleeps for 30 s

    const sentAt = Date.now();
    await queue.enqueue({ taskId: 'task-1', agentId: 'agent-1' });
    await waitFor(() => seen.count('task-1') === 1, 'the run', 10_000);

    expect(seen.runs[0].at - sentAt).toBeLessThan(10_000);
  }, 20_000);

  it('should take the next job as soon as a slot is done, not after the poll, once the sends have stopped', async () => {
    const seen = new Deliveries();
    const first = gate();
    // One slot, a 30 s poll and a queue cache older than the test: only the slot's own fetch-again
    // can take jobs 3 to 6 (job 2 is fetched because sends arrived while job 1 ran).
    const queue = makeQueue({
      concurrency: 1,
      perAgentConcurrency: 1,
      pollingIntervalSeconds: 30,
      superviseIntervalSeconds: 60,
    });
    await queue.start(async (job) => {
      seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      if (job.taskId === 'task-0') {
        await first.promise;
      }
    });
    await queue.enqueue({ taskId: 'task-0', agentId: 'agent-0' });
    await waitFor(() => seen.runs.length === 1, 'the first run');
    for (let i = 1; i <= 5; i++) {
      await queue.enqueue({ taskId: `task-${i}`, agentId: `agent-${i}` });
    }
    first.open();

    await waitFor(() => seen.runs.length === 6, 'the five queued runs', 10_000);
    expect(seen.runs.map((r) => r.taskId)).toEqual(['task-0', 'task-1', 'task-2', 'task-3', 'task-4', 'task-5']);
  }, 20_000);

  it('should run each of 50 jobs exactly once when two replicas share the queue', async () => {
    const seen = new Deliveries();
    const replicas = [makeQueue(), makeQueue()];
    // Both replicas start together, as pods of one deployment do: queue creation is idempotent.
    await Promise.all(
      replicas.map((queue, i) =>
        queue.start(async (job) => {
          seen.runs.push({ ...job, replica: `r${i}`, at: Date.now() });
          await sleep(100);
        }),
      ),
    );
    const ids = Array.from({ length: 50 }, (_, i) => `task-${i}`);
    await Promise.all(ids.map((id, i) => replicas[i % 2].enqueue({ taskId: id, agentId: `agent-${i % 10}` })));

    await waitFor(() => seen.runs.length >= 50, '50 runs', 20_000);
    await sleep(1200);
    expect(seen.runs).toHaveLength(50);
    expect(ids.filter((id) => seen.count(id) !== 1)).toEqual([]);
    expect(seen.byReplica('r0')).toBeGreaterThan(0);
    expect(seen.byReplica('r1')).toBeGreaterThan(0);
    expect(logged.filter((l) => l.msg === 'tasks.queue.error')).toEqual([]);
  }, 30_000);

  it('should drop a duplicate of a queued or running job and accept it again after the run', async () => {
    const seen = new Deliveries();
    const first = gate();
    const queue = makeQueue({ concurrency: 1 });
    await queue.start(async (job) => {
      seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      if (job.taskId === 'task-1' && seen.count('task-1') === 1) {
        await first.promise;
      }
    });
    await queue.enqueue({ taskId: 'task-1', agentId: 'agent-1' });
    await waitFor(() => seen.count('task-1') === 1, 'the first run');
    await queue.enqueue({ taskId: 'task-2', agentId: 'agent-2' });
    await queue.enqueue({ taskId: 'task-2', agentId: 'agent-2' }); // queued duplicate
    await queue.enqueue({ taskId: 'task-1', agentId: 'agent-1' }); // running duplicate

    first.open();
    await waitFor(() => seen.count('task-2') === 1, 'the run of task-2');
    await sleep(1200);
    expect(seen.count('task-1')).toBe(1);
    expect(seen.count('task-2')).toBe(1);

    await queue.enqueue({ taskId: 'task-1', agentId: 'agent-1' });
    await waitFor(() => seen.count('task-1') === 2, 'the second run of task-1');
  }, 20_000);

  it('should keep at most perAgentConcurrency runs of an agent while other agents overtake', async () => {
    const seen = new Deliveries();
    const running = new Map<string, number>();
    let maxA = 0;
    let maxTotal = 0;
    const queue = makeQueue({ concurrency: 4, perAgentConcurrency: 2 });
    await queue.start(async (job) => {
      seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      running.set(job.agentId, (running.get(job.agentId) ?? 0) + 1);
      maxA = Math.max(maxA, running.get('A') ?? 0);
      maxTotal = Math.max(
        maxTotal,
        [...running.values()].reduce((a, b) => a + b, 0),
      );
      await sleep(600); // longer than a poll, so the agent stays at its cap between its runs
      running.set(job.agentId, (running.get(job.agentId) ?? 1) - 1);
    });
    for (let i = 0; i < 6; i += 1) {
      await queue.enqueue({ taskId: `a-${i}`, agentId: 'A' });
    }
    await queue.enqueue({ taskId: 'b-0', agentId: 'B' });
    await queue.enqueue({ taskId: 'b-1', agentId: 'B' });

    await waitFor(() => seen.runs.length >= 8, '8 runs', 20_000);
    expect(maxA).toBe(2);
    expect(maxTotal).toBeLessThanOrEqual(4);
    const lastA = Math.max(...seen.runs.filter((r) => r.agentId === 'A').map((r) => r.at));
    const firstB = Math.min(...seen.runs.filter((r) => r.agentId === 'B').map((r) => r.at));
    expect(firstB).toBeLessThan(lastA);
  }, 25_000);

  it('should report a failing handler, not retry its job and carry on', async () => {
    const seen = new Deliveries();
    const onError = jest.fn();
    const queue = makeQueue({ concurrency: 1, onError });
    await queue.start((job) => {
      seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      return job.taskId === 'bad' ? Promise.reject(new Error('boom')) : Promise.resolve();
    });
    await queue.enqueue({ taskId: 'bad', agentId: 'agent-1' });
    await queue.enqueue({ taskId: 'good', agentId: 'agent-1' });

    await waitFor(() => seen.count('good') === 1, 'the run after the failure');
    await sleep(1200);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'boom' }), {
      taskId: 'bad',
      agentId: 'agent-1',
    });
    expect(seen.count('bad')).toBe(1);
  }, 15_000);

  it('should count the jobs waiting in the queue and the runs of this replica in stats', async () => {
    const release = gate();
    const queue = makeQueue({ concurrency: 1 });
    await queue.start(() => release.promise);
    for (const id of ['task-1', 'task-2', 'task-3']) {
      await queue.enqueue({ taskId: id, agentId: `agent-${id}` });
    }
    await waitFor(() => queue.stats().running === 1, 'the first run');
    // The backlog is pg-boss's count of a supervision pass (every second here), read in the background.
    await waitFor(() => queue.stats().queued === 2, 'the backlog of two', 5000);
    release.open();
  }, 15_000);

  it('should wait for a running handler and ignore later enqueues when stopped', async () => {
    const seen = new Deliveries();
    const release = gate();
    const queue = makeQueue();
    await queue.start(async (job) => {
      seen.runs.push({ ...job, replica: 'a', at: Date.now() });
      await release.promise;
    });
    await queue.enqueue({ taskId: 'task-1', agentId: 'agent-1' });
    await waitFor(() => queue.stats().running === 1, 'the run');

    let stopped = false;
    const stopping = queue.stop().then(() => (stopped = true));
    await sleep(300);
    expect(stopped).toBe(false);
    await expect(queue.enqueue({ taskId: 'task-2', agentId: 'agent-1' })).resolves.toBeUndefined();
    release.open();
    await stopping;
    expect(queue.stats()).toEqual(expect.objectContaining({ running: 0 }));
    expect(seen.runs.map((r) => r.taskId)).toEqual(['task-1']);
  }, 15_000);

  /**
   * A replica that fetched a job and died: a bare pg-boss instance claims the job, like the worker of
   * a replica does, and goes away without settling it (fetch() leaves nothing for its shutdown to fail).
   */
  async function claimAndDie(job: TaskJob): Promise<number> {
    const dead = new PgBoss({ connectionString: db.settings.databaseUrl ?? '', schema: 'pgboss', supervise: false });
    dead.on('error', () => undefined);
    await dead.start();
    await dead.send(queueName, job, { singletonKey: job.taskId, group: { id: job.agentId } });
    const [claimed] = await dead.fetch<TaskJob>(queueName);
    expect(claimed?.data).toEqual(job);
    const claimedAt = Date.now();
    await dead.stop({ graceful: false, close: true });
    return claimedAt;
  }

  async function expectRedelivery(options: Partial<PgBossTaskJobQueueOptions>, minDelayMs: number): Promise<void> {
    // The first replica only creates the queue with these settings and leaves.
    const creator = makeQueue(options);
    await creator.start(() => Promise.resolve());
    await creator.stop();
    const job = { taskId: 'orphan', agentId: 'agent-1' };
    const claimedAt = await claimAndDie(job);

    const seen = new Deliveries();
    await makeQueue(options).start((j) => {
      seen.runs.push({ ...j, replica: 'b', at: Date.now() });
      return Promise.resolve();
    });
    await waitFor(() => seen.count('orphan') === 1, 'the redelivery', 20_000);
    expect(seen.runs[0].at - claimedAt).toBeGreaterThanOrEqual(minDelayMs);
  }

  it('should deliver the job of a dead replica again when its claim expires', async () => {
    await expectRedelivery({ expireInSeconds: 2, heartbeatSeconds: null }, 1500);
  }, 20_000);

  it('should deliver the job of a dead replica again when its heartbeat stops', async () => {
    // expireInSeconds alone would keep the job for ten minutes; the missing heartbeat frees it.
    await expectRedelivery({ expireInSeconds: 600, heartbeatSeconds: 10 }, 9000);
  }, 25_000);
});
