// The coordination benchmark (part of `npm run bench`; alone: BENCH_ONLY=coordination). For each
// backend it runs the built service against a zero-latency fake provider and coordinates parents
// whose decomposition is a chain of BENCH_COORDINATION_SUBTASKS subtasks (each depends on the one
// before: sas, one subtask per wave, so no two runs overlap). Per subtask it prints the coordination's
// own overhead: the dispatch phase's time minus the subtasks' runs (started_at to completed_at, which
// hold the model calls and the engine's work), divided by the subtasks — the time to create, assign,
// queue, notice a settled wave and start the next. The decompose phase (the model call, its cost
// record and the DAG checks) is printed beside it. Medians over BENCH_COORDINATION_ROUNDS parents.
// Env: BENCH_COORDINATION_BACKENDS (sqlite,postgres).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type MockLlm, startMockLlm } from '../../apps/mock-llm/src';
// The database helper alone: the @app/testing index also loads the Jest helpers.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
import { median, type RunningServer, startBenchService } from './harness';
import { setUpCompany } from './seeding';

type Backend = 'sqlite' | 'postgres';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

const SUBTASKS = Math.min(envInt('BENCH_COORDINATION_SUBTASKS', 8), 50);
const ROUNDS = envInt('BENCH_COORDINATION_ROUNDS', 10);
const BACKENDS = (process.env.BENCH_COORDINATION_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqlite' || b === 'postgres');

interface Phase {
  phase: string;
  success: boolean;
  duration_seconds: number;
}

interface TaskView {
  id: string;
  parent_task_id: string | null;
  started_at: string | null;
  completed_at: string | null;
}

async function call<T>(base: string, token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  }
  return (JSON.parse(text) as { data: T }).data;
}

function startService(scratch: string, db: TestDatabase): Promise<RunningServer> {
  return startBenchService(scratch, db, {}, { cwd: scratch, outputFile: join(scratch, 'server.out') });
}

/** One coordination: seconds of the decompose phase, and the dispatch overhead per subtask. */
async function coordinateOnce(base: string, token: string, mock: MockLlm, project: string) {
  const parent = await call<{ id: string }>(base, token, 'POST', '/tasks', {
    title: 'Chain',
    description: 'A chain of parts.',
    type: 'development',
    project,
    created_by: 'bench',
  });
  const subtasks = Array.from({ length: SUBTASKS }, (_, i) => ({
    id: `s${i}`,
    title: `Part ${i}`,
    description: `Part ${i}.`,
    dependencies: i === 0 ? [] : [`s${i - 1}`],
  }));
  mock.enqueue({ kind: 'text', text: JSON.stringify({ subtasks }) });
  const result = await call<{ phases: Phase[]; is_success: boolean }>(
    base,
    token,
    'POST',
    `/tasks/${parent.id}/coordinate`,
    { max_subtasks: SUBTASKS },
  );
  if (!result.is_success) {
    throw new Error(`the coordination failed: ${JSON.stringify(result.phases)}`);
  }
  const seconds = (name: string): number => result.phases.find((p) => p.phase === name)?.duration_seconds ?? 0;
  const done = await call<TaskView[]>(base, token, 'GET', `/tasks?project=${project}&status=completed&limit=200`);
  const runs = done
    .filter((t) => t.parent_task_id === parent.id && t.started_at && t.completed_at)
    .reduce((sum, t) => sum + (Date.parse(t.completed_at as string) - Date.parse(t.started_at as string)), 0);
  return { decomposeMs: seconds('decompose') * 1000, perSubtaskMs: (seconds('dispatch') * 1000 - runs) / SUBTASKS };
}

async function benchBackend(backend: Backend): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), `synthorg-bench-coordination-${backend}-`));
  let db: TestDatabase | null = null;
  let mock: MockLlm | null = null;
  let server: RunningServer | null = null;
  try {
    db = await createTestDatabase(backend);
    mock = await startMockLlm();
    server = await startService(scratch, db);
    const base = `http://127.0.0.1:${server.port}/api/v1`;
    const { token } = await setUpCompany(server.port, `${mock.url}/v1`);
    const project = (await call<{ id: string }>(base, token, 'POST', '/projects', { name: 'Coordination' })).id;
    await coordinateOnce(base, token, mock, project); // warm-up
    const decompose: number[] = [];
    const overhead: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const run = await coordinateOnce(base, token, mock, project);
      decompose.push(run.decomposeMs);
      overhead.push(run.perSubtaskMs);
    }
    return (
      `coordination ${backend}: ${SUBTASKS} chained subtasks x ${ROUNDS} parents: overhead per subtask ` +
      `${median(overhead).toFixed(1)} ms apart from the runs (min ${Math.min(...overhead).toFixed(1)}, max ` +
      `${Math.max(...overhead).toFixed(1)}); decompose phase ${median(decompose).toFixed(1)} ms (model call included)`
    );
  } catch (error) {
    return `coordination ${backend}: failed: ${(error as Error).message}`;
  } finally {
    await server?.stop();
    await mock?.close();
    await db?.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function runCoordinationBench(): Promise<void> {
  for (const backend of BACKENDS) {
    process.stdout.write(`${await benchBackend(backend)}\n`);
  }
}
