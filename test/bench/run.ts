// `npm run bench`: interleaved HTTP load of (a) raw node:http, (b) a bare Nest/Express app with the
// envelope interceptor, (c) this service's GET /api/v1/health, with access logging on, (d) the
// service's authenticated GET /api/v1/auth/me (JWT verify + cached session per request) on SQLite,
// and (e) the same on Postgres (rate limits shared with other replicas through the database).
// Prints req/s, p50, p99 and the server's CPU time per request of each (medians over rounds), the
// throughput ratios c/a, c/b, d/b and e/d beside their goals, and the same ratios of CPU per request.
// Then start to ready (start.ts), the task list over 100,000 tasks (list.ts) and the work-engine
// benchmark (engine.ts), the settings benchmark (settings.ts) and the security pipeline's overhead
// (security.ts), the budget records over 1,000,000 cost records with the rollup's overhead (budget.ts),
// the coordination overhead per subtask (coordination.ts), the transfer of a 50 MB artifact
// (artifacts.ts), approval decisions with the audit trail's write cost (approvals.ts), and backup and
// restore of 1,000,000 cost records (backup.ts), and the dashboard's reads over a company with history
// (reads.ts), and the engine's single-row statements through TypeORM and EntityStatements (statements.ts),
// and the console in Chromium: first-load JavaScript, the task board's render, Lighthouse (console.ts),
// the command line's start-up to its first request (cli.ts), and a tool server's tool call over a
// built-in one, stdio and HTTP (mcp.ts), and agent memory's retrieval per task start over 100,000
// entries with its index's heap (memory.ts).
// BENCH_ONLY=http, start, list, engine, settings, security, budget, coordination, artifacts, approvals,
// backup, reads, statements, console, cli, mcp or memory runs one of them (a comma list: several).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The database helper alone: the @app/testing index also loads the Jest helpers, which the bench
// does not have.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';

import { runApprovalsBench } from './approvals';
import { runArtifactsBench } from './artifacts';
import { runBackupBench } from './backup';
import { runBudgetBench } from './budget';
import { runCliBench } from './cli';
import { runConsoleBench } from './console';
import { runCoordinationBench } from './coordination';
import { runEngineBench } from './engine';
import { runGitBench } from './git';
import {
  BENCH_JWT_SECRET,
  load,
  median,
  medianCpuUs,
  type RunningServer,
  type Sample,
  spawnServer,
  type Target,
} from './harness';
import { firstRunToken } from './seeding';
import { runListBench } from './list';
import { runMcpBench } from './mcp';
import { runMemoryBench } from './memory';
import { runReadsBench } from './reads';
import { runSettingsBench } from './settings';
import { runSecurityBench } from './security';
import { runStartBench } from './start';
import { runStatementsBench } from './statements';

// Many short interleaved rounds: on a small shared machine a round's throughput can swing by a
// third, and the median of nine is steadier than that of five longer ones.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const dist = resolve(__dirname, '..', '..');
const PARTS = {
  http: httpBench,
  start: runStartBench,
  list: runListBench,
  engine: runEngineBench,
  git: runGitBench,
  settings: runSettingsBench,
  security: runSecurityBench,
  budget: runBudgetBench,
  coordination: runCoordinationBench,
  artifacts: runArtifactsBench,
  approvals: runApprovalsBench,
  backup: runBackupBench,
  reads: runReadsBench,
  statements: runStatementsBench,
  console: runConsoleBench,
  cli: runCliBench,
  mcp: runMcpBench,
  memory: runMemoryBench,
} as const;

async function main(): Promise<void> {
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const unknown = only.filter((part) => !(part in PARTS));
  if (unknown.length > 0) {
    throw new Error(`BENCH_ONLY lists parts of ${Object.keys(PARTS).join(', ')}, not "${unknown.join(', ')}"`);
  }
  for (const [name, part] of Object.entries(PARTS)) {
    if (only.length === 0 || only.includes(name)) {
      await part();
    }
  }
}

