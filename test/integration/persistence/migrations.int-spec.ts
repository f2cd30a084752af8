import {
  createDataSource,
  MIGRATION_LOCK_KEY,
  migrationsUpToDate,
  pendingSchemaChanges,
  runMigrations,
} from '@app/persistence';
import { createTestDatabase, type TestDatabase, testBackends } from '@app/testing';

describe.each(testBackends())('migrations on %s', (backend) => {
  let db: TestDatabase;

  beforeEach(async () => {
    db = await createTestDatabase(backend);
  });

  afterEach(async () => {
    await db.drop();
  });

  it('should apply every migration and leave no drift between entities and schema', async () => {
    const ds = await createDataSource(db.settings).initialize();
    try {
      expect(await migrationsUpToDate(ds)).toBe(false);
      const applied = await runMigrations(ds);
      expect(applied.length).toBeGreaterThan(0);
      expect(await migrationsUpToDate(ds)).toBe(true);
      expect(await pendingSchemaChanges(ds)).toEqual([]);
    } finally {
      await ds.destroy();
    }
  });

  it('should revert every migration with its down step', async () => {
    const ds = await createDataSource(db.settings).initialize();
    try {
      const applied = await runMigrations(ds);
      for (let i = 0; i < applied.length; i++) {
        await ds.undoLastMigration();
      }
      const tables = await ds.createQueryRunner().getTables(['settings']);
      expect(tables).toHaveLength(0);
    } finally {
      await ds.destroy();
    }
  });

  it('should round-trip timestamps as UTC instants', async () => {
    const ds = await createDataSource(db.settings).initialize();
    try {
      await runMigrations(ds);
      const at = new Date('2026-03-04T05:06:07.000Z');
      await ds.getRepository('SettingEntity').insert({ namespace: 'api', key: 'k', value: 'v', updatedAt: at });
      const row = await ds.getRepository('SettingEntity').findOneByOrFail({ namespace: 'api', key: 'k' });
      expect((row as { updatedAt: Date }).updatedAt.toISOString()).toBe(at.toISOString());
    } finally {
      await ds.destroy();
    }
  });

  if (backend === 'postgres') {
    it('should let only one of several concurrent replicas migrate', async () => {
      const replicas = await Promise.all([1, 2, 3].map(() => createDataSource(db.settings).initialize()));
      try {
        const results = await Promise.all(replicas.map((ds) => runMigrations(ds)));
        const total = results.reduce((n, applied) => n + applied.length, 0);
        expect(total).toBe(results.find((r) => r.length > 0)?.length);
        // pg_locks lists the whole server's locks: only this database's count (other test files
        // migrate their own databases at the same time, under the same key).
        const [{ held }] = await replicas[0].query<[{ held: number }]>(
          `SELECT count(*)::int AS held FROM pg_locks
            WHERE locktype = $1 AND objid = $2
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          ['advisory', MIGRATION_LOCK_KEY % 2 ** 32],
        );
        expect(held).toBe(0);
      } finally {
        await Promise.all(replicas.map((ds) => ds.destroy()));
      }
    });
  }
});
