import type { DataSource } from 'typeorm';

/** The better-sqlite3 handle behind TypeORM's driver (only what backups and checks need). */
interface SqliteHandle {
  backup(destination: string): Promise<unknown>;
  pragma(source: string): unknown;
  prepare(source: string): { get(): unknown };
  close(): void;
}

/** The better-sqlite3 library as TypeORM's driver loaded it (the package ships no type declarations). */
type SqliteLibrary = new (path: string, options: { readonly: boolean; fileMustExist: boolean }) => SqliteHandle;

function sqliteDriverOf(dataSource: DataSource): { databaseConnection: SqliteHandle; sqlite: SqliteLibrary } {
  if (dataSource.options.type !== 'better-sqlite3') {
    throw new TypeError('a SQLite file operation needs the SQLite backend');
  }
  return dataSource.driver as unknown as { databaseConnection: SqliteHandle; sqlite: SqliteLibrary };
}

/**
 * A consistent copy of a live SQLite database written to `destination` with SQLite's online backup
 * API: pages are copied while the service keeps writing, and the copy is one point in time.
 */
export async function copyLiveSqlite(dataSource: DataSource, destination: string): Promise<void> {
  await sqliteDriverOf(dataSource).databaseConnection.backup(destination);
}

/**
 * Opens a SQLite file read-only and runs `PRAGMA quick_check`; answers the problem found, or null
 * when the file is a sound database that has the migrations table.
 */
export function checkSqliteFile(dataSource: DataSource, path: string): string | null {
  const Library = sqliteDriverOf(dataSource).sqlite;
  let db: SqliteHandle | null = null;
  try {
    db = new Library(path, { readonly: true, fileMustExist: true });
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    if (rows.length !== 1 || rows[0]?.quick_check !== 'ok') {
      return `integrity check failed: ${rows.map((r) => r.quick_check).join('; ')}`;
    }
    const migrations = db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get() as { n: number };
    return migrations.n === 1 ? null : 'not a service database (no schema_migrations table)';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}
