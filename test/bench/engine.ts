// The work-engine benchmark (part of `npm run bench`; alone: BENCH_ONLY=engine npm run bench, or
// node dist/test/bench/engine.js). For each backend (SQLite, Postgres) it runs the built service as
// a child process against a fresh database, with a zero-latency fake provider (mock-llm, OpenAI
// protocol) in this process, and prints:
//   - engine overhead per model call: tasks run one at a time (one engine slot) so the fake's
//     script (a global FIFO) lines up with the runs; per task, the wall time from started_at to
//     completed_at minus the time the fake itself takes to answer (a calibrated direct round trip
//     with the same request bodies), divided by the model calls of the task. Three variants: four
//     list_files tool turns then a text answer (5 calls; read-only tools need no worktree), a text
//     answer only (1 call), and two write_file turns then a text answer (3 calls; the first write
//     makes the task's git worktree and completion merges it, so this one carries the git work).
//   - throughput: BENCH_ENGINE_TASKS trivial tasks (one call each) assigned round-robin to the
//     company's agents, run with BENCH_ENGINE_CONCURRENCY slots; tasks per minute from the first
//     create to the last completion, and every task that did not complete ("stuck") by status.
// Both run over a company with history: before the first run, BENCH_ENGINE_HISTORY rows (100,000)
// go into each per-agent history table (security records, tool invocations, risk records, cost
// records, provider calls, task metrics), dated a year back from 40 days ago; 0 runs on empty tables.
// Targets (issue): overhead < 5 ms per model call; 1,000 trivial tasks complete, none stuck. The
// verdicts are printed, never asserted. Env: BENCH_ENGINE_TASKS (1000), BENCH_ENGINE_OVERHEAD_TASKS
// (150), BENCH_ENGINE_VARIANTS (list_files,text,write_file), BENCH_ENGINE_CONCURRENCY (16), BENCH_ENGINE_BACKENDS
// (sqlite,postgres), BENCH_ENGINE_DEADLINE_SECONDS (300 per wait), BENCH_ENGINE_STALL_SECONDS (30),
// BENCH_ENGINE_HISTORY (100000), BENCH_ENGINE_KEEP=1 (keep the scratch directories with the service logs). Postgres: the server of
// SYNTHORG_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test); a database per run.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { type MockLlm, type ScriptedReply, startMockLlm } from '../../apps/mock-llm/src';
import { TASK_STATUSES } from '@app/domain';
// The database helper alone: the @app/testing index also loads the Jest helpers, which the bench
// build (types: node only) does not compile.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
import { median, processCpuMs, type RunningServer, startBenchService } from './harness';
import { type SeededHistory, seedHistory } from './history';
import { setUpCompany } from './seeding';

type Backend = 'sqlite' | 'postgres';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

