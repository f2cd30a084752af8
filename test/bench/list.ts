// The list benchmark (part of `npm run bench`; alone: BENCH_ONLY=list). For each backend it starts the
// built service on a fresh database, seeds BENCH_LIST_TASKS tasks (100,000) straight into the tasks
// table in batches, refreshes the planner's statistics (what autovacuum or ANALYZE would have done),
// and loads `GET /api/v1/tasks?limit=200` (the default filter, status `created`, which every seeded
// task has: the page and the count both cover all of them) with BENCH_LIST_CONNECTIONS (10) clients.
// Prints req/s, p50, p99 and the service's CPU time per request (medians over BENCH_LIST_ROUNDS rounds
// of BENCH_LIST_SECONDS) beside the goal, p99 < 20 ms. Env: BENCH_LIST_BACKENDS (sqlite,postgres).
// Requests for one page that arrive while it is being read share that read (CountCache.share), so a
// second load asks every request for a different page (offsets cycling through the table, 0 to the
// last page): what the list costs when no two requests are alike, deep pages included (goal: p99 <
// 50 ms).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createDataSource, TaskEntity } from '@app/persistence';
// Library files alone: the @app/testing index also loads the Jest helpers, which the bench build
// (types: node only) does not compile.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
// eslint-disable-next-line no-restricted-imports
import { taskRow } from '../../libs/testing/src/task-rows';
import {
  load,
  median,
  medianCpuUs,
  releaseScratch,
  type RunningServer,
  type Sample,
  startScratchService,
} from './harness';
import { firstRunToken, insertRows } from './seeding';

type Backend = 'sqlite' | 'postgres';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

