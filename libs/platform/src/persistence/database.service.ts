import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';

import { ServiceUnavailableError, Subsystem } from '@app/domain';
import { createDataSource, pendingMigrations, runMigrations } from '@app/persistence';

import { APP_CONFIG } from '../config/config.tokens';
import type { AppConfig } from '../config/app-config';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';
import type { LoggingRuntime } from '../logging';
import { tracedSqliteLibrary } from '../observability/sqlite-tracing';
import { tracingEnabled } from '../observability/tracing';
import { SubsystemRegistry } from '../subsystems/subsystem.registry';
import { managerOf, type Transaction } from './transaction';

export type PersistenceState = 'connecting' | 'ready' | 'swapping' | 'failed' | 'closed';

const RETRY_MAX_MS = 30_000;
const PING_TTL_MS = 1_000;

/**
 * Owns the DataSource. Connects and migrates during module init; a failure does not abort startup:
 * the persistence subsystem stays unwired (dependent controllers answer 503), readiness reports it,
 * and connection is retried in the background with backoff.
 */
@Injectable()
export class DatabaseService implements OnModuleInit, OnApplicationShutdown {
  private source: DataSource | null = null;
  private stateValue: PersistenceState = 'connecting';
  private lastError: string | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelayMs = 1000;
  private readonly log: Logger;
  private ping: { at: number; result: Promise<boolean> } | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    private readonly registry: SubsystemRegistry,
  ) {
    this.log = logging.forName('persistence');
  }

  get backend(): AppConfig['persistence']['backend'] {
    return this.config.persistence.backend;
  }

  get state(): PersistenceState {
    return this.stateValue;
  }

  get error(): string | null {
    return this.lastError;
  }

  /** The live DataSource, or a 503 while persistence is not wired. */
  get dataSource(): DataSource {
    if (!this.source || this.stateValue !== 'ready') {
      throw new ServiceUnavailableError('Persistence is not available', 5);
    }
    return this.source;
  }

  /** The entity manager of `tx`, or the default one outside a transaction: for repositories only. */
  manager(tx?: Transaction): EntityManager {
    return tx ? managerOf(tx) : this.dataSource.manager;
  }

  async onModuleInit(): Promise<void> {
    this.registry.markUnwired(Subsystem.Persistence, 'connecting');
    await this.connect();
  }

  /**
   * Reachable and migrated: the readiness check. `ready` is only reached after every migration ran; the
   * reachability ping is shared by concurrent callers and reused for a second, so health probes and
   * load balancers polling hard cost one query per second at most.
   */
  async isReady(): Promise<boolean> {
    if (!this.source || this.stateValue !== 'ready') {
      return false;
    }
    const now = Date.now();
    if (!this.ping || now - this.ping.at > PING_TTL_MS) {
      const source = this.source;
      this.ping = {
        at: now,
        result: source.query('SELECT 1').then(
          () => true,
          () => false,
        ),
      };
    }
    return this.ping.result;
  }

  /**
   * Replaces the database under the running service (a restore). While it runs, every request that
   * needs persistence answers 503 with Retry-After. On SQLite the handles are closed before `swap`
   * and reopened after it; on Postgres the pool stays open (the swap is one server transaction).
   * The reopened database is migrated. When reopening fails, `rollback` puts the previous database
   * back, it is reopened, and the failure is rethrown; a failing `swap` rolls back the same way.
   */
  async exclusively(swap: () => Promise<void>, rollback: () => Promise<void>): Promise<void> {
    const source = this.dataSource;
    this.stateValue = 'swapping';
    this.ping = null;
    this.registry.markUnwired(Subsystem.Persistence, 'restoring');
    const sqlite = source.options.type === 'better-sqlite3';
    try {
      if (sqlite) {
        await source.destroy();
      }
      try {
        await swap();
        await this.reopen(source, sqlite);
      } catch (error) {
        if (sqlite && source.isInitialized) {
          await source.destroy().catch(() => undefined);
        }
        await rollback();
        await this.reopen(source, sqlite);
        throw error;
      }
    } finally {
      if (source.isInitialized) {
        this.stateValue = 'ready';
        this.registry.markWired(Subsystem.Persistence, this.config.persistence.backend);
      } else {
        this.stateValue = 'failed';
        this.scheduleRetry();
      }
    }
  }

  private async reopen(source: DataSource, sqlite: boolean): Promise<void> {
    if (sqlite && !source.isInitialized) {
      await source.initialize();
    }
    await runMigrations(source);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
    }
    this.stateValue = 'closed';
    const source = this.source;
    this.source = null;
    if (source?.isInitialized) {
      await source.destroy();
    }
  }

  private async connect(): Promise<void> {
    const { backend, sqlitePath, databaseUrl, preparedStatements, pool } = this.config.persistence;
    const started = Date.now();
    // With tracing on, SQLite statements make spans (Postgres ones do through the pg instrumentation).
    const sqliteLibrary = backend === 'sqlite' && tracingEnabled() ? tracedSqliteLibrary() : undefined;
    const source = createDataSource({ backend, sqlitePath, databaseUrl, preparedStatements, pool, sqliteLibrary });
    try {
      if (backend === 'sqlite') {
        await ensureParentDir(sqlitePath);
      }
      await source.initialize();
      const applied = await this.migrateOrCheck(source);
      this.source = source;
      this.stateValue = 'ready';
      this.lastError = null;
      this.registry.markWired(Subsystem.Persistence, backend);
      this.log.info(
        { backend, migrations_applied: applied.map((m) => m.name), duration_ms: Date.now() - started },
        'persistence.database.connected',
      );
    } catch (error) {
      if (source.isInitialized) {
        await source.destroy().catch(() => undefined);
      }
      this.stateValue = 'failed';
      this.lastError = error instanceof Error ? error.message : String(error);
      this.registry.markUnwired(Subsystem.Persistence, `${backend} unavailable`);
      this.log.error({ backend, err: error, retry_in_ms: this.retryDelayMs }, 'persistence.database.connect_failed');
      this.scheduleRetry();
    }
  }

  /**
   * Applies pending migrations, or, when migrating at startup is off (the migrate command runs them
   * before a rollout), refuses a schema that is behind: the connection counts as failed and is
   * retried with backoff, so the replica becomes ready once the migrations have been applied.
   */
  private async migrateOrCheck(source: DataSource): Promise<{ name: string }[]> {
    if (this.config.persistence.migrateOnStart) {
      return runMigrations(source);
    }
    const pending = await pendingMigrations(source);
    if (pending.length > 0) {
      throw new Error(
        `the database schema is behind this version: ${pending.length} pending migration(s) ` +
          `(${pending.slice(0, 3).join(', ')}${pending.length > 3 ? ', …' : ''}); run the migrate command ` +
          '(node dist/apps/api/src/migrate.js) or start with SYNTHORG_DB_MIGRATE_ON_START=true',
      );
    }
    return [];
  }

  private scheduleRetry(): void {
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stateValue !== 'closed') {
        void this.connect();
      }
    }, this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, RETRY_MAX_MS);
  }
}

async function ensureParentDir(file: string): Promise<void> {
  if (file !== ':memory:') {
    await mkdir(dirname(file), { recursive: true });
  }
}