const TASKS = envInt('BENCH_ENGINE_TASKS', 1000);
/** Tasks per overhead variant. */
const OVERHEAD_TASKS = envInt('BENCH_ENGINE_OVERHEAD_TASKS', 150);
const SLOTS = Math.min(envInt('BENCH_ENGINE_CONCURRENCY', 16), 64);
/** Rows of history per table before the runs; 0: none. */
const HISTORY = ((value) => (Number.isInteger(value) && value >= 0 ? value : 100_000))(
  Number(process.env.BENCH_ENGINE_HISTORY ?? 100_000),
);
const DEADLINE_MS = envInt('BENCH_ENGINE_DEADLINE_SECONDS', 300) * 1000;
/** No completion for this long (and the deadline not yet reached): the wait gives up early. */
const STALL_MS = envInt('BENCH_ENGINE_STALL_SECONDS', 30) * 1000;
const BACKENDS = (process.env.BENCH_ENGINE_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqlite' || b === 'postgres');
/** Keep each backend's scratch directory (the service's logs and workspace) for a closer look. */
const KEEP = process.env.BENCH_ENGINE_KEEP === '1';
const CREATE_IN_FLIGHT = 20;
interface Variant {
  name: string;
  toolTurns: number;
  tool: 'list_files' | 'write_file';
}

const ALL_VARIANTS: readonly Variant[] = [
  { name: '4 list_files turns + text', toolTurns: 4, tool: 'list_files' },
  { name: 'text only', toolTurns: 0, tool: 'list_files' },
  { name: '2 write_file turns + text', toolTurns: 2, tool: 'write_file' },
];
/** BENCH_ENGINE_VARIANTS: a comma list of variant names' first words (list_files, text, write_file). */
const VARIANTS = ((only) =>
  only ? ALL_VARIANTS.filter((v) => only.includes(v.name === 'text only' ? 'text' : v.tool)) : ALL_VARIANTS)(
  process.env.BENCH_ENGINE_VARIANTS?.split(',').map((v) => v.trim()),
);
const OVERHEAD_TARGET_MS = 5;
const POLL_MS = 250;
const STATUSES = TASK_STATUSES;
const ANSI = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

interface Envelope<T> {
  data: T;
  pagination?: { total: number } | null;
}

interface TaskView {
  id: string;
  status: string;
  status_reason: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** The service's REST API as the bench's one user. */
class Api {
  token: string | null = null;

  constructor(public base: string) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (res.status >= 300) {
      throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    return JSON.parse(text) as Envelope<T>;
  }

  async count(project: string, status: string): Promise<number> {
    const page = await this.call<TaskView[]>('GET', `/tasks?project=${project}&status=${status}&limit=1`);
    return page.pagination?.total ?? 0;
  }

  /** Every task of a project in one status (pages of 200; bounded by the first page's total). */
  async tasks(project: string, status: string, limit = Number.MAX_SAFE_INTEGER): Promise<TaskView[]> {
    const out: TaskView[] = [];
    for (let offset = 0, total = 1; offset < total && out.length < limit; offset += 200) {
      const page = await this.call<TaskView[]>(
        'GET',
        `/tasks?project=${project}&status=${status}&limit=${Math.min(200, limit)}&offset=${offset}`,
      );
      total = page.pagination?.total ?? 0;
      out.push(...page.data);
      if (page.data.length === 0) {
        break;
      }
    }
    return out.slice(0, limit);
  }

  async project(name: string): Promise<string> {
    return (await this.call<{ id: string }>('POST', '/projects', { name })).data.id;
  }
}

interface Created {
  ids: string[];
  errors: number;
  firstError: string | null;
  /** Wall clock (ms) when the first create was sent and when the last one answered. */
  startedAt: number;
  endedAt: number;
}

interface Waited {
  completed: number;
  waitedMs: number;
  outcome: 'all completed' | 'deadline passed' | 'stalled' | 'service died';
}

interface OverheadResult {
  variant: string;
  calls: number;
  tasks: number;
  completed: number;
  measured: number;
  warmupExcluded: boolean;
  wall: number[];
  fakeMs: number;
  /** The fake's round trip after an idle gap (information only). */
  fakeIdleMs: number;
  perCall: number[];
  cycleMs: number | null;
  /**
   * CPU time of the whole service process (every thread) per task, from the last create to the last
   * completion: steadier than wall time on a machine whose wake-ups are slow. Null off Linux.
   */
  cpuMsPerTask: number | null;
  chatRequests: number;
  split: LogSplit | null;
  measuredTasks: TaskView[];
  waited: Waited;
}

interface LogSplit {
  tasks: number;
  calls: number;
  claimMs: number;
  providerMs: number;
  recordsMs: number;
  toolMs: number;
  mergeMs: number;
  outcomeMs: number;
}

interface ThroughputResult {
  created: Created;
  waited: Waited;
  statuses: Record<string, number>;
  completed: number;
  elapsedMs: number;
  perMinute: number;
  latencySec: number[];
  chatRequests: number;
  stuck: TaskView[];
  /** How the service process died during the run, if it did (the counts come from a restart without the engine). */
  died: string | null;
}

interface BackendResult {
  backend: Backend;
  history: SeededHistory | null;
  overhead: OverheadResult[];
  throughput: ThroughputResult | null;
  error: string | null;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const ms = (iso: string | null): number => (iso ? Date.parse(iso) : Number.NaN);
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) : NaN;
};
const chatBodies = (mock: MockLlm): unknown[] =>
  mock.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);

/** `width` workers take indices 0..count-1 in order; `job` must not throw. */
async function pool(count: number, width: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      await job(next++);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}

