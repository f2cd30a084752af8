import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

import { Client } from 'pg';

/** Stored (database tier) setting texts by `namespace.key`, as read once before the application is built. */
export type StoredSettingTexts = ReadonlyMap<string, string>;

export interface StoredSettingsRead {
  values: StoredSettingTexts;
  /** Why nothing could be read (the database is not reachable yet); null when read or when there is no database yet. */
  problem: string | null;
}

interface SqliteDatabase {
  prepare(sql: string): { all(): unknown[]; get(): unknown };
  close(): void;
}
type SqliteConstructor = new (path: string, options: { readonly: boolean; fileMustExist: boolean }) => SqliteDatabase;

const CONNECT_TIMEOUT_MS = 3_000;
const SELECT = 'SELECT "namespace", "key", "value" FROM "settings"';

/**
 * Reads the `settings` rows straight from the database, before the application (and its pool) is
 * built, so that the boot configuration can start from stored values: a value read at boot is a
 * restart-required setting, and one stored through the API applies at the next start. A database
 * that does not exist yet, or has no `settings` table yet, has no stored values; one that cannot be
 * reached is reported and the boot tiers apply (persistence then retries as usual).
 * Encrypted (sensitive) values are skipped: none of them is read at boot.
 */
export async function readStoredSettings(persistence: {
  backend: 'sqlite' | 'postgres';
  sqlitePath: string;
  databaseUrl: string | null;
}): Promise<StoredSettingsRead> {
  try {
    const rows =
      persistence.backend === 'postgres' && persistence.databaseUrl
        ? await readPostgres(persistence.databaseUrl)
        : readSqlite(persistence.sqlitePath);
    const values = new Map<string, string>();
    for (const row of rows) {
      if (!row.value.startsWith('v1:')) {
        values.set(`${row.namespace}.${row.key}`, row.value);
      }
    }
    return { values, problem: null };
  } catch (error) {
    return { values: new Map(), problem: error instanceof Error ? error.message : String(error) };
  }
}

interface Row {
  namespace: string;
  key: string;
  value: string;
}

function readSqlite(path: string): Row[] {
  if (path === ':memory:' || !existsSync(path)) {
    return [];
  }
  const Database = createRequire(__filename)('better-sqlite3') as SqliteConstructor;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'settings'`).get();
    return table === undefined ? [] : (db.prepare(SELECT).all() as Row[]);
  } finally {
    db.close();
  }
}

async function readPostgres(url: string): Promise<Row[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    const exists = await client.query<{ name: string | null }>(`SELECT to_regclass('settings') AS name`);
    if (exists.rows[0]?.name === null) {
      return [];
    }
    return (await client.query<Row>(SELECT)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}
