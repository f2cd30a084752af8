// Start to ready (part of `npm run bench`; alone: BENCH_ONLY=start): the time from launching the built
// server process (`node dist/apps/api/src/main.js`, what `npm start` runs once the build is current)
// to `GET /api/v1/health/ready` answering 200, on SQLite. Cold: a fresh data directory (the
// migrations run, the workspace repository is created); warm: a restart on the same data. Prints
// the median and the slowest of BENCH_START_ROUNDS (3) launches each, beside the goal (< 3 s).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

import { BENCH_JWT_SECRET, median } from './harness';

const ROUNDS = Math.max(1, Number(process.env.BENCH_START_ROUNDS ?? 3) || 3);
const GOAL_MS = 3000;
const TIMEOUT_MS = 60_000;
const dist = resolve(__dirname, '..', '..');

/** A port free right now (the server binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

async function ready(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/health/ready`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false; // not listening yet
  }
}

/** Launches the server on `dataDir`, answers the milliseconds until it is ready, and stops it. */
async function launch(dataDir: string): Promise<number> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.SYNTHORG_DATABASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, [join(dist, 'apps/api/src/main.js')], {
    cwd: dataDir,
    stdio: 'ignore',
    env: {
      ...env,
      SYNTHORG_PORT: String(port),
      SYNTHORG_DB_PATH: join(dataDir, 'synthorg.db'),
      SYNTHORG_LOG_DIR: join(dataDir, 'logs'),
      SYNTHORG_WORKSPACE_DIR: join(dataDir, 'workspace'),
      SYNTHORG_JWT_SECRET: BENCH_JWT_SECRET,
      SYNTHORG_CONFIG_FILE: '',
    },
  });
  try {
    while (!(await ready(port))) {
      if (child.exitCode !== null || performance.now() - started > TIMEOUT_MS) {
        throw new Error(`the server did not become ready (exit ${String(child.exitCode)})`);
      }
      await new Promise((done) => setTimeout(done, 5));
    }
    return performance.now() - started;
  } finally {
    await new Promise<void>((done) => {
      if (child.exitCode !== null) {
        done();
        return;
      }
      child.once('exit', () => done());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  }
}

/** Measures cold and warm start to ready and prints them beside the goal. */
export async function runStartBench(): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const cold: number[] = [];
  const warm: number[] = [];
  const dirs: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'synthorg-bench-start-'));
      dirs.push(dir);
      cold.push(await launch(dir));
      warm.push(await launch(dir));
    }
  } finally {
    for (const dir of dirs) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const line = (label: string, values: number[]): string => {
    const mid = median(values);
    const worst = Math.max(...values);
    const verdict = worst < GOAL_MS ? '✓ met' : '✗ NOT met';
    return (
      `${label.padEnd(34)} median ${mid.toFixed(0).padStart(5)} ms, slowest ${worst.toFixed(0).padStart(5)} ms  ` +
      `(goal < ${GOAL_MS} ms ${verdict}; each: ${values.map((v) => v.toFixed(0)).join(' ')})`
    );
  };
  out(`\nStart to ready on SQLite: launch of the built server -> /api/v1/health/ready 200 (${ROUNDS} launches each)`);
  out(line('start to ready, cold (fresh data)', cold));
  out(line('start to ready, warm (restart)', warm));
}