async function httpBench(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'synthorg-bench-'));
  const servers: RunningServer[] = [];
  let pg: TestDatabase | null = null;
  try {
    // Every server's output goes to a file: the load generator in this process must not be the log reader.
    const output = (name: string) => ({ outputFile: join(scratch, `${name}.out`) });
    const raw = await spawnServer([join(dist, 'test/bench/servers/raw-http.js')], process.env, 30_000, output('raw'));
    const bare = await spawnServer(
      [join(dist, 'test/bench/servers/bare-nest.js')],
      process.env,
      30_000,
      output('bare'),
    );
    const serviceOn = (name: string, database: Record<string, string>) =>
      spawnServer(
        [join(dist, 'apps/api/src/main.js')],
        {
          ...process.env,
          SYNTHORG_PORT: '0',
          SYNTHORG_LOG_DIR: join(scratch, `${name}-logs`),
          SYNTHORG_WORKSPACE_DIR: join(scratch, `${name}-workspace`), // the engine's git repository, not ./data
          SYNTHORG_JWT_SECRET: BENCH_JWT_SECRET,
          SYNTHORG_CONFIG_FILE: '',
          // The benchmark loads one user from one address: keep the per-client limits out of the way.
          SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '1000000',
          SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
          ...database,
        },
        30_000,
        output(name),
      );
    const service = await serviceOn('service', { SYNTHORG_DB_PATH: join(scratch, 'bench.db') });
    pg = await createTestDatabase('postgres');
    const servicePg = await serviceOn('service-pg', pg.env);
    servers.push(raw, bare, service, servicePg);
    const token = await firstRunToken(service.port);
    const tokenPg = await firstRunToken(servicePg.port);
    const targets: Target[] = [
      { name: 'a raw node:http', url: `http://127.0.0.1:${raw.port}/api/v1/health`, pid: raw.child.pid },
      {
        name: 'b bare Nest/Express + envelope',
        url: `http://127.0.0.1:${bare.port}/api/v1/health`,
        pid: bare.child.pid,
      },
      {
        name: 'c service GET /api/v1/health',
        url: `http://127.0.0.1:${service.port}/api/v1/health`,
        pid: service.child.pid,
      },
      {
        name: 'd service GET /api/v1/auth/me (JWT)',
        url: `http://127.0.0.1:${service.port}/api/v1/auth/me`,
        headers: { Authorization: `Bearer ${token}` },
        pid: service.child.pid,
      },
      {
        name: 'e service GET /api/v1/auth/me (Postgres)',
        url: `http://127.0.0.1:${servicePg.port}/api/v1/auth/me`,
        headers: { Authorization: `Bearer ${tokenPg}` },
        pid: servicePg.child.pid,
      },
    ];
    const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
    for (const target of targets) {
      await load(target, 1, CONNECTIONS); // warm-up (JIT, connection pools)
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        samples.get(target.name)?.push(await load(target, SECONDS, CONNECTIONS));
      }
    }
    report(targets, samples);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await pg?.drop().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

function report(targets: Target[], samples: Map<string, Sample[]>): void {
  const rows = targets.map((t) => {
    const s = samples.get(t.name) ?? [];
    return {
      name: t.name,
      rps: median(s.map((x) => x.requests)),
      p50: median(s.map((x) => x.p50)),
      p99: median(s.map((x) => x.p99)),
      cpu: medianCpuUs(s),
      bad: s.reduce((n, x) => n + x.errors + x.non2xx, 0),
    };
  });
  const out = (line: string) => process.stdout.write(line + '\n');
  out(
    `\nHTTP benchmark: ${ROUNDS} interleaved rounds x ${SECONDS}s, ${CONNECTIONS} connections, node ${process.version}`,
  );
  out('target                                      req/s     p50 ms   p99 ms   server CPU µs/req   errors/non-2xx');
  for (const r of rows) {
    const cpu = r.cpu === undefined ? 'n/a' : r.cpu.toFixed(0);
    out(
      `${r.name.padEnd(41)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(1).padStart(9)} ${r.p99.toFixed(1).padStart(8)} ` +
        `${cpu.padStart(19)} ${String(r.bad).padStart(16)}`,
    );
  }
  // Each ratio is taken per round, between targets loaded seconds apart, and every round's value is
  // printed beside their median, so a disturbed round shows as one rather than skewing a mean.
  const perRound = (
    top: Target | undefined,
    bottom: Target | undefined,
    value: (sample: Sample) => number | undefined,
  ): number[] | undefined => {
    const x = top ? samples.get(top.name) : undefined;
    const y = bottom ? samples.get(bottom.name) : undefined;
    if (!x || !y || x.length === 0 || x.length !== y.length) {
      return undefined;
    }
    const ratios = x.map((sample, i) => {
      const over = value(sample);
      const under = y[i] === undefined ? undefined : value(y[i]);
      return over === undefined || under === undefined || under === 0 ? Number.NaN : over / under;
    });
    return ratios.some(Number.isNaN) ? undefined : ratios;
  };
  const throughput = (top?: Target, bottom?: Target) => perRound(top, bottom, (s) => s.requests);
  // Capacity: the inverse ratio of the servers' CPU time per request. The load generator shares the
  // machine's cores with the servers, so throughput also moves with what it and other processes get
  // of the CPU; CPU time per request is what the server itself spends, and moves less.
  const capacity = (top?: Target, bottom?: Target) => perRound(bottom, top, (s) => s.cpuUsPerRequest);
  const [a, b, c, d, e] = targets;
  const line = (label: string, rounds: number[] | undefined, goal: number | undefined): void => {
    if (rounds === undefined) {
      return;
    }
    const value = median(rounds);
    const each = rounds.map((r) => r.toFixed(2)).join(' ');
    const verdict = goal === undefined ? '' : ` (goal >= ${goal.toFixed(2)} ${value >= goal ? '✓ met' : '✗ NOT met'})`;
    out(`${label} = ${value.toFixed(2)}${verdict}; rounds: ${each}`);
  };
  line('throughput ratio c/a', throughput(c, a), 0.3);
  line('throughput ratio c/b', throughput(c, b), 0.8);
  line('throughput ratio d/b', throughput(d, b), 0.7);
  line('throughput ratio e/d', throughput(e, d), 0.7);
  line('capacity ratio c/b (server CPU per request, b over c)', capacity(c, b), undefined);
  line('capacity ratio d/b', capacity(d, b), undefined);
  line('capacity ratio e/d', capacity(e, d), undefined);
}

void main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