async function createTasks(api: Api, count: number, project: string, agents: string[]): Promise<Created> {
  const ids: string[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const startedAt = Date.now();
  await pool(count, CREATE_IN_FLIGHT, async (i) => {
    try {
      const task = await api.call<TaskView>('POST', '/tasks', {
        title: `Bench task ${i}`,
        description: 'Answer with one short sentence.',
        type: 'development',
        project,
        created_by: 'bench',
        assigned_to: agents[i % agents.length],
      });
      ids.push(task.data.id);
    } catch (error) {
      errors += 1;
      firstError ??= (error as Error).message;
    }
  });
  return { ids, errors, firstError, startedAt, endedAt: Date.now() };
}

/** Polls the completed count until all `expected` completed, the deadline passes, or nothing moves. */
async function waitForCompletion(api: Api, project: string, expected: number): Promise<Waited> {
  const start = Date.now();
  let completed = 0;
  let lastMove = start;
  while (Date.now() - start < DEADLINE_MS) {
    const now = await api.count(project, 'completed');
    if (now !== completed) {
      completed = now;
      lastMove = Date.now();
    }
    if (completed >= expected) {
      return { completed, waitedMs: Date.now() - start, outcome: 'all completed' };
    }
    if (Date.now() - lastMove > STALL_MS) {
      return { completed, waitedMs: Date.now() - start, outcome: 'stalled' };
    }
    await sleep(POLL_MS);
  }
  return { completed, waitedMs: Date.now() - start, outcome: 'deadline passed' };
}

/** The replies of the `index`th task of a variant (writes go to files no other task touches). */
function scriptFor(variant: Variant, index: number): ScriptedReply[] {
  const args = (turn: number): Record<string, unknown> =>
    variant.tool === 'write_file'
      ? { path: `bench/${index}-${turn}.md`, content: `Task ${index}, turn ${turn}.\n` }
      : {};
  const turns = Array.from({ length: variant.toolTurns }, (_, turn): ScriptedReply => ({
    kind: 'tool_calls',
    calls: [{ name: variant.tool, arguments: args(turn) }],
  }));
  return [...turns, { kind: 'text', text: 'Done.' }];
}

/** The idle gap before each sample of the fake's round trip as the engine meets it (once per call, after idling). */
const IDLE_GAP_MS = 20;
const IDLE_SAMPLES = 60;

/**
 * What the fake itself costs per call: the engine's recorded request bodies replayed straight at it
 * from here (keep-alive, bodies pre-serialised), timed to the last byte of the answer. The median
 * back to back (`hotMs`, what the overhead subtracts) and after an idle gap each (`idleMs`,
 * information only): on a virtual machine a loopback round trip between processes that were idle
 * costs several times one between busy ones.
 */
async function calibrate(
  mock: MockLlm,
  bodies: unknown[],
  script: ScriptedReply[],
): Promise<{ hotMs: number; idleMs: number }> {
  const url = `${mock.url}/v1/chat/completions`;
  const payloads = bodies.slice(0, 1000).map((b) => JSON.stringify(b));
  const post = async (payload: string): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload });
    await res.text();
    return performance.now() - t0;
  };
  mock.reset();
  for (const payload of payloads.slice(0, 50)) {
    await post(payload); // warm-up, answered with the echo
  }
  mock.reset();
  for (let i = 0; i < Math.ceil((payloads.length + IDLE_SAMPLES) / script.length); i++) {
    mock.enqueue(...script);
  }
  const hot: number[] = [];
  for (const payload of payloads) {
    hot.push(await post(payload));
  }
  const idle: number[] = [];
  for (let i = 0; i < IDLE_SAMPLES && payloads.length > 0; i++) {
    await sleep(IDLE_GAP_MS);
    idle.push(await post(payloads[i % payloads.length]));
  }
  mock.reset();
  return { hotMs: median(hot), idleMs: idle.length > 0 ? median(idle) : Number.NaN };
}

