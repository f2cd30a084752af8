import pg from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';

import { POSTGRES_MIGRATIONS } from '../migrations/postgres';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite';

import { ALL_ENTITIES } from './entities';
import { ReadableConstraintNamingStrategy } from './naming-strategy';
import { preparingClient, StatementNames } from './prepared-statements';

export type PersistenceBackend = 'sqlite' | 'postgres';

export interface PersistenceSettings {
  backend: PersistenceBackend;
  sqlitePath: string;
  databaseUrl: string | null;
  /** Postgres pool size per replica. */
  poolSize?: number;
  /** Application name shown in pg_stat_activity. */
  applicationName?: string;
  /**
   * Postgres: run repeated parameterised statements as named prepared statements (see
   * {@link preparingClient}); off behind a transaction-mode pooler that cannot carry them. Default on.
   */
  preparedStatements?: boolean;
}

// Timestamps are stored as UTC on Postgres whatever the process time zone: `timestamp` columns are
// written and read as UTC instead of the pg driver's local-time default.
pg.defaults.parseInputDatesAsUTC = true;
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value: string) => new Date(value.replace(' ', 'T') + 'Z'));

export function createDataSourceOptions(settings: PersistenceSettings): DataSourceOptions {
  const common = {
    entities: ALL_ENTITIES,
    namingStrategy: new ReadableConstraintNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    logging: false,
  } as const;
  if (settings.backend === 'postgres') {
    if (!settings.databaseUrl) {
      throw new Error('the postgres backend needs a database URL');
    }
    return {
      ...common,
      type: 'postgres',
      url: settings.databaseUrl,
      migrations: POSTGRES_MIGRATIONS,
      migrationsTransactionMode: 'each',
      poolSize: settings.poolSize ?? 10,
      applicationName: settings.applicationName ?? 'synthorg',
      connectTimeoutMS: 5000,
      ...(settings.preparedStatements === false ? {} : { extra: { Client: preparingClient(new StatementNames()) } }),
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: settings.sqlitePath,
    migrations: SQLITE_MIGRATIONS,
    migrationsTransactionMode: 'each',
    enableWAL: true,
    // TypeORM keeps 100 prepared statements by default; the service's hot set is larger, and a
    // statement evicted under load is prepared again on its next use.
    statementCacheSize: 1_000,
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      db.pragma('foreign_keys = ON');
      // WAL + NORMAL is durable across process crashes and ~4x faster than FULL for single-row writes.
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
    },
  };
}

export function createDataSource(settings: PersistenceSettings): DataSource {
  return new DataSource(createDataSourceOptions(settings));
}
