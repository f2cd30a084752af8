import { existsSync } from 'node:fs';
import { mkdir, rename, rm, copyFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Inject, Injectable } from '@nestjs/common';

import { BackupManifestError } from '@app/domain';
import { checkSqliteFile, copyLiveSqlite } from '@app/persistence';
import { APP_CONFIG, type AppConfig, DatabaseService, pathLocator, WriteBehindBuffers } from '@app/platform';

import { BackupComponentUnavailableError } from './backup-component.errors';
import type { ComponentHandler } from './component-handler';
import { assertToolFitsServer, runTool, toolFailure } from './postgres-tools';

const DIR = 'persistence';
/** The SQLite copy inside a backup. */
const SQLITE_FILE = 'synthorg.db';
/** The pg_dump archive (custom format) inside a backup. */
const PG_DUMP_FILE = 'synthorg.dump';
/** Only the service's schema: the job queue keeps its own (`pgboss`), which a restore must not drop. */
const PG_SCHEMA = 'public';

/**
 * The `persistence` component. SQLite: an online copy through SQLite's backup API while the service
 * keeps writing, restored by closing the handles, swapping the file and reopening. Postgres:
 * `pg_dump` in custom format, restored by `pg_restore --clean --single-transaction`, so a failure
 * leaves the database as it was.
 */
@Injectable()
export class PersistenceComponent implements ComponentHandler {
  readonly component = 'persistence' as const;

  constructor(
    private readonly database: DatabaseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly buffers: WriteBehindBuffers,
  ) {}

  /** Copies the database as of now: the rows this process still holds behind its work are written first. */
  async backup(dir: string): Promise<void> {
    await mkdir(join(dir, DIR), { recursive: true });
    await this.buffers.flushAll();
    if (this.database.backend === 'sqlite') {
      await copyLiveSqlite(this.database.dataSource, join(dir, DIR, SQLITE_FILE));
      return;
    }
    const pgDump = await this.tool('pg_dump');
    const run = await runTool(pgDump, [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--schema=${PG_SCHEMA}`,
      `--file=${join(dir, DIR, PG_DUMP_FILE)}`,
      `--dbname=${this.databaseUrl()}`,
    ]);
    if (run.code !== 0) {
      throw new BackupComponentUnavailableError(`Persistence backup failed: ${toolFailure('pg_dump', run)}`);
    }
  }

  async validateSource(dir: string): Promise<void> {
    const sqliteCopy = join(dir, DIR, SQLITE_FILE);
    const pgDump = join(dir, DIR, PG_DUMP_FILE);
    if (this.database.backend === 'sqlite') {
      if (!existsSync(sqliteCopy)) {
        throw new BackupManifestError(
          existsSync(pgDump)
            ? 'The backup holds a PostgreSQL dump; this service runs on SQLite'
            : `The backup has no ${DIR}/${SQLITE_FILE}`,
        );
      }
      const problem = checkSqliteFile(this.database.dataSource, sqliteCopy);
      if (problem) {
        throw new BackupManifestError(`The backup's SQLite database is unusable: ${problem}`);
      }
      return;
    }
    if (!existsSync(pgDump)) {
      throw new BackupManifestError(
        existsSync(sqliteCopy)
          ? 'The backup holds a SQLite database; this service runs on PostgreSQL'
          : `The backup has no ${DIR}/${PG_DUMP_FILE}`,
      );
    }
    const run = await runTool(await this.tool('pg_restore'), ['--list', pgDump]);
    if (run.code !== 0) {
      throw new BackupManifestError(`The backup's PostgreSQL dump is unusable: ${toolFailure('pg_restore', run)}`);
    }
  }

  async restore(dir: string): Promise<void> {
    if (this.database.backend === 'sqlite') {
      await this.restoreSqlite(join(dir, DIR, SQLITE_FILE));
      return;
    }
    const pgRestore = await this.tool('pg_restore');
    const dump = join(dir, DIR, PG_DUMP_FILE);
    await this.database.exclusively(
      async () => {
        const run = await runTool(pgRestore, [
          '--clean',
          '--if-exists',
          '--single-transaction',
          '--exit-on-error',
          '--no-owner',
          '--no-privileges',
          `--dbname=${this.databaseUrl()}`,
          dump,
        ]);
        if (run.code !== 0) {
          throw new Error(toolFailure('pg_restore', run));
        }
      },
      // --single-transaction: a failed pg_restore changed nothing.
      () => Promise.resolve(),
    );
  }

  private async restoreSqlite(copy: string): Promise<void> {
    const live = this.config.persistence.sqlitePath;
    const kept = `${live}.before-restore`;
    const sidecars = ['-wal', '-shm'];
    await this.database.exclusively(
      async () => {
        await rm(kept, { force: true });
        await rename(live, kept);
        for (const suffix of sidecars) {
          await rm(`${live}${suffix}`, { force: true });
        }
        await copyFile(copy, `${live}.restoring`);
        await rename(`${live}.restoring`, live);
      },
      async () => {
        for (const suffix of ['', ...sidecars]) {
          await rm(`${live}${suffix}`, { force: true });
        }
        if (existsSync(kept)) {
          await rename(kept, live);
        }
      },
    );
    await rm(kept, { force: true });
  }

  private databaseUrl(): string {
    const url = this.config.persistence.databaseUrl;
    if (!url) {
      throw new BackupComponentUnavailableError('The PostgreSQL backend has no database URL');
    }
    return url;
  }

  /** The client tool's path, checked against the server's major version. */
  private async tool(name: 'pg_dump' | 'pg_restore'): Promise<string> {
    const binary = await pathLocator()(name);
    if (!binary) {
      throw new BackupComponentUnavailableError(
        `${name} is not on the PATH: install postgresql-client to back up or restore the PostgreSQL backend`,
      );
    }
    const rows = await this.database.dataSource.query<{ server_version_num: string }[]>('SHOW server_version_num');
    await assertToolFitsServer(binary, name, Math.floor(Number(rows[0]?.server_version_num ?? 0) / 10_000));
    return binary;
  }
}