async function overheadRun(
  api: Api,
  mock: MockLlm,
  agent: string,
  count: number,
  spec: Variant,
  pid: number,
): Promise<OverheadResult> {
  const calls = spec.toolTurns + 1;
  const variant = spec.name;
  const script = scriptFor(spec, 0);
  mock.reset();
  for (let i = 0; i < count; i++) {
    mock.enqueue(...scriptFor(spec, i));
  }
  const project = await api.project(`bench-overhead-${spec.tool}-${calls}`);
  const created = await createTasks(api, count, project, [agent]);
  const cpuBefore = processCpuMs(pid);
  const waited = await waitForCompletion(api, project, created.ids.length);
  const cpuAfter = processCpuMs(pid);
  const done = (await api.tasks(project, 'completed')).filter((t) => t.started_at && t.completed_at);
  const bodies = chatBodies(mock);
  // Tasks that ran while this process was still creating tasks shared the service with the API
  // traffic (and the first ones warm the JIT): left out when enough remain.
  const clean = done.filter((t) => ms(t.started_at) >= created.endedAt);
  const warmupExcluded = clean.length >= Math.max(10, Math.floor(done.length / 10));
  const measured = (warmupExcluded ? clean : done).sort((a, b) => ms(a.completed_at) - ms(b.completed_at));
  const wall = measured.map((t) => ms(t.completed_at) - ms(t.started_at));
  const { hotMs: fakeMs, idleMs: fakeIdleMs } = await calibrate(mock, bodies, script);
  const first = measured[0];
  const last = measured[measured.length - 1];
  const cycleMs =
    first && last && measured.length > 1
      ? (ms(last.completed_at) - ms(first.completed_at)) / (measured.length - 1) / calls
      : null;
  // The tasks that completed after the last create: what the CPU between the two readings ran.
  const ranAfter = done.filter((t) => ms(t.completed_at) >= created.endedAt).length;
  const cpuMsPerTask =
    cpuBefore !== undefined && cpuAfter !== undefined && ranAfter > 0 ? (cpuAfter - cpuBefore) / ranAfter : null;
  return {
    variant,
    calls,
    tasks: count,
    completed: done.length,
    measured: measured.length,
    warmupExcluded,
    wall,
    fakeMs,
    fakeIdleMs,
    perCall: wall.map((w) => (w - calls * fakeMs) / calls),
    cycleMs,
    cpuMsPerTask,
    chatRequests: bodies.length,
    split: null,
    measuredTasks: measured,
    waited,
  };
}

/**
 * Where a task's wall time went, from the service's JSON log (event times have millisecond
 * resolution; averaged over the measured tasks): the claim (started_at to engine.run.started), the
 * model calls as timed by the recording driver, the tools, the merge of the worktree (last cost
 * record to engine.task.metrics), the outcome's write (engine.task.metrics to completed_at; the
 * metric row is written before it, beside the last cost record), and the rest of the loop: per call,
 * the provider_calls row, the cost record and its budget event.
 */
function splitFromLogs(logDir: string, tasks: TaskView[]): LogSplit | null {
  interface Seen {
    runStarted: number;
    lastCost: number;
    metrics: number;
    provider: number;
    calls: number;
    tool: number;
  }
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const perTask = new Map<string, Seen>();
  let files: string[];
  try {
    // synthorg.log has every event at info and above once (the other sinks repeat subsets of it).
    files = readdirSync(logDir).filter((f) => f.startsWith('synthorg.log'));
  } catch {
    return null;
  }
  for (const file of files) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{') || !line.includes('"task_id"')) {
        continue;
      }
      let rec: Record<string, unknown>;
      try {
        rec = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      const id = rec.task_id;
      if (typeof id !== 'string' || !byId.has(id)) {
        continue;
      }
      const at = Date.parse(String(rec.time));
      const row = perTask.get(id) ?? { runStarted: NaN, lastCost: NaN, metrics: NaN, provider: 0, calls: 0, tool: 0 };
      perTask.set(id, row);
      switch (rec.event) {
        case 'engine.run.started':
          row.runStarted = at;
          break;
        case 'provider.call.completed':
          row.provider += Number(rec.latency_ms ?? 0);
          row.calls += 1;
          break;
        case 'budget.record.added':
          row.lastCost = at;
          break;
        case 'engine.tool.invoked':
          row.tool += Number(rec.duration_ms ?? 0);
          break;
        case 'engine.task.metrics':
          row.metrics = at;
          break;
        default:
      }
    }
  }
  const rows = [...perTask.entries()]
    .map(([id, seen]) => ({ seen, task: byId.get(id) as TaskView }))
    .filter(({ seen }) => seen.calls > 0 && Number.isFinite(seen.runStarted + seen.metrics + seen.lastCost));
  if (rows.length === 0) {
    return null;
  }
  const avg = (pick: (seen: Seen, task: TaskView) => number) => mean(rows.map((r) => pick(r.seen, r.task)));
  const claimMs = avg((x, t) => x.runStarted - ms(t.started_at));
  const providerMs = avg((x) => x.provider);
  const toolMs = avg((x) => x.tool);
  const mergeMs = avg((x) => x.metrics - x.lastCost);
  const outcomeMs = avg((x, t) => ms(t.completed_at) - x.metrics);
  const wallMs = avg((_x, t) => ms(t.completed_at) - ms(t.started_at));
  return {
    tasks: rows.length,
    calls: avg((x) => x.calls),
    claimMs,
    providerMs,
    toolMs,
    mergeMs,
    outcomeMs,
    recordsMs: wallMs - claimMs - providerMs - toolMs - mergeMs - outcomeMs,
  };
}

