// The backup benchmark (part of `npm run bench`; alone: BENCH_ONLY=backup). For each backend (SQLite,
// Postgres) it starts the built service on a fresh database, seeds BENCH_BACKUP_COST_RECORDS
// (1,000,000) cost records straight into their table (multi-row INSERTs in one transaction), then
// times through the API, as the System identity the operator's command mints: a backup (POST
// /admin/backups: the SQLite online copy or pg_dump, the checksum, the manifest) and a restore of it
// (POST /admin/backups/restore: checksum, source validation, the pre_migration safety backup, the
// SQLite swap or pg_restore, the reinitialisation), and checks that the restored table holds every
// record. Prints the seconds of each beside the backup's size. Env: BENCH_BACKUP_BACKENDS
// (sqlite,postgres), BENCH_BACKUP_COST_RECORDS.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { mintSystemToken } from '../../apps/api/src/modules/users';
import { CostRecordEntity, createDataSource } from '@app/persistence';
// The database helper alone: the @app/testing index also loads the Jest helpers.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
import { BENCH_JWT_SECRET, releaseScratch, type RunningServer, startBenchService } from './harness';

type Backend = 'sqlite' | 'postgres';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

const RECORDS = envInt('BENCH_BACKUP_COST_RECORDS', 1_000_000);
const BACKENDS = (process.env.BENCH_BACKUP_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqlite' || b === 'postgres');
const SECRET = BENCH_JWT_SECRET;

interface Result {
  backend: Backend;
  seedSeconds: number;
  backupSeconds: number;
  restoreSeconds: number;
  sizeMb: number;
  error: string | null;
}

/** Writes `count` cost records with multi-row INSERTs of the values as TypeORM stores them, in one transaction. */
async function seedCostRecords(db: TestDatabase, count: number): Promise<void> {
  const source = await createDataSource(db.settings).initialize();
  try {
    const { driver } = source;
    const columns = source.getMetadata(CostRecordEntity).columns;
    const names = columns.map((c) => driver.escape(c.databaseName)).join(', ');
    // Under both dialects' bound-parameter ceilings (10 columns a row).
    const batch = db.settings.backend === 'sqlite' ? 3000 : 6000;
    const start = Date.UTC(2026, 0, 1);
    await source.transaction(async (manager) => {
      for (let from = 0; from < count; from += batch) {
        const values: unknown[] = [];
        const tuples: string[] = [];
        for (let i = from; i < Math.min(from + batch, count); i++) {
          const row: CostRecordEntity = {
            id: randomUUID(),
            agentId: `bench-agent-${i % 20}`,
            taskId: `bench-task-${i % 5000}`,
            provider: 'bench-provider',
            model: 'bench-model',
            inputTokens: 100 + (i % 900),
            outputTokens: 50 + (i % 400),
            costUsd: (i % 1000) / 10_000,
            callCategory: 'productive',
            timestamp: new Date(start + i * 1000),
          };
          const marks = columns.map((column) => {
            values.push(driver.preparePersistentValue(column.getEntityValue(row), column));
            return driver.createParameter(column.propertyName, values.length - 1);
          });
          tuples.push(`(${marks.join(', ')})`);
        }
        await manager.query(
          `INSERT INTO ${driver.escape('cost_records')} (${names}) VALUES ${tuples.join(', ')}`,
          values,
        );
      }
    });
  } finally {
    await source.destroy();
  }
}

async function countRecords(db: TestDatabase): Promise<number> {
  const source = await createDataSource(db.settings).initialize();
  try {
    const [row] = await source.query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM cost_records');
    return Number(row?.n ?? 0);
  } finally {
    await source.destroy();
  }
}

function startService(scratch: string, db: TestDatabase): Promise<RunningServer> {
  return startBenchService(scratch, db, {
    SYNTHORG_BACKUP_PATH: join(scratch, 'backups'),
    SYNTHORG_JWT_SECRET: SECRET,
    SYNTHORG_ENGINE_ENABLED: 'false',
  });
}

async function call<T>(port: number, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${mintSystemToken(SECRET)}` },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(600_000),
  });
  const text = await res.text();
  if (res.status >= 300) {
    throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  }
  return (JSON.parse(text) as { data: T }).data;
}

async function benchBackend(backend: Backend, log: (line: string) => void): Promise<Result> {
  const result: Result = { backend, seedSeconds: 0, backupSeconds: 0, restoreSeconds: 0, sizeMb: 0, error: null };
  const scratch = mkdtempSync(join(tmpdir(), `synthorg-bench-backup-${backend}-`));
  let db: TestDatabase | null = null;
  let server: RunningServer | null = null;
  try {
    db = await createTestDatabase(backend);
    server = await startService(scratch, db); // runs the migrations
    log(`backup bench ${backend}: seeding ${RECORDS} cost records`);
    let started = performance.now();
    await seedCostRecords(db, RECORDS);
    result.seedSeconds = (performance.now() - started) / 1000;
    log(`backup bench ${backend}: backup`);
    started = performance.now();
    const manifest = await call<{ backup_id: string; size_bytes: number }>(server.port, '/admin/backups');
    result.backupSeconds = (performance.now() - started) / 1000;
    result.sizeMb = manifest.size_bytes / (1024 * 1024);
    log(`backup bench ${backend}: restore`);
    started = performance.now();
    await call(server.port, '/admin/backups/restore', { backup_id: manifest.backup_id, confirm: true });
    result.restoreSeconds = (performance.now() - started) / 1000;
    const restored = await countRecords(db);
    if (restored !== RECORDS) {
      throw new Error(`the restored table holds ${restored} cost records, not ${RECORDS}`);
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await releaseScratch({ server, db, scratch });
  }
  return result;
}

/** Runs the backup benchmark on every selected backend and prints the report. */
export async function runBackupBench(): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const results: Result[] = [];
  for (const backend of BACKENDS) {
    results.push(await benchBackend(backend, (line) => process.stderr.write(line + '\n')));
  }
  out(`\nBackup benchmark: a database with ${RECORDS} cost records, through the API as the System identity`);
  out('backend   seed s   backup s   restore s   backup size MB');
  for (const r of results) {
    if (r.error) {
      out(`${r.backend.padEnd(9)} bench failed: ${r.error}`);
      process.exitCode = 1;
      continue;
    }
    out(
      `${r.backend.padEnd(9)} ${r.seedSeconds.toFixed(1).padStart(6)} ${r.backupSeconds.toFixed(2).padStart(10)} ` +
        `${r.restoreSeconds.toFixed(2).padStart(11)} ${r.sizeMb.toFixed(1).padStart(16)}`,
    );
  }
}