const TASKS = envInt('BENCH_LIST_TASKS', 100_000);
const CONNECTIONS = envInt('BENCH_LIST_CONNECTIONS', 10);
const SECONDS = envInt('BENCH_LIST_SECONDS', 5);
const ROUNDS = envInt('BENCH_LIST_ROUNDS', 3);
const BACKENDS = (process.env.BENCH_LIST_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqlite' || b === 'postgres');
const P99_GOAL_MS = 20;
const DISTINCT_P99_GOAL_MS = 50;

/** What one load asks for: the same page every time, or a different page each time. */
type Scenario = 'same page' | 'distinct pages';

interface LoadResult {
  scenario: Scenario;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  /** The service's CPU time per request (all its threads), in milliseconds; NaN where /proc is missing. */
  cpuMs: number;
}

interface ListResult {
  backend: Backend;
  seedSeconds: number;
  loads: LoadResult[];
  error: string | null;
}

/**
 * Writes `count` tasks in `created`, one project, a minute apart: multi-row INSERTs of the values as
 * TypeORM would store them (its own column conversion), in one transaction.
 */
async function seedTasks(db: TestDatabase, count: number): Promise<void> {
  const source = await createDataSource(db.settings).initialize();
  try {
    // Under both dialects' bound-parameter ceilings (about 30 columns a row).
    const batch = db.settings.backend === 'sqlite' ? 500 : 1000;
    const start = Date.UTC(2026, 0, 1);
    await source.transaction(async (manager) => {
      for (let from = 0; from < count; from += batch) {
        const rows: TaskEntity[] = [];
        for (let i = from; i < Math.min(from + batch, count); i++) {
          const at = new Date(start + i * 60_000);
          rows.push(
            taskRow({
              id: `bench-${String(i).padStart(7, '0')}`,
              title: `Benchmark task ${i}`,
              description: 'A task seeded for the list benchmark, with a description of realistic length.',
              project: 'bench-project',
              createdBy: 'bench',
              reviewers: ['reviewer-1'],
              acceptanceCriteria: [{ description: 'the page answers quickly', met: false }],
              budgetLimit: 1.5,
              createdAt: at,
              updatedAt: at,
            }),
          );
        }
        await insertRows(manager, source, TaskEntity, rows, batch);
      }
    });
    await source.query(db.settings.backend === 'sqlite' ? 'ANALYZE' : 'VACUUM ANALYZE tasks');
  } finally {
    await source.destroy();
  }
}

async function benchBackend(backend: Backend, log: (line: string) => void): Promise<ListResult> {
  const result: ListResult = { backend, seedSeconds: 0, loads: [], error: null };
  const scratch = mkdtempSync(join(tmpdir(), `synthorg-bench-list-${backend}-`));
  let db: TestDatabase | null = null;
  let server: RunningServer | null = null;
  try {
    db = await createTestDatabase(backend);
    server = await startScratchService(scratch, db); // runs the migrations
    const token = await firstRunToken(server.port);
    log(`list bench ${backend}: seeding ${TASKS} tasks`);
    const seeding = Date.now();
    await seedTasks(db, TASKS);
    result.seedSeconds = (Date.now() - seeding) / 1000;
    const target = {
      name: backend,
      url: `http://127.0.0.1:${server.port}/api/v1/tasks?limit=200`,
      headers: { Authorization: `Bearer ${token}` },
      pid: server.child.pid,
    };
    let page = 0;
    const pages = Math.ceil(TASKS / 200);
    const distinct = () => `/api/v1/tasks?limit=200&offset=${(page++ % pages) * 200}`;
    log(`list bench ${backend}: ${ROUNDS} rounds x ${SECONDS}s, ${CONNECTIONS} connections, each load`);
    for (const [scenario, nextPath] of [
      ['same page', undefined],
      ['distinct pages', distinct],
    ] as const) {
      await load(target, 1, CONNECTIONS, nextPath); // warm-up (JIT, statement caches, pool)
      const samples: Sample[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        samples.push(await load(target, SECONDS, CONNECTIONS, nextPath));
      }
      const cpuUs = medianCpuUs(samples);
      result.loads.push({
        scenario,
        rps: median(samples.map((s) => s.requests)),
        p50: median(samples.map((s) => s.p50)),
        p99: median(samples.map((s) => s.p99)),
        bad: samples.reduce((n, s) => n + s.errors + s.non2xx, 0),
        cpuMs: cpuUs === undefined ? Number.NaN : cpuUs / 1000,
      });
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await releaseScratch({ server, db, scratch });
  }
  return result;
}

/** Runs the list benchmark on every selected backend and prints the report. */
export async function runListBench(): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const progress = (line: string) => process.stderr.write(line + '\n');
  const results: ListResult[] = [];
  for (const backend of BACKENDS) {
    results.push(await benchBackend(backend, progress));
  }
  out(
    `\nList benchmark: GET /api/v1/tasks?limit=200 over ${TASKS} tasks, ${CONNECTIONS} connections, ` +
      `${ROUNDS} rounds x ${SECONDS}s (medians)`,
  );
  out('backend   load              seed s     req/s   p50 ms   p99 ms  CPU ms/req  errors/non-2xx  goal');
  for (const r of results) {
    if (r.error) {
      out(`${r.backend.padEnd(9)} bench failed: ${r.error}`);
      process.exitCode = 1;
      continue;
    }
    for (const l of r.loads) {
      const limit = l.scenario === 'same page' ? P99_GOAL_MS : DISTINCT_P99_GOAL_MS;
      const goal = `p99 < ${limit} ms ${l.p99 < limit && l.bad === 0 ? '✓ met' : '✗ NOT met'}`;
      out(
        `${r.backend.padEnd(9)} ${l.scenario.padEnd(15)} ${r.seedSeconds.toFixed(1).padStart(8)} ` +
          `${l.rps.toFixed(0).padStart(9)} ${l.p50.toFixed(1).padStart(8)} ${l.p99.toFixed(1).padStart(8)} ` +
          `${l.cpuMs.toFixed(2).padStart(11)} ${String(l.bad).padStart(15)}  ${goal}`,
      );
    }
  }
}
