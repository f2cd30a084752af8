// The budget benchmark (part of `npm run bench`; alone: BENCH_ONLY=budget). For each backend it starts
// the built service on a fresh database, seeds BENCH_BUDGET_RECORDS cost records (1,000,000) with
// their hour, day and task rollups straight into the tables (multi-row INSERTs in one transaction),
// refreshes the planner's statistics, and requests `GET /api/v1/budget/records` one at a time with
// each filter combination (none, agent_id, task_id, both; first page and a later one). The server
// time of each request is read from the service's access log (`duration_ms`); p50 and p99 per
// combination are printed beside the goal, p99 < 20 ms. Then, on the same database, the rollup's
// overhead per recorded call: the ledger's write (record + three rollup rows in one step) against
// the record's insert alone, interleaved rounds; goal < 0.2 ms. Env: BENCH_BUDGET_BACKENDS
// (sqlite,postgres), BENCH_BUDGET_REQUESTS (300 per combination), BENCH_BUDGET_CALLS (500 per round).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CostRecordEntity, CostRollupEntity, createDataSource } from '@app/persistence';
import type { DatabaseService } from '@app/platform';
// Library files alone: the @app/testing index also loads the Jest helpers, which the bench build
// (types: node only) does not compile.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
// The ledger's own writer, measured as the service runs it.
import { CostLedgerRepository } from '../../apps/api/src/modules/budget/cost-ledger.repository';
import { median, releaseScratch, type RunningServer, startScratchService } from './harness';
import { firstRunToken, insertRows } from './seeding';

type Backend = 'sqlite' | 'postgres';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

