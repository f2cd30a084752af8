// The settings benchmark (part of `npm run bench`; alone: BENCH_ONLY=settings). Three figures:
// 1. a hot-path read of a setting from the in-memory snapshot (goal < 1 µs);
// 2. propagation: two built service instances on one fresh Postgres database; a PUT of
//    `observability.sink_overrides` on one, then the other is polled until its running sinks show the
//    change; the time from sending the PUT to that answer, BENCH_SETTINGS_CHANGES times (goal p99 < 100 ms);
// 3. request latency of `GET /api/v1/auth/me` without and with an HTTP log sink whose endpoint accepts
//    connections but never answers, in interleaved rounds (goal: no change).
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { defineSettings } from '@app/domain';
import type { AppConfig } from '@app/platform';
// Library files alone: the @app/testing index also loads the Jest helpers, which the bench build does not compile.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
// eslint-disable-next-line no-restricted-imports
import { silentLoggingRuntime } from '../../libs/testing/src/silent-logging';
import { SettingsSnapshot } from '../../apps/api/src/modules/settings';
import { BENCH_JWT_SECRET, load, median, type RunningServer, type Sample, spawnServer } from './harness';
import { firstRunToken } from './seeding';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

const CHANGES = envInt('BENCH_SETTINGS_CHANGES', 200);
const SECONDS = envInt('BENCH_SETTINGS_SECONDS', 5);
const ROUNDS = envInt('BENCH_SETTINGS_ROUNDS', 3);
const CONNECTIONS = envInt('BENCH_SETTINGS_CONNECTIONS', 50);
const dist = resolve(__dirname, '..', '..');
const out = (line: string): void => void process.stdout.write(line + '\n');

export async function runSettingsBench(): Promise<void> {
  out(`\nSettings benchmark, node ${process.version}`);
  hotPathRead();
  const scratch = mkdtempSync(join(tmpdir(), 'synthorg-bench-settings-'));
  const servers: RunningServer[] = [];
  let pg: TestDatabase | null = null;
  try {
    pg = await createTestDatabase('postgres');
    const a = await startService(scratch, 'a', pg.env);
    servers.push(a);
    const b = await startService(scratch, 'b', pg.env);
    servers.push(b);
    const token = await firstRunToken(a.port);
    await propagation(a.port, b.port, token);
    await deadSinkLatency(a.port, token);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await pg?.drop().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Reads one setting from a snapshot holding a realistic namespace, many times over. */
function hotPathRead(): void {
  const config = { settingSources: { env: {}, yaml: {} } } as unknown as AppConfig;
  const snapshot = new SettingsSnapshot(config, silentLoggingRuntime());
  snapshot.declare(
    defineSettings(
      'budget',
      Array.from({ length: 40 }, (_, i) => ({
        key: `limit_${i}`,
        type: 'float' as const,
        default: `${i}.5`,
        description: 'A limit',
      })),
    ),
  );
  const reads = 20_000_000;
  let sum = 0;
  for (let i = 0; i < 1_000_000; i++) {
    sum += snapshot.value<number>('budget', 'limit_17');
  }
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < reads / 5; i++) {
      sum += snapshot.value<number>('budget', 'limit_17');
    }
    samples.push(Number(process.hrtime.bigint() - started) / (reads / 5));
  }
  out(
    `hot-path read SettingsSnapshot.value: ${median(samples).toFixed(1)} ns per read (median of 5 x ${reads / 5}; goal < 1000 ns)` +
      (sum === 0 ? ' ' : ''),
  );
}

