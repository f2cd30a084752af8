import { DataSource } from 'typeorm';

import { createDataSource, preparingClient, StatementNames } from '@app/persistence';
import { createTestDatabase, type TestDatabase, testBackends } from '@app/testing';

const onPostgres = testBackends().includes('postgres') ? describe : describe.skip;

/** The statements prepared on the session `runner` holds, by text. */
async function preparedOn(runner: ReturnType<DataSource['createQueryRunner']>): Promise<string[]> {
  const rows = (await runner.query('SELECT statement FROM pg_prepared_statements ORDER BY prepare_time')) as Array<{
    statement: string;
  }>;
  return rows.map((row) => row.statement);
}

onPostgres('prepared statements on postgres', () => {
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

  it('should prepare a repeated parameterised statement once per connection and answer it as before', async () => {
    source = await createDataSource(db.settings).initialize();
    const runner = source.createQueryRunner();
    await runner.connect();
    try {
      const answers: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        answers.push(await runner.query('SELECT $1::int + 1 AS n', [i]));
      }

      expect(answers).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }], [{ n: 4 }]]);
      expect(await preparedOn(runner)).toEqual(['SELECT $1::int + 1 AS n']);
    } finally {
      await runner.release();
    }
  });

  it('should leave statements without parameters, and a text used once, unprepared', async () => {
    source = await createDataSource(db.settings).initialize();
    const runner = source.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT 1 AS one');
      await runner.query('SELECT 1 AS one');
      await runner.query('SELECT $1::text AS once', ['x']);

      expect(await preparedOn(runner)).toEqual([]);
    } finally {
      await runner.release();
    }
  });

  it("should run statements beyond a connection's limit unprepared, with the same answers", async () => {
    const names = new StatementNames({ threshold: 1, perConnection: 2 });
    source = await new DataSource({
      ...createDataSource({ ...db.settings, preparedStatements: false }).options,
      extra: { Client: preparingClient(names) },
    }).initialize();
    const runner = source.createQueryRunner();
    await runner.connect();
    try {
      const texts = ['SELECT $1::int AS a', 'SELECT $1::int AS b', 'SELECT $1::int AS c'];
      for (const text of texts) {
        expect(await runner.query(text, [7])).toEqual([{ [text.slice(-1)]: 7 }]);
      }

      expect(await preparedOn(runner)).toEqual(texts.slice(0, 2));
    } finally {
      await runner.release();
    }
  });

  it("should keep a transaction's statements in order and roll them back together", async () => {
    source = await createDataSource(db.settings).initialize();
    await source.query('CREATE TABLE prepared_probe (id int PRIMARY KEY, label text NOT NULL)');
    const insert = 'INSERT INTO prepared_probe (id, label) VALUES ($1, $2)';
    await source.query(insert, [1, 'kept']);
    await source.query(insert, [2, 'kept']);

    await expect(
      source.transaction(async (manager) => {
        await manager.query(insert, [3, 'rolled back']);
        await manager.query(insert, [1, 'duplicate']);
      }),
    ).rejects.toThrow(/duplicate key/);

    expect(await source.query('SELECT id, label FROM prepared_probe ORDER BY id')).toEqual([
      { id: 1, label: 'kept' },
      { id: 2, label: 'kept' },
    ]);
  });

  describe("when a schema change alters a prepared statement's result type", () => {
    const select = 'SELECT label FROM stale_probe WHERE id = $1';

    async function preparedThenAltered(): Promise<ReturnType<DataSource['createQueryRunner']>> {
      source = await createDataSource(db.settings).initialize();
      await source.query('DROP TABLE IF EXISTS stale_probe');
      await source.query('CREATE TABLE stale_probe (id int PRIMARY KEY, label text NOT NULL)');
      await source.query("INSERT INTO stale_probe (id, label) VALUES (1, 'kept')");
      const runner = source.createQueryRunner();
      await runner.connect();
      await runner.query(select, [1]);
      await runner.query(select, [1]);
      expect(await preparedOn(runner)).toEqual([select]);
      // Another session (a migration of another replica, a restore) changes the column's type.
      await source.query('ALTER TABLE stale_probe ALTER COLUMN label TYPE varchar(20)');
      return runner;
    }

    it('should answer the call all the same, and run the text unprepared on that connection from then on', async () => {
      const runner = await preparedThenAltered();
      try {
        expect(await runner.query(select, [1])).toEqual([{ label: 'kept' }]);
        expect(await runner.query(select, [1])).toEqual([{ label: 'kept' }]);
        expect(await preparedOn(runner)).toEqual([]);
      } finally {
        await runner.release();
      }
    });

    it('should let the error stand inside a transaction, and answer the next call', async () => {
      const runner = await preparedThenAltered();
      try {
        await runner.startTransaction();
        await expect(runner.query(select, [1])).rejects.toThrow(/cached plan must not change result type/);
        await runner.rollbackTransaction();

        expect(await runner.query(select, [1])).toEqual([{ label: 'kept' }]);
      } finally {
        await runner.release();
      }
    });
  });

  it('should prepare nothing when turned off', async () => {
    source = await createDataSource({ ...db.settings, preparedStatements: false }).initialize();
    const runner = source.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT $1::int AS n', [1]);
      await runner.query('SELECT $1::int AS n', [2]);

      expect(await preparedOn(runner)).toEqual([]);
    } finally {
      await runner.release();
    }
  });
});