/** Creates the tasks and waits; a service that dies meanwhile ends the wait ("service died"). */
async function throughputLoad(
  api: Api,
  server: RunningServer,
  agents: string[],
): Promise<{ project: string; created: Created; waited: Waited }> {
  const project = await api.project('bench-throughput');
  const created = await createTasks(api, TASKS, project, agents);
  const start = Date.now();
  try {
    return { project, created, waited: await waitForCompletion(api, project, created.ids.length) };
  } catch (error) {
    if (!exited(server)) {
      throw error;
    }
    return {
      project,
      created,
      waited: { completed: Number.NaN, waitedMs: Date.now() - start, outcome: 'service died' },
    };
  }
}

/** Status counts, completion times and up to five tasks that did not complete. */
async function throughputResult(
  api: Api,
  mock: MockLlm,
  load: { project: string; created: Created; waited: Waited },
  died: string | null,
): Promise<ThroughputResult> {
  const { project, created } = load;
  const statuses: Record<string, number> = {};
  for (const status of STATUSES) {
    statuses[status] = await api.count(project, status);
  }
  const done = await api.tasks(project, 'completed');
  const lastCompletion = Math.max(...done.map((t) => ms(t.completed_at)));
  const elapsedMs = done.length ? lastCompletion - created.startedAt : Number.NaN;
  const stuck: TaskView[] = [];
  for (const status of STATUSES) {
    if (status !== 'completed' && (statuses[status] ?? 0) > 0 && stuck.length < 5) {
      stuck.push(...(await api.tasks(project, status, 5 - stuck.length)));
    }
  }
  return {
    created,
    waited: load.waited,
    statuses,
    completed: done.length,
    elapsedMs,
    perMinute: (done.length / elapsedMs) * 60_000,
    latencySec: done.map((t) => (ms(t.completed_at) - ms(t.created_at)) / 1000),
    chatRequests: chatBodies(mock).length,
    stuck,
    died,
  };
}

const exited = (server: RunningServer | null): boolean =>
  server !== null && (server.child.exitCode !== null || server.child.signalCode !== null);