async function propagation(portA: number, portB: number, token: string): Promise<void> {
  const durations: number[] = [];
  const answered: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const level = i % 2 === 0 ? 'info' : 'debug';
    const wire = level.toUpperCase();
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${portA}/api/v1/settings/observability/sink_overrides`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ value: JSON.stringify({ 'debug.log': { level } }) }),
    });
    if (res.status !== 200) {
      throw new Error(`PUT answered ${res.status}`);
    }
    await res.arrayBuffer();
    answered.push(performance.now() - started);
    for (;;) {
      const sinks = await fetch(`http://127.0.0.1:${portB}/api/v1/settings/observability/sinks`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = (await sinks.json()) as { data: Array<{ identifier: string; level: string }> };
      if (body.data.find((s) => s.identifier === 'debug.log')?.level === wire) {
        break;
      }
      if (performance.now() - started > 10_000) {
        throw new Error('the other replica did not apply the change within 10 s');
      }
    }
    durations.push(performance.now() - started);
  }
  const quantiles = (values: number[]): string => {
    const sorted = [...values].sort((x, y) => x - y);
    const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
    return `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`;
  };
  out(
    `propagation PUT on replica A -> applied on replica B (Postgres, ${CHANGES} changes): ` +
      `${quantiles(durations)} (goal p99 < 100 ms); of which the PUT's own answer: ${quantiles(answered)}`,
  );
}

async function deadSinkLatency(port: number, token: string): Promise<void> {
  const hanging = new Set<ServerResponse>();
  let received = 0;
  const dead = createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      received++;
      hanging.add(res);
    });
  });
  dead.listen(0, '127.0.0.1');
  await once(dead, 'listening');
  const deadSinks = JSON.stringify([
    { sink_type: 'http', http_url: `http://127.0.0.1:${(dead.address() as AddressInfo).port}/logs` },
  ]);
  const setSinks = async (value: string): Promise<void> => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/settings/observability/custom_sinks`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ value }),
    });
    if (res.status !== 200) {
      throw new Error(`PUT custom_sinks answered ${res.status}`);
    }
    await res.arrayBuffer();
  };
  const target = {
    name: 'auth/me',
    url: `http://127.0.0.1:${port}/api/v1/auth/me`,
    headers: { Authorization: `Bearer ${token}` },
  };
  const samples = { without: [] as Sample[], with: [] as Sample[] };
  try {
    await load(target, 1, CONNECTIONS);
    for (let round = 0; round < ROUNDS; round++) {
      await setSinks('[]');
      samples.without.push(await load(target, SECONDS, CONNECTIONS));
      await setSinks(deadSinks);
      samples.with.push(await load(target, SECONDS, CONNECTIONS));
    }
    await setSinks('[]');
  } finally {
    hanging.clear();
    dead.closeAllConnections();
    await new Promise((done) => dead.close(done));
  }
  out(`GET /api/v1/auth/me, ${ROUNDS} interleaved rounds x ${SECONDS}s, ${CONNECTIONS} connections (medians):`);
  for (const [name, list] of Object.entries(samples)) {
    const bad = list.reduce((n, s) => n + s.errors + s.non2xx, 0);
    out(
      `  ${name.padEnd(8)} a never-answering HTTP sink: ${median(list.map((s) => s.requests)).toFixed(0)} req/s, ` +
        `p50 ${median(list.map((s) => s.p50)).toFixed(1)} ms, p99 ${median(list.map((s) => s.p99)).toFixed(1)} ms, ${bad} errors/non-2xx`,
    );
  }
  out(`  the dead endpoint was sent ${received} batch(es), none answered`);
}

function startService(scratch: string, name: string, database: Record<string, string>): Promise<RunningServer> {
  return spawnServer(
    [join(dist, 'apps/api/src/main.js')],
    {
      ...process.env,
      SYNTHORG_PORT: '0',
      SYNTHORG_LOG_DIR: join(scratch, `${name}-logs`),
      SYNTHORG_WORKSPACE_DIR: join(scratch, `${name}-workspace`),
      SYNTHORG_JWT_SECRET: BENCH_JWT_SECRET,
      SYNTHORG_CONFIG_FILE: '',
      SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '1000000',
      SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
      ...database,
    },
    30_000,
    { outputFile: join(scratch, `${name}.out`) },
  );
}
