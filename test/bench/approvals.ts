// The approvals benchmark (part of `npm run bench`; alone: BENCH_ONLY=approvals). For each backend
// (SQLite, Postgres) it runs the built service as a child process on a fresh database, with a
// zero-latency fake provider (mock-llm) in this process, and prints:
//   - decision to resume: an agent under `locked` autonomy (the real security pipeline escalates
//     every call) gets BENCH_APPROVALS_ITEMS tasks one after the other; each run calls list_files,
//     parks on its approval item, and the bench approves it. The figure is the time from sending
//     POST /approvals/{id}/approve to the arrival at the fake provider of the resumed run's first
//     model call (both clocks are this process's), with the approve call's own answer time beside it.
//     Target (issue): p50 under 50 ms.
//   - audit write overhead per event: BENCH_APPROVALS_AUDIT_EVENTS events recorded through the audit
//     trail (hash chained to the tail, one row each) on the same database, one after the other and
//     then 16 at a time; p50 and p99 per event, and events per second.
// Env: BENCH_APPROVALS_BACKENDS (sqlite,postgres), BENCH_APPROVALS_ITEMS (40),
// BENCH_APPROVALS_AUDIT_EVENTS (1000).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import pino from 'pino';

import { type MockLlm, startMockLlm } from '../../apps/mock-llm/src';
import { AuditTrail } from '../../apps/api/src/modules/audit/audit-trail';
import { AuditRepository } from '../../apps/api/src/modules/audit/audit.repository';
import { createDataSource } from '@app/persistence';
import type { DatabaseService, LoggingRuntime } from '@app/platform';
// The database helper alone: the @app/testing index also loads the Jest helpers.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
import { releaseScratch, type RunningServer, startBenchService } from './harness';
import { setUpCompany } from './seeding';

type Backend = 'sqlite' | 'postgres';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

const ITEMS = envInt('BENCH_APPROVALS_ITEMS', 40);
const AUDIT_EVENTS = envInt('BENCH_APPROVALS_AUDIT_EVENTS', 1000);
const AUDIT_WIDTH = 16;
const BACKENDS = (process.env.BENCH_APPROVALS_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqlite' || b === 'postgres');
const P50_TARGET_MS = 50;
const WAIT_MS = 30_000;

interface Result {
  backend: Backend;
  resumeMs: number[];
  approveMs: number[];
  auditSerialMs: number[];
  auditPerSecondSerial: number;
  auditPerSecondParallel: number;
  error: string | null;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

class Api {
  token: string | null = null;

  constructor(private readonly base: string) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    const text = await res.text();
    if (res.status >= 300) {
      throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    return (JSON.parse(text) as { data: T }).data;
  }
}

/** Polls (every 5 ms, bounded) until `check` answers a value. */
async function until<T>(what: string, check: () => Promise<T | null> | T | null): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await check();
    if (value !== null) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

function startService(scratch: string, db: TestDatabase): Promise<RunningServer> {
  return startBenchService(scratch, db, {
    SYNTHORG_BUDGET_TOTAL_MONTHLY: '0',
    SYNTHORG_BUDGET_PER_AGENT_DAILY_LIMIT: '0',
  });
}

/** Arrival times (this process's clock) of the fake provider's chat requests. */
function chatArrivals(mock: MockLlm): number[] {
  const arrivals: number[] = [];
  const requests = mock.requests;
  const push = requests.push.bind(requests);
  requests.push = (...items) => {
    for (const item of items) {
      if (item.path.endsWith('/chat/completions')) {
        arrivals.push(performance.now());
      }
    }
    return push(...items);
  };
  return arrivals;
}

async function decisions(port: number, mock: MockLlm, result: Result): Promise<void> {
  const api = new Api(`http://127.0.0.1:${port}/api/v1`);
  const company = await setUpCompany(port, `${mock.url}/v1`);
  api.token = company.token;
  const agent = company.agents[0];
  const project = (await api.call<{ id: string }>('POST', '/projects', { name: 'Approvals' })).id;
  await api.call('PUT', `/agents/${agent}/autonomy`, { level: 'locked', reason: 'approvals benchmark' });
  const arrivals = chatArrivals(mock);
  // One warm-up item (JIT, statement caches), then the measured ones.
  for (let i = 0; i <= ITEMS; i++) {
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }] },
      { kind: 'text', text: `Item ${i} done.` },
    );
    const task = await api.call<{ id: string }>('POST', '/tasks', {
      title: `Approval ${i}`,
      description: 'List the files.',
      type: 'development',
      project,
      created_by: 'ceo',
      assigned_to: agent,
    });
    const approvalId = await until('the run to park', async () => {
      const view = await api.call<{ status_reason: string | null }>('GET', `/tasks/${task.id}`);
      return /waiting for approval ([0-9a-f-]+)/.exec(view.status_reason ?? '')?.[1] ?? null;
    });
    const before = arrivals.length;
    const sent = performance.now();
    await api.call('POST', `/approvals/${approvalId}/approve`, {});
    const answered = performance.now();
    const resumed = await until('the resumed run to call the model', () =>
      arrivals.length > before ? arrivals[before] : null,
    );
    await until('the task to complete', async () => {
      const view = await api.call<{ status: string }>('GET', `/tasks/${task.id}`);
      return view.status === 'completed' ? true : null;
    });
    if (i > 0) {
      result.resumeMs.push(resumed - sent);
      result.approveMs.push(answered - sent);
    }
  }
}

