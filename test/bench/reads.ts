// Dashboard reads over history (part of `npm run bench`; alone: BENCH_ONLY=reads npm run bench). For
// each backend it sets up a company, times the reads a dashboard makes (one request at a time), then
// writes the history of the engine bench (history.ts: BENCH_READS_HISTORY rows, 100,000, in each
// per-agent history table), restarts the service and times them again. No goals: a read whose time
// grows with the history scans it instead of finding its rows by index, or computes over a window
// that holds it. Env: BENCH_READS_HISTORY (100000), BENCH_READS_REPEAT (20 timed requests per read).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

// The database helper alone: the @app/testing index also loads the Jest helpers.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
import { median, releaseScratch, type RunningServer, startScratchService } from './harness';
import { seedHistory } from './history';
import { setUpCompany } from './seeding';

type Backend = 'sqlite' | 'postgres';

const HISTORY = ((value) => (Number.isInteger(value) && value >= 1 ? value : 100_000))(
  Number(process.env.BENCH_READS_HISTORY ?? 100_000),
);
const REPEAT = ((value) => (Number.isInteger(value) && value >= 1 ? value : 20))(
  Number(process.env.BENCH_READS_REPEAT ?? 20),
);
const WARM_UP = 3;

/** The reads, by the path after /api/v1; `{agent}` is the first agent's name. */
const READS = [
  '/analytics/overview',
  '/analytics/trends?period=30d&metric=spend',
  '/analytics/forecast',
  '/activities?limit=50',
  '/budget/records?limit=50',
  '/budget/agents/{agent}',
  '/agents/{agent}/activity?limit=50',
  '/agents/{agent}/performance',
  '/agents/{agent}/autonomy',
  '/agents/{agent}/trust',
  '/providers/mock/health',
  '/audit?limit=50',
];

interface Timed {
  path: string;
  status: number;
  p50: number;
  p95: number;
}

interface BackendReads {
  backend: Backend;
  empty: Timed[];
  history: Timed[];
  seedSeconds: number;
  error: string | null;
}

async function timeReads(base: string, token: string, agent: string): Promise<Timed[]> {
  const out: Timed[] = [];
  for (const template of READS) {
    const path = template.replace('{agent}', encodeURIComponent(agent));
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i < WARM_UP + REPEAT; i++) {
      const started = performance.now();
      const res = await fetch(base + path, { headers: { Authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      status = res.status;
      if (i >= WARM_UP) {
        times.push(performance.now() - started);
      }
    }
    times.sort((a, b) => a - b);
    out.push({ path: template, status, p50: median(times), p95: times[Math.floor(times.length * 0.95)] ?? NaN });
  }
  return out;
}

async function benchBackend(backend: Backend, log: (line: string) => void): Promise<BackendReads> {
  const result: BackendReads = { backend, empty: [], history: [], seedSeconds: 0, error: null };
  const scratch = mkdtempSync(join(tmpdir(), `synthorg-bench-reads-${backend}-`));
  let db: TestDatabase | null = null;
  let server: RunningServer | null = null;
  try {
    db = await createTestDatabase(backend);
    server = await startScratchService(scratch, db);
    let base = `http://127.0.0.1:${server.port}/api/v1`;
    // The provider is never called: reads only.
    const { token, agents } = await setUpCompany(server.port, 'http://127.0.0.1:9/v1');
    const agent = agents[0];
    if (!agent) {
      throw new Error('the startup template created no agents');
    }
    log(`reads bench ${backend}: ${READS.length} reads, empty tables`);
    result.empty = await timeReads(base, token, agent);
    // Written while no service runs (SQLite has one writer at a time), then read by a fresh start.
    await server.stop();
    server = null;
    log(`reads bench ${backend}: history, ${HISTORY} rows in each history table`);
    result.seedSeconds = (await seedHistory(db, HISTORY)).seconds;
    server = await startScratchService(scratch, db);
    base = `http://127.0.0.1:${server.port}/api/v1`;
    log(`reads bench ${backend}: ${READS.length} reads, with history`);
    result.history = await timeReads(base, token, agent);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await releaseScratch({ server, db, scratch });
  }
  return result;
}

const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');

/** Runs the reads on both backends and prints them, empty beside with history. */
export async function runReadsBench(): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const progress = (line: string) => process.stderr.write(line + '\n');
  const results: BackendReads[] = [];
  for (const backend of ['sqlite', 'postgres'] as const) {
    results.push(await benchBackend(backend, progress));
  }
  out(
    `\nDashboard reads, one request at a time (${REPEAT} timed after ${WARM_UP} warm-ups; ms): empty tables, then ` +
      `${HISTORY} rows in each per-agent history table (5 agents), dated outside every window. No goals.`,
  );
  out('backend   read                                         status   empty p50   p95   history p50    p95');
  for (const r of results) {
    if (r.error) {
      out(`${r.backend.padEnd(9)} bench failed: ${r.error}`);
      process.exitCode = 1;
      continue;
    }
    r.history.forEach((h, i) => {
      const e = r.empty[i];
      out(
        `${r.backend.padEnd(9)} ${h.path.padEnd(44)} ${String(h.status).padStart(6)} ${f1(e?.p50 ?? NaN).padStart(11)} ` +
          `${f1(e?.p95 ?? NaN).padStart(5)} ${f1(h.p50).padStart(13)} ${f1(h.p95).padStart(6)}`,
      );
    });
    out(`${r.backend.padEnd(9)} (history seeded in ${f1(r.seedSeconds)} s)`);
  }
}
