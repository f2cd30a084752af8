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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { type MockLlm, type ScriptedReply, startMockLlm } from '../../apps/mock-llm/src';
// The database helper alone: the @app/testing index also loads the Jest helpers, which the bench
// build (types: node only) does not compile.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
import {
  type Backend,
  BACKENDS,
  HISTORY,
  IDLE_GAP_MS,
  IDLE_SAMPLES,
  KEEP,
  OVERHEAD_TASKS,
  SLOTS,
  STATUSES,
  TASKS,
  type Variant,
  VARIANTS,
} from './engine-config';
import { splitFromLogs } from './engine-log-split';
import { type BackendResult, loadAverage, type OverheadResult, report, type ThroughputResult } from './engine-report';
import {
  Api,
  type Created,
  createTasks,
  ms,
  sleep,
  type TaskView,
  type Waited,
  waitForCompletion,
} from './engine-tasks';
import { median, processCpuMs, type RunningServer, startBenchService } from './harness';
import { seedHistory } from './history';
import { setUpCompany } from './seeding';

const ANSI = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

const chatBodies = (mock: MockLlm): unknown[] =>
  mock.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);

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
