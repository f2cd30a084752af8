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
