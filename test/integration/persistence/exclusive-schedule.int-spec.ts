import pino from 'pino';
import type { DataSource } from 'typeorm';

import { createDataSource } from '@app/persistence';
import { type DatabaseService, DistributedLock, ExclusiveSchedule } from '@app/platform';
import { createTestDatabase, gate, type TestDatabase, testBackends } from '@app/testing';

const log = pino({ level: 'silent' });

describe.each(testBackends())('ExclusiveSchedule on %s', (backend) => {
  let db: TestDatabase;
  const sources: DataSource[] = [];
  let sqliteLock: DistributedLock | null = null;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
  });

  afterAll(async () => {
    for (const source of sources.splice(0)) {
      await source.destroy();
    }
    await db?.drop();
  });

  /**
   * A replica's lock, on a connection of its own; SQLite runs one replica, whose process-wide lock
   * its schedules share.
   */
  async function replicaLock(): Promise<DistributedLock> {
    if (sqliteLock) {
      return sqliteLock;
    }
    const source = await createDataSource(db.settings).initialize();
    sources.push(source);
    const lock = new DistributedLock({ dataSource: source, state: 'ready' } as unknown as DatabaseService);
    if (backend === 'sqlite') {
      sqliteLock = lock;
    }
    return lock;
  }

  it('should run one pass at a time across replicas: the others skip that round', async () => {
    const [lockA, lockB] = [await replicaLock(), await replicaLock()];
    const release = gate();
    let passes = 0;
    const schedule = (lock: DistributedLock) =>
      new ExclusiveSchedule<number>({
        name: 'test.exclusive_schedule',
        intervalMs: 60_000,
        pass: async () => {
          passes += 1;
          await release.promise;
          return passes;
        },
        lock,
        database: { state: 'ready' },
        log,
        failedEvent: 'test.schedule.failed',
      });
    const [a, b] = [schedule(lockA), schedule(lockB)];

    const first = a.runOnce();
    // A holds the pass (its lock is taken once its pass has begun).
    for (let i = 0; i < 100 && passes === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await expect(b.runOnce()).resolves.toEqual({ ran: false });
    release.open();
    await expect(first).resolves.toEqual({ ran: true, value: 1 });
    // Released: the next round runs wherever its timer fires.
    await expect(b.runOnce()).resolves.toEqual({ ran: true, value: 2 });
  });
});