const RECORDS = envInt('BENCH_BUDGET_RECORDS', 1_000_000);
const REQUESTS = envInt('BENCH_BUDGET_REQUESTS', 300);
const CALLS = envInt('BENCH_BUDGET_CALLS', 500);
const ROUNDS = envInt('BENCH_BUDGET_ROUNDS', 5);
const BACKENDS = (process.env.BENCH_BUDGET_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqlite' || b === 'postgres');
const AGENTS = 50;
/** Records per task: a task's calls spread over its agent's day. */
const PER_TASK = 50;
const DAYS = 90;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const P99_GOAL_MS = 20;
const ROLLUP_GOAL_MS = 0.2;

const agentId = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const taskId = (i: number): string => `bench-task-${String(i).padStart(6, '0')}`;

interface Row {
  id: string;
  agentId: string;
  taskId: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  callCategory: string;
  timestamp: Date;
}

/** The i-th seeded record: tasks of PER_TASK calls, round-robin over the agents, over DAYS days to now. */
function recordAt(i: number, start: number, step: number): Row {
  const task = Math.floor(i / PER_TASK);
  return {
    id: `bench-${String(i).padStart(8, '0')}`,
    agentId: agentId(task % AGENTS),
    taskId: taskId(task),
    provider: 'bench',
    model: i % 3 === 0 ? 'bench-large' : 'bench-small',
    inputTokens: 500 + (i % 700),
    outputTokens: 100 + (i % 300),
    costUsd: 0.001 + (i % 97) / 10_000,
    callCategory: 'productive',
    timestamp: new Date(start + i * step),
  };
}

/** Seeds the records and, from the same rows, their hour, day and task rollups; answers a sample agent and task. */
async function seed(db: TestDatabase, count: number): Promise<void> {
  const source = await createDataSource(db.settings).initialize();
  try {
    const now = Date.now();
    const start = now - DAYS * DAY_MS;
    const step = Math.max(1, Math.floor((DAYS * DAY_MS - HOUR_MS) / count));
    const rollups = new Map<string, CostRollupEntity>();
    const add = (grain: string, bucket: number, row: Row, task: string): void => {
      const key = `${grain}|${bucket}|${row.agentId}|${task}`;
      const found = rollups.get(key);
      if (found) {
        found.costUsd += row.costUsd;
        found.inputTokens = String(Number(found.inputTokens) + row.inputTokens);
        found.outputTokens = String(Number(found.outputTokens) + row.outputTokens);
        found.records += 1;
        return;
      }
      rollups.set(key, {
        grain,
        bucket: new Date(bucket),
        agentId: row.agentId,
        taskId: task,
        costUsd: row.costUsd,
        inputTokens: String(row.inputTokens),
        outputTokens: String(row.outputTokens),
        records: 1,
      });
    };
    // About 10 columns a row: under SQLite's 32,766 and Postgres' 65,535 bound parameters.
    const batch = db.settings.backend === 'sqlite' ? 3000 : 6000;
    const chunk = 50_000;
    await source.transaction(async (manager) => {
      for (let from = 0; from < count; from += chunk) {
        const rows: Row[] = [];
        for (let i = from; i < Math.min(from + chunk, count); i++) {
          const row = recordAt(i, start, step);
          rows.push(row);
          const at = row.timestamp.getTime();
          const day = Math.floor(at / DAY_MS) * DAY_MS;
          add('hour', Math.floor(at / HOUR_MS) * HOUR_MS, row, '');
          add('day', day, row, '');
          add('task', day, row, row.taskId);
        }
        await insertRows(manager, source, CostRecordEntity, rows, batch);
      }
      await insertRows(manager, source, CostRollupEntity, [...rollups.values()], batch);
    });
    await source.query(db.settings.backend === 'sqlite' ? 'ANALYZE' : 'VACUUM ANALYZE');
  } finally {
    await source.destroy();
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The server times (ms) of the completed requests whose URL is `url`, from the access log. */
function serverTimes(output: string, url: string): number[] {
  const marker = `"url":${JSON.stringify(url)}`;
  const times: number[] = [];
  for (const line of output.split('\n')) {
    if (line.includes('api.request.completed') && line.includes(marker)) {
      const match = /"duration_ms":([0-9.]+)/.exec(line);
      if (match) {
        times.push(Number(match[1]));
      }
    }
  }
  return times;
}

interface Combination {
  name: string;
  query: string;
  p50: number;
  p99: number;
  client99: number;
  samples: number;
}

/** Warm-up requests per filter (JIT, statement caches), left out of the figures. */
const WARM_UP = 30;

/** `count` sequential requests of `url`; answers the client-side times (ms). */
async function request(server: RunningServer, token: string, url: string, count: number): Promise<number[]> {
  const client: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${server.port}${url}`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { success?: boolean };
    if (res.status !== 200 || body.success !== true) {
      throw new Error(`GET ${url} answered ${res.status}`);
    }
    client.push(performance.now() - started);
  }
  return client;
}

/** Every filter warmed up first, then measured one after the other; server times from the access log. */
async function loadRecords(
  server: RunningServer,
  logFile: string,
  token: string,
  combinations: ReadonlyArray<readonly [string, string]>,
  log: (line: string) => void,
): Promise<Combination[]> {
  for (const [, query] of combinations) {
    await request(server, token, `/api/v1/budget/records${query}`, WARM_UP);
  }
  const clients: number[][] = [];
  for (const [name, query] of combinations) {
    log(`budget bench: ${REQUESTS} requests, ${name}`);
    clients.push(await request(server, token, `/api/v1/budget/records${query}`, REQUESTS));
  }
  await new Promise((done) => setTimeout(done, 500)); // the last access lines reach the file
  const output = readFileSync(logFile, 'utf8');
  return combinations.map(([name, query], i) => {
    const url = `/api/v1/budget/records${query}`;
    const times = serverTimes(output, url).slice(WARM_UP);
    if (times.length === 0) {
      throw new Error(`no access log lines for ${url}`);
    }
    times.sort((a, b) => a - b);
    const client = [...(clients[i] ?? [])].sort((a, b) => a - b);
    return {
      name,
      query,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      client99: percentile(client, 99),
      samples: times.length,
    };
  });
}

/** Per-call time of `write`, in ms, over CALLS calls. */
async function perCall(write: (i: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    await write(i);
  }
  return (performance.now() - started) / CALLS;
}

/** The ledger's write against the record's insert alone, in interleaved rounds: medians per call. */
async function rollupOverhead(db: TestDatabase): Promise<{ plain: number; ledger: number; overhead: number }> {
  const source = await createDataSource(db.settings).initialize();
  try {
    const ledger = new CostLedgerRepository({ dataSource: source } as unknown as DatabaseService);
    const postgres = db.settings.backend === 'postgres';
    const entry = (i: number) => ({
      id: randomUUID(),
      agentId: agentId(i % AGENTS),
      taskId: taskId(1_000_000 + (i % 100)),
      provider: 'bench',
      model: 'bench-small',
      inputTokens: 800,
      outputTokens: 200,
      costUsd: 0.0042,
      callCategory: 'productive' as const,
      timestamp: new Date(),
    });
    const records = source.getRepository(CostRecordEntity);
    // The record alone, as the ledger writes it (one statement on Postgres, a transaction on SQLite).
    const plain = (i: number): Promise<void> => {
      const row = entry(i);
      return postgres
        ? records.insert(row).then(() => undefined)
        : source.transaction((tx) => tx.getRepository(CostRecordEntity).insert(row)).then(() => undefined);
    };
    const full = (i: number): Promise<void> => ledger.record(entry(i), null);
    await perCall(plain);
    await perCall(full); // warm-up
    const plains: number[] = [];
    const fulls: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plains.push(await perCall(plain));
      fulls.push(await perCall(full));
    }
    const overheads = plains.map((p, i) => (fulls[i] ?? p) - p);
    return { plain: median(plains), ledger: median(fulls), overhead: median(overheads) };
  } finally {
    await source.destroy();
  }
}

interface BackendResult {
  backend: Backend;
  seedSeconds: number;
  combinations: Combination[];
  rollup: { plain: number; ledger: number; overhead: number } | null;
  error: string | null;
}

async function benchBackend(backend: Backend, log: (line: string) => void): Promise<BackendResult> {
  const result: BackendResult = { backend, seedSeconds: 0, combinations: [], rollup: null, error: null };
  const scratch = mkdtempSync(join(tmpdir(), `synthorg-bench-budget-${backend}-`));
  let db: TestDatabase | null = null;
  let server: RunningServer | null = null;
  try {
    db = await createTestDatabase(backend);
    server = await startScratchService(scratch, db); // runs the migrations
    const token = await firstRunToken(server.port);
    log(`budget bench ${backend}: seeding ${RECORDS} cost records with their rollups`);
    const seeding = Date.now();
    await seed(db, RECORDS);
    result.seedSeconds = (Date.now() - seeding) / 1000;
    const agent = agentId(7);
    const task = taskId(Math.floor(RECORDS / PER_TASK / 2) - (Math.floor(RECORDS / PER_TASK / 2) % AGENTS) + 7);
    const combinations: ReadonlyArray<readonly [string, string]> = [
      ['none', '?limit=50'],
      ['none, page 100', '?limit=50&offset=5000'],
      ['agent_id', `?agent_id=${agent}&limit=50`],
      ['agent_id, page 100', `?agent_id=${agent}&limit=50&offset=5000`],
      ['task_id', `?task_id=${task}&limit=50`],
      ['agent_id + task_id', `?agent_id=${agent}&task_id=${task}&limit=50`],
    ];
    const logFile = join(scratch, 'service.out');
    // The kept-alive connection from before the seeding has timed out on the server's side: the first
    // request on it may fail, and the client then drops it.
    await fetch(`http://127.0.0.1:${server.port}/api/v1/health`).catch(() => undefined);
    result.combinations = await loadRecords(server, logFile, token, combinations, log);
    await server.stop();
    server = null;
    log(`budget bench ${backend}: rollup overhead, ${ROUNDS} rounds x ${CALLS} calls`);
    result.rollup = await rollupOverhead(db);
  } catch (error) {
    const tail = server ? `\n${server.output().slice(-1500)}` : '';
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    result.error = `${error instanceof Error ? error.message : String(error)}${cause}${tail}`;
  } finally {
    await releaseScratch({ server, db, scratch });
  }
  return result;
}

/** Runs the budget benchmark on every selected backend and prints the report. */
export async function runBudgetBench(): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const progress = (line: string) => process.stderr.write(line + '\n');
  const results: BackendResult[] = [];
  for (const backend of BACKENDS) {
    results.push(await benchBackend(backend, progress));
  }
  out(
    `\nBudget benchmark: GET /api/v1/budget/records over ${RECORDS} cost records (${AGENTS} agents, ` +
      `${PER_TASK} records a task, ${DAYS} days), ${REQUESTS} sequential requests per filter; server time from the access log`,
  );
  for (const r of results) {
    if (r.error) {
      out(`${r.backend.padEnd(9)} bench failed: ${r.error}`);
      process.exitCode = 1;
      continue;
    }
    out(`${r.backend} (seeded in ${r.seedSeconds.toFixed(1)} s)`);
    out('  filter                    server p50 ms  server p99 ms  client p99 ms  goal');
    for (const c of r.combinations) {
      const verdict = c.p99 < P99_GOAL_MS ? '✓ met' : '✗ NOT met';
      out(
        `  ${c.name.padEnd(24)} ${c.p50.toFixed(2).padStart(14)} ${c.p99.toFixed(2).padStart(14)} ` +
          `${c.client99.toFixed(2).padStart(14)}  p99 < ${P99_GOAL_MS} ms ${verdict}`,
      );
    }
    if (r.rollup) {
      const verdict = r.rollup.overhead < ROLLUP_GOAL_MS ? '✓ met' : '✗ NOT met';
      out(
        `  recorded call: record alone ${r.rollup.plain.toFixed(3)} ms, with its rollups ${r.rollup.ledger.toFixed(3)} ms, ` +
          `rollup overhead ${r.rollup.overhead.toFixed(3)} ms per call (goal < ${ROLLUP_GOAL_MS} ms ${verdict})`,
      );
    }
  }
}
