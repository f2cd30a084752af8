// `npm run bench`: interleaved HTTP load of (a) raw node:http, (b) a bare Nest/Express app with the
// envelope interceptor, (c) this service's GET /api/v1/health, with access logging on, (d) the
// service's authenticated GET /api/v1/auth/me (JWT verify + cached session per request) on SQLite,
// and (e) the same on Postgres (rate limits shared with other replicas through the database).
// Prints req/s, p50 and p99 of each (medians over rounds) and the ratios c/a, c/b, d/b and e/d.
// Then start to ready (start.ts), the task list over 100,000 tasks (list.ts) and the work-engine
// benchmark (engine.ts), the settings benchmark (settings.ts) and the security pipeline's overhead
// (security.ts), the budget records over 1,000,000 cost records with the rollup's overhead (budget.ts),
// the coordination overhead per subtask (coordination.ts), the transfer of a 50 MB artifact
// (artifacts.ts), approval decisions with the audit trail's write cost (approvals.ts), and backup and
// restore of 1,000,000 cost records (backup.ts). BENCH_ONLY=http, start, list, engine, settings,
// security, budget, coordination, artifacts, approvals or backup runs one of them (a comma list: several).
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
import { runCoordinationBench } from './coordination';
import { runEngineBench } from './engine';
import { BENCH_JWT_SECRET, load, median, type RunningServer, type Sample, spawnServer, type Target } from './harness';
import { firstRunToken } from './seeding';
import { runListBench } from './list';
import { runSettingsBench } from './settings';
import { runSecurityBench } from './security';
import { runStartBench } from './start';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const dist = resolve(__dirname, '..', '..');
const PARTS = {
  http: httpBench,
  start: runStartBench,
  list: runListBench,
  engine: runEngineBench,
  settings: runSettingsBench,
  security: runSecurityBench,
  budget: runBudgetBench,
  coordination: runCoordinationBench,
  artifacts: runArtifactsBench,
  approvals: runApprovalsBench,
  backup: runBackupBench,
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
      { name: 'a raw node:http', url: `http://127.0.0.1:${raw.port}/api/v1/health` },
      { name: 'b bare Nest/Express + envelope', url: `http://127.0.0.1:${bare.port}/api/v1/health` },
      { name: 'c service GET /api/v1/health', url: `http://127.0.0.1:${service.port}/api/v1/health` },
      {
        name: 'd service GET /api/v1/auth/me (JWT)',
        url: `http://127.0.0.1:${service.port}/api/v1/auth/me`,
        headers: { Authorization: `Bearer ${token}` },
      },
      {
        name: 'e service GET /api/v1/auth/me (Postgres)',
        url: `http://127.0.0.1:${servicePg.port}/api/v1/auth/me`,
        headers: { Authorization: `Bearer ${tokenPg}` },
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
      bad: s.reduce((n, x) => n + x.errors + x.non2xx, 0),
    };
  });
  const out = (line: string) => process.stdout.write(line + '\n');
  out(
    `\nHTTP benchmark: ${ROUNDS} interleaved rounds x ${SECONDS}s, ${CONNECTIONS} connections, node ${process.version}`,
  );
  out('target                                      req/s     p50 ms   p99 ms   errors/non-2xx');
  for (const r of rows) {
    out(
      `${r.name.padEnd(41)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(1).padStart(9)} ${r.p99.toFixed(1).padStart(8)} ${String(r.bad).padStart(8)}`,
    );
  }
  // Each ratio is taken per round, between targets loaded seconds apart, and every round's value is
  // printed beside their median, so a disturbed round shows as one rather than skewing a mean.
  const ratio = (top: Target | undefined, bottom: Target | undefined): number[] | undefined => {
    const x = top ? samples.get(top.name) : undefined;
    const y = bottom ? samples.get(bottom.name) : undefined;
    if (!x || !y || x.length === 0 || x.length !== y.length) {
      return undefined;
    }
    return x.map((sample, i) => sample.requests / (y[i]?.requests || Number.NaN));
  };
  const [a, b, c, d, e] = targets;
  const line = (label: string, rounds: number[] | undefined, target: string): void => {
    if (rounds !== undefined) {
      const each = rounds.map((value) => value.toFixed(2)).join(' ');
      out(`ratio ${label} = ${median(rounds).toFixed(2)}  (target >= ${target}; median of rounds: ${each})`);
    }
  };
  line('c/a', ratio(c, a), '0.30');
  line('c/b', ratio(c, b), '0.80');
  line('d/b', ratio(d, b), '0.70');
  line('e/d', ratio(e, d), '0.70');
}

void main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
