import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

import { createDataSource, type PoolSettings } from '@app/persistence';
import { createTestDatabase, type TestDatabase, testBackends } from '@app/testing';

const onPostgres = testBackends().includes('postgres') ? describe : describe.skip;

/** The pg pool under a data source. */
const poolOf = (source: DataSource) => (source.driver as PostgresDriver).master as { totalCount: number };

/** Waits (bounded) until `done` holds; answers whether it did. */
async function eventually(done: () => boolean | Promise<boolean>, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (await done()) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

onPostgres('the connection pool on postgres', () => {
  let db: TestDatabase;
  let source: DataSource | null = null;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
  });

  afterEach(async () => {
    await source?.destroy();
    source = null;
  });

  afterAll(() => db?.drop());

  const open = (pool: Partial<PoolSettings>) =>
    createDataSource({ ...db.settings, applicationName: 'synthorg-pool-test', pool }).initialize();

  /** Connections of this test's data source, as the server counts them. */
  const serverSide = async (of: DataSource): Promise<number> => {
    const rows = await of.query<Array<{ n: number }>>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      ['synthorg-pool-test'],
    );
    return rows[0]?.n ?? 0;
  };

  /** Holds `count` connections at once, then gives them back. */
  const busy = async (of: DataSource, count: number): Promise<void> => {
    const runners = Array.from({ length: count }, () => of.createQueryRunner());
    await Promise.all(runners.map((runner) => runner.connect()));
    await Promise.all(runners.map((runner) => runner.query('SELECT 1')));
    await Promise.all(runners.map((runner) => runner.release()));
  };

  it('should close idle connections beyond the minimum after the idle time and keep the minimum open', async () => {
    source = await open({ size: 4, minIdle: 2, idleSeconds: 1 });
    await busy(source, 4);
    expect(poolOf(source).totalCount).toBe(4);

    const of = source;
    expect(await eventually(() => poolOf(of).totalCount === 2, 5_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // another idle time: the two stay

    expect(poolOf(source).totalCount).toBe(2);
    expect(await serverSide(source)).toBe(2);
  });

  it('should never open more connections than the pool size', async () => {
    const of = await open({ size: 3, minIdle: 0, idleSeconds: 60 });
    source = of;
    await Promise.all(Array.from({ length: 12 }, () => of.query('SELECT pg_sleep(0.05)')));

    expect(poolOf(source).totalCount).toBe(3);
    expect(await serverSide(source)).toBe(3);
  });

  it('should keep a statement prepared across a quiet spell on a connection kept open, and lose it without one', async () => {
    const preparedAfterQuietSpell = async (minIdle: number): Promise<string[]> => {
      const of = await open({ size: 1, minIdle, idleSeconds: 1 });
      try {
        await of.query('SELECT $1::int AS kept', [1]);
        await of.query('SELECT $1::int AS kept', [2]); // the second use prepares it
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        const rows = await of.query<Array<{ statement: string }>>('SELECT statement FROM pg_prepared_statements');
        return rows.map((row) => row.statement);
      } finally {
        await of.destroy();
      }
    };

    expect(await preparedAfterQuietSpell(1)).toEqual(['SELECT $1::int AS kept']);
    expect(await preparedAfterQuietSpell(0)).toEqual([]);
  });
});