/** The audit trail on its own, over the benchmark's database (the service's tables). */
async function auditWrites(db: TestDatabase, result: Result): Promise<void> {
  const source = await createDataSource(db.settings).initialize();
  try {
    const silent = pino({ level: 'silent' });
    const logging = { forName: () => silent } as unknown as LoggingRuntime;
    const trail = new AuditTrail(new AuditRepository({ dataSource: source } as DatabaseService), logging);
    const event = (i: number) => ({
      actor: 'bench',
      action: 'bench.event',
      target: `item:${i}`,
      outcome: 'success' as const,
      details: { index: i, note: 'an event of a typical size, with a few detail fields' },
    });
    for (let i = 0; i < 20; i++) {
      await trail.record(event(i)); // warm-up
    }
    const started = performance.now();
    for (let i = 0; i < AUDIT_EVENTS; i++) {
      const at = performance.now();
      if ((await trail.record(event(i))) === null) {
        throw new Error('an audit write failed');
      }
      result.auditSerialMs.push(performance.now() - at);
    }
    result.auditPerSecondSerial = AUDIT_EVENTS / ((performance.now() - started) / 1000);
    const parallel = performance.now();
    for (let i = 0; i < AUDIT_EVENTS; i += AUDIT_WIDTH) {
      const batch = Array.from({ length: Math.min(AUDIT_WIDTH, AUDIT_EVENTS - i) }, (_, k) =>
        trail.record(event(i + k)),
      );
      if ((await Promise.all(batch)).includes(null)) {
        throw new Error('an audit write failed');
      }
    }
    result.auditPerSecondParallel = AUDIT_EVENTS / ((performance.now() - parallel) / 1000);
    const verified = await trail.verify();
    if (verified.broken) {
      throw new Error(`the chain broke at ${verified.broken.seq}`);
    }
  } finally {
    await source.destroy();
  }
}

async function benchBackend(backend: Backend, log: (line: string) => void): Promise<Result> {
  const result: Result = {
    backend,
    resumeMs: [],
    approveMs: [],
    auditSerialMs: [],
    auditPerSecondSerial: 0,
    auditPerSecondParallel: 0,
    error: null,
  };
  const scratch = mkdtempSync(join(tmpdir(), `synthorg-bench-approvals-${backend}-`));
  let db: TestDatabase | null = null;
  let server: RunningServer | null = null;
  let mock: MockLlm | null = null;
  try {
    db = await createTestDatabase(backend);
    mock = await startMockLlm();
    server = await startService(scratch, db);
    log(`approvals bench ${backend}: ${ITEMS} decisions`);
    await decisions(server.port, mock, result);
    log(`approvals bench ${backend}: ${AUDIT_EVENTS} audit events`);
    await auditWrites(db, result);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await mock?.close().catch(() => undefined);
    await releaseScratch({ server, db, scratch });
  }
  return result;
}

/** Runs the approvals benchmark on every selected backend and prints the report. */
export async function runApprovalsBench(): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const results: Result[] = [];
  for (const backend of BACKENDS) {
    results.push(await benchBackend(backend, (line) => process.stderr.write(line + '\n')));
  }
  out(
    `\nApprovals benchmark: ${ITEMS} decisions one at a time; ${AUDIT_EVENTS} audit events (serial, then ${AUDIT_WIDTH} at a time)`,
  );
  out(
    'backend   decision→model call p50/p99 ms   approve answer p50 ms   audit event p50/p99 ms   audit events/s serial/parallel  goal',
  );
  for (const r of results) {
    if (r.error) {
      out(`${r.backend.padEnd(9)} bench failed: ${r.error}`);
      process.exitCode = 1;
      continue;
    }
    const p50 = percentile(r.resumeMs, 50);
    const verdict = p50 < P50_TARGET_MS ? '✓ met' : '✗ NOT met';
    out(
      `${r.backend.padEnd(9)} ${`${p50.toFixed(1)} / ${percentile(r.resumeMs, 99).toFixed(1)}`.padStart(30)} ` +
        `${percentile(r.approveMs, 50).toFixed(1).padStart(23)} ` +
        `${`${percentile(r.auditSerialMs, 50).toFixed(2)} / ${percentile(r.auditSerialMs, 99).toFixed(2)}`.padStart(24)} ` +
        `${`${r.auditPerSecondSerial.toFixed(0)} / ${r.auditPerSecondParallel.toFixed(0)}`.padStart(31)}  ` +
        `p50 < ${P50_TARGET_MS} ms ${verdict}`,
    );
  }
}
