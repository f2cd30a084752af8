import pg from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';

import { POSTGRES_MIGRATIONS } from '../migrations/postgres';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite';

import { ALL_ENTITIES, DIALECT_ENTITIES } from './entities';
import { ReadableConstraintNamingStrategy } from './naming-strategy';
import { preparingClient, StatementNames } from './prepared-statements';

export type PersistenceBackend = 'sqlite' | 'postgres';

/** A Postgres connection pool of one replica (the service's own, or the job queue's). */
export interface PoolSettings {
  /** Most connections open at once. */
  size: number;
  /**
   * Connections kept open while idle, with the statements prepared on them: the first statements
   * after a quiet spell do not wait for a new connection (and prepare again). At most `size`.
   */
  minIdle: number;
  /** How long a connection beyond `minIdle` stays open unused before it is closed. */
  idleSeconds: number;
}

export const DEFAULT_POOL: PoolSettings = { size: 10, minIdle: 2, idleSeconds: 10 };

/**
 * TCP keepalive on every connection after this long without traffic: a connection kept open while
 * idle is then noticed and replaced when something between the replica and the server (a NAT, a
 * firewall's connection tracking) dropped it, instead of hanging the next statement sent on it.
 */
const KEEPALIVE_AFTER_MS = 30_000;

/** The options of a pg.Pool that `pool` describes. */
export function pgPoolOptions(pool: PoolSettings): {
  max: number;
  min: number;
  idleTimeoutMillis: number;
  keepAlive: boolean;
  keepAliveInitialDelayMillis: number;
} {
  return {
    max: pool.size,
    min: Math.min(pool.minIdle, pool.size),
    idleTimeoutMillis: pool.idleSeconds * 1000,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_AFTER_MS,
  };
}

export interface PersistenceSettings {
  backend: PersistenceBackend;
  sqlitePath: string;
  databaseUrl: string | null;
  /** Postgres: the pool of each replica; what is left out takes {@link DEFAULT_POOL}'s value. */
  pool?: Partial<PoolSettings>;
  /** Application name shown in pg_stat_activity. */
  applicationName?: string;
  /**
   * Postgres: run repeated parameterised statements as named prepared statements (see
   * {@link preparingClient}); off behind a transaction-mode pooler that cannot carry them. Default on.
   */
  preparedStatements?: boolean;
  /**
   * SQLite: the better-sqlite3 library TypeORM opens the database with (default: the package as it
   * is); tracing hands in one whose statements make spans.
   */
  sqliteLibrary?: unknown;
}

// Timestamps are stored as UTC on Postgres whatever the process time zone: `timestamp` columns are
// written and read as UTC instead of the pg driver's local-time default.
pg.defaults.parseInputDatesAsUTC = true;
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value: string) => new Date(value.replace(' ', 'T') + 'Z'));

export function createDataSourceOptions(settings: PersistenceSettings): DataSourceOptions {
  const entities: (new () => object)[] = [...ALL_ENTITIES, ...DIALECT_ENTITIES[settings.backend]];
  const common = {
    entities,
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
    const pool = pgPoolOptions({ ...DEFAULT_POOL, ...settings.pool });
    return {
      ...common,
      type: 'postgres',
      url: settings.databaseUrl,
      migrations: POSTGRES_MIGRATIONS,
      migrationsTransactionMode: 'each',
      poolSize: pool.max,
      applicationName: settings.applicationName ?? 'synthorg',
      connectTimeoutMS: 5000,
      // Handed to the pg pool as they are (TypeORM adds them to its own options).
      extra: {
        ...pool,
        ...(settings.preparedStatements === false ? {} : { Client: preparingClient(new StatementNames()) }),
      },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    ...(settings.sqliteLibrary === undefined ? {} : { driver: settings.sqliteLibrary }),
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
