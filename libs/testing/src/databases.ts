import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';

import type { PersistenceBackend, PersistenceSettings } from '@app/persistence';

/** Admin URL of the Postgres server used by the tests (a fresh database is created per suite). */
export const TEST_PG_ADMIN_URL = process.env.SYNTHORG_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Backends the integration and e2e suites run on: both unless SYNTHORG_TEST_BACKENDS narrows it. */
export function testBackends(): PersistenceBackend[] {
  const wanted = (process.env.SYNTHORG_TEST_BACKENDS ?? 'sqlite,postgres')
    .split(',')
    .map((b) => b.trim())
    .filter((b): b is PersistenceBackend => b === 'sqlite' || b === 'postgres');
  return wanted.length > 0 ? wanted : ['sqlite', 'postgres'];
}

export interface TestDatabase {
  settings: PersistenceSettings;
  /** Environment variables that point a whole app at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

function databaseUrlFor(name: string): string {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A brand-new empty database: a temp SQLite file, or a freshly created Postgres database. */
export async function createTestDatabase(backend: PersistenceBackend): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'synthorg-db-'));
    const sqlitePath = join(dir, 'test.db');
    return {
      settings: { backend, sqlitePath, databaseUrl: null },
      env: { SYNTHORG_DB_PATH: sqlitePath },
      drop: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const name = `synthorg_t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const databaseUrl = databaseUrlFor(name);
  return {
    settings: { backend, sqlitePath: '', databaseUrl, pool: { size: 4 } },
    env: { SYNTHORG_DATABASE_URL: databaseUrl },
    drop: async () => {
      const client = new Client({ connectionString: TEST_PG_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