/** How the service ended, with the assertion and top native frames of a crash report when there is one. */
function crashSummary(server: RunningServer): string {
  const how = server.child.signalCode ?? `exit code ${server.child.exitCode}`;
  const text = server.output().replace(ANSI, '');
  const fatal = /(Assertion failed: .*|FATAL ERROR: .*)/.exec(text)?.[1];
  const frames = [...text.matchAll(/^\s*\d+: 0x[0-9a-f]+ +(.+?)(?: \[(.*)\])?$/gm)]
    .filter((m) => !/^(\[|node::Assert\()/.test(m[1] ?? ''))
    .slice(0, 3)
    .map((m) => `${(m[1] ?? '').replace(/\(.*\)/, '()')}${m[2] ? ` (${basename(m[2])})` : ''}`);
  if (fatal) {
    return `${how}: ${fatal.trim()} in ${frames.join(' <- ')}`;
  }
  return `${how}; last output: ${text.slice(-400).replace(/\s+/g, ' ')}`;
}

function startService(
  scratch: string,
  db: TestDatabase,
  slots: number,
  extra: Record<string, string> = {},
): Promise<RunningServer> {
  // data/workspace (the git repository and worktrees) lands in scratch, the service's working directory.
  return startBenchService(scratch, db, {
    SYNTHORG_ENGINE_CONCURRENCY: String(slots),
    SYNTHORG_ENGINE_AGENT_CONCURRENCY: String(slots),
    SYNTHORG_ENGINE_GRACE_SECONDS: '2',
    ...extra,
  });
}

async function benchBackend(backend: Backend, log: (line: string) => void): Promise<BackendResult> {
  const result: BackendResult = { backend, history: null, overhead: [], throughput: null, error: null };
  const scratch = mkdtempSync(join(tmpdir(), `synthorg-bench-engine-${backend}-`));
  let db: TestDatabase | null = null;
  let mock: MockLlm | null = null;
  let server: RunningServer | null = null;
  try {
    db = await createTestDatabase(backend);
    mock = await startMockLlm();
    // 1. Overhead: one engine slot, so runs never overlap and each takes its replies in order.
    server = await startService(scratch, db, 1);
    const api = new Api(`http://127.0.0.1:${server.port}/api/v1`);
    const company = await setUpCompany(server.port, `${mock.url}/v1`);
    api.token = company.token;
    const agents = company.agents;
    const agent = agents[0];
    if (!agent) {
      throw new Error('the startup template created no agents');
    }
    if (HISTORY > 0) {
      // Written while no service runs (SQLite has one writer at a time), then read by a fresh start.
      log(`engine bench ${backend}: history, ${HISTORY} rows in each history table`);
      await server.stop();
      server = null;
      result.history = await seedHistory(db, HISTORY);
      server = await startService(scratch, db, 1);
      api.base = `http://127.0.0.1:${server.port}/api/v1`;
    }
    for (const variant of VARIANTS) {
      const count = OVERHEAD_TASKS;
      log(`engine bench ${backend}: overhead, ${count} tasks x ${variant.toolTurns + 1} calls, one slot`);
      result.overhead.push(await overheadRun(api, mock, agent, count, variant, server.child.pid ?? 0));
    }
    await server.stop(); // flushes the log files read below
    server = null;
    for (const run of result.overhead) {
      run.split = splitFromLogs(join(scratch, 'logs'), run.measuredTasks);
    }
    // 2. Throughput: the same database, a new process with SLOTS slots.
    server = await startService(scratch, db, SLOTS);
    api.base = `http://127.0.0.1:${server.port}/api/v1`;
    log(`engine bench ${backend}: throughput, ${TASKS} tasks, ${SLOTS} slots, ${agents.length} agents`);
    mock.reset(); // no script: every chat is answered at once with an echo text, so one call per task
    const load = await throughputLoad(api, server, agents);
    let died: string | null = null;
    if (exited(server)) {
      // Count what the dead process left behind with a service that does not run (or recover) tasks.
      died = crashSummary(server);
      log(`engine bench ${backend}: the service died (${died}); reading the task table without the engine`);
      server = await startService(scratch, db, SLOTS, { SYNTHORG_ENGINE_ENABLED: 'false' });
      api.base = `http://127.0.0.1:${server.port}/api/v1`;
    }
    result.throughput = await throughputResult(api, mock, load, died);
  } catch (error) {
    result.error = describe(error);
    if (server && exited(server)) {
      result.error += ` (the service died: ${crashSummary(server)})`;
    }
  } finally {
    await server?.stop().catch(() => undefined);
    await mock?.close().catch(() => undefined);
    await db?.drop().catch(() => undefined);
    if (KEEP) {
      log(`engine bench ${backend}: kept ${scratch}`);
    } else {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return result;
}

/** The message with its causes (fetch hides the socket error in `cause`). */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    parts.push(e instanceof Error ? e.message : JSON.stringify(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(': ');
}

const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');
const mark = (ok: boolean): string => (ok ? '✓ met' : '✗ NOT met');
const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** Per call without the tools' own time and the worktree merge (multi-turn variant), from the log split. */
function withoutToolsPerCall(o: OverheadResult): number | null {
  if (!o.split || o.calls === 1) {
    return null;
  }
  return (mean(o.wall) - o.split.toolMs - o.split.mergeMs - o.calls * o.fakeMs) / o.calls;
}

function reportOverhead(results: BackendResult[], out: (line: string) => void): void {
  out(`\nEngine overhead per model call (one engine slot; ${OVERHEAD_TASKS} tasks per variant)`);
  out(
    'backend   variant                     tasks calls  wall ms/task p50    p95  fake ms/call  overhead ms/call mean    p50    p95  cycle ms/call',
  );
  for (const r of results) {
    for (const o of r.overhead) {
      out(
        `${r.backend.padEnd(9)} ${o.variant.padEnd(26)} ${String(o.measured).padStart(6)} ${String(o.calls).padStart(5)} ` +
          `${f1(percentile(o.wall, 50)).padStart(17)} ${f1(percentile(o.wall, 95)).padStart(6)} ${f2(o.fakeMs).padStart(13)} ` +
          `${f2(mean(o.perCall)).padStart(21)} ${f2(percentile(o.perCall, 50)).padStart(6)} ${f2(percentile(o.perCall, 95)).padStart(6)} ` +
          `${f1(o.cycleMs ?? Number.NaN).padStart(14)}`,
      );
      const notes: string[] = [];
      if (o.completed < o.tasks) {
        notes.push(`only ${o.completed}/${o.tasks} completed (${o.waited.outcome})`);
      }
      if (o.chatRequests !== o.tasks * o.calls) {
        notes.push(
          `${o.chatRequests} model calls, expected ${o.tasks * o.calls}: the script and the runs were out of step`,
        );
      }
      if (!o.warmupExcluded) {
        notes.push('every task measured (too few started after the last create)');
      }
      if (o.cpuMsPerTask !== null) {
        notes.push(
          `service CPU: ${f2(o.cpuMsPerTask)} ms per task (every thread, from the last create to the last completion; ` +
            `the bench's count polls included)`,
        );
      }
      if (o.split) {
        const x = o.split;
        notes.push(
          `per task, ms (service log, ${x.tasks} tasks): claim ${f1(x.claimMs)} | model calls ${f1(x.providerMs)} ` +
            `(${f1(x.calls)}, timed by the driver) | cost records + events + loop ${f1(x.recordsMs)} | tools ${f1(x.toolMs)} | ` +
            `merge ${f1(x.mergeMs)} | metric + outcome ${f1(x.outcomeMs)}`,
        );
      }
      const bare = withoutToolsPerCall(o);
      if (bare !== null) {
        notes.push(`without the tools' own time and the merge: ${f2(bare)} ms per call`);
      }
      if (Number.isFinite(o.fakeIdleMs)) {
        const idleOverhead = mean(o.perCall) - (o.fakeIdleMs - o.fakeMs);
        notes.push(
          `the fake after ${IDLE_GAP_MS} ms idle: ${f2(o.fakeIdleMs)} ms per call (back to back ${f2(o.fakeMs)}); ` +
            `overhead with that time: ${f2(idleOverhead)} ms per call (information only)`,
        );
      }
      for (const note of notes) {
        out(`          ${note}`);
      }
    }
  }
  out('  wall: started_at -> completed_at of a task: the claim (compare-and-set), each model call through the');
  out('  OpenAI SDK and the recording driver (+ provider_calls row), a cost record + budget event per call, the');
  out('  tools (+ tool_invocations row; read-only tools use the base checkout, the first write creates the git');
  out('  worktree and completion merges it), the metric row (written while the cost records land) and the');
  out('  in_progress -> in_review -> completed write (one compare-and-set, an event per step).');
  out("  fake: median round trip from here to the fake with the engine's own request bodies, back to back.");
  out('  overhead = (wall - calls x fake) / calls; the verdict uses it. The engine');
  out('  meets the fake once per call, after idling: the round trip timed that way is printed for information.');
  out('  cycle: interval between completions / calls = wall + queue pickup, task load, routing, pre-flight, job');
  out('  bookkeeping. Tasks started while the bench was still creating tasks are left out.');
}

function reportThroughput(results: BackendResult[], out: (line: string) => void): void {
  out(
    `\nThroughput (${TASKS} trivial tasks, 1 model call each, ${SLOTS} engine slots, agents round-robin, ${CREATE_IN_FLIGHT} creates in flight)`,
  );
  out('backend   completed     stuck  create errors  creating s  elapsed s  tasks/min  latency p50/p95 s  wait ended');
  for (const r of results) {
    const t = r.throughput;
    if (!t) {
      continue;
    }
    out(
      `${r.backend.padEnd(9)} ${`${t.completed}/${TASKS}`.padEnd(10)} ${String(TASKS - t.completed).padStart(8)} ` +
        `${String(t.created.errors).padStart(14)} ${f1((t.created.endedAt - t.created.startedAt) / 1000).padStart(11)} ` +
        `${f1(t.elapsedMs / 1000).padStart(10)} ${f1(t.perMinute).padStart(10)} ` +
        `${`${f1(percentile(t.latencySec, 50))}/${f1(percentile(t.latencySec, 95))}`.padStart(18)}  ${t.waited.outcome}`,
    );
    out(
      `          statuses: ${STATUSES.map((s) => `${s}=${t.statuses[s] ?? 0}`).join(' ')}; model calls ${t.chatRequests}`,
    );
    const pollBound = SLOTS * 60;
    if (r.backend === 'postgres' && Math.abs(t.perMinute - pollBound) < pollBound * 0.05) {
      out(
        `          = ${SLOTS} slots x 1 job per second: each pg-boss worker slot fetches at most once per polling interval (1 s)`,
      );
    }
    if (t.died) {
      out(`          the service process died during the run: ${t.died}`);
      out('          (counts read back by a restarted service with the engine off)');
    }
    if (t.created.firstError) {
      out(`          first create error: ${t.created.firstError}`);
    }
    for (const task of t.stuck) {
      const reason = task.status_reason ? ` (${task.status_reason.slice(0, 100)})` : '';
      out(`          stuck: ${task.id} ${task.status}${reason}`);
    }
  }
  out('  elapsed: first create sent -> last completed_at; latency: created_at -> completed_at of each task.');
}

function reportTargets(results: BackendResult[], out: (line: string) => void): void {
  out('\nTargets');
  for (const r of results) {
    const name = r.backend.padEnd(9);
    if (r.error) {
      out(`${name} bench failed: ${r.error}`);
    }
    if (r.overhead.length > 0) {
      const parts = r.overhead.map((o) => {
        const perCall = mean(o.perCall);
        const bare = withoutToolsPerCall(o);
        const without = bare === null ? '' : ` (without tools + merge ${f2(bare)} ${mark(bare < OVERHEAD_TARGET_MS)})`;
        return `${o.variant} ${f2(perCall)} ${mark(perCall < OVERHEAD_TARGET_MS)}${without}`;
      });
      out(`${name} engine overhead < ${OVERHEAD_TARGET_MS} ms per model call, mean: ${parts.join('; ')}`);
    }
    const t = r.throughput;
    if (t) {
      const ok = t.completed === TASKS && t.created.errors === 0;
      out(
        `${name} ${TASKS} trivial tasks complete without a stuck task: ${mark(ok)} ` +
          `(${t.completed} completed, ${TASKS - t.completed} not; ${f1(t.perMinute)} tasks/min)`,
      );
    }
  }
}

function report(results: BackendResult[], loadBefore: string, out: (line: string) => void): void {
  out(
    `\nWork-engine benchmark: zero-latency fake provider (mock-llm, OpenAI protocol, in the bench process); ` +
      `node ${process.version}, ${availableParallelism()} CPUs, load average ${loadBefore} before, ${loadAverage()} after`,
  );
  for (const r of results) {
    const h = r.history;
    out(
      h
        ? `${r.backend.padEnd(9)} history: ${h.rowsPerTable} rows in each of ${h.tables.join(', ')} (${h.agents} agents; seeded in ${f1(h.seconds)} s)`
        : `${r.backend.padEnd(9)} history: none (empty tables)`,
    );
  }
  reportOverhead(results, out);
  reportThroughput(results, out);
  reportTargets(results, out);
}

/** Runs the engine benchmark on every selected backend and prints the report. */
export async function runEngineBench(): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const progress = (line: string) => process.stderr.write(line + '\n');
  const loadBefore = loadAverage();
  const results: BackendResult[] = [];
  for (const backend of BACKENDS) {
    results.push(await benchBackend(backend, progress));
  }
  report(results, loadBefore, out);
  if (results.some((r) => r.error)) {
    process.exitCode = 1;
  }
}

if (require.main === module) {
  void runEngineBench().catch((error: unknown) => {
    process.stderr.write(`engine bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
