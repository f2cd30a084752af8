import type { DataSource, Migration } from 'typeorm';

/** Arbitrary constant key for the Postgres advisory lock that serialises migrations across replicas. */
export const MIGRATION_LOCK_KEY = 7_346_111_901;

/**
 * Applies pending migrations. On Postgres, replicas that start together take a session-level
 * advisory lock first, so exactly one migrates and the others find nothing left to do.
 */
export async function runMigrations(dataSource: DataSource): Promise<Migration[]> {
  if (dataSource.options.type !== 'postgres') {
    return dataSource.runMigrations({ transaction: 'each' });
  }
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await lockRunner.release();
  }
}

/**
 * The names of the known migrations not yet applied, oldest first (empty: the schema is current).
 * A database without the migrations table has all of them pending.
 */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const runner = dataSource.createQueryRunner();
  let applied: Set<string>;
  try {
    applied = (await runner.hasTable(table))
      ? new Set(((await runner.query(`SELECT name FROM ${table}`)) as { name: string }[]).map((row) => row.name))
      : new Set();
  } finally {
    await runner.release();
  }
  return dataSource.migrations
    .map((migration) => migration.name ?? migration.constructor.name)
    .filter((name) => !applied.has(name));
}

/** True when every known migration has been applied (readiness). */
export async function migrationsUpToDate(dataSource: DataSource): Promise<boolean> {
  return !(await dataSource.showMigrations());
}

/**
 * The statements TypeORM would still need to make the schema match the entities after all
 * migrations ran: an empty list means the migrations and the entities agree (no drift).
 */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}
