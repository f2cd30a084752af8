import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';

import { createTestDatabase, eventually, type TestDatabase, testBackends } from '@app/testing';

import { type MockLlm, startMockLlm, TEST_PASSWORD } from '../support';

import { type ChildServer, startChildServer } from '../support';
import { inBatches, send } from './support/raw-http';

/**
 * Crash consistency: the built server, SIGKILLed in the middle of a burst of writes (project and
 * task creation, task edits) while a task is running on a model that never answers. After a
 * restart every write that was answered 2xx is there exactly once, nothing is there twice, and the
 * running task follows the recovery rules: back to assigned, run again, completed.
 */

jest.setTimeout(180_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PATCH_TARGETS = 40;
const CREATES = 250;
/** Acknowledged writes after which the process is killed: well inside the burst. */
const KILL_AFTER_ACKS = 300;

async function call(
  server: ChildServer,
  method: string,
  path: string,
  token: string | null,
  body?: Json,
): Promise<Json> {
  const answer = await send(server.url, {
    method,
    path: `/api/v1${path}`,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (answer.status >= 300) {
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
  }
  return answer.json as Json;
}

/** Every item of a paginated list (200 a page). */
async function listAll(server: ChildServer, path: string, token: string): Promise<Json[]> {
  const items: Json[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await call(server, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=200&offset=${offset}`, token);
    items.push(...(page.data as Json[]));
    if ((page.data as Json[]).length < 200) {
      return items;
    }
  }
}

interface Write {
  kind: 'project' | 'task' | 'patch';
  marker: string;
  /** The task a patch edits. */
  target?: string;
  acknowledged?: boolean;
}

describe.each(testBackends())('crash consistency on %s', (backend) => {
  let mock: MockLlm;
  let db: TestDatabase;
  let dir: string;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    mock = await startMockLlm();
    db = await createTestDatabase(backend);
    dir = mkdtempSync(join(tmpdir(), 'synthorg-crash-'));
  });

  afterAll(async () => {
    for (const server of servers) {
      await server.kill();
    }
    await mock.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should keep every acknowledged write exactly once and recover the running task after SIGKILL', async () => {
    const first = await startChildServer(dir, db);
    servers.push(first);
    const token = (await call(first, 'POST', '/auth/setup', null, { username: 'ceo', password: TEST_PASSWORD })).data
      .token as string;
    await call(first, 'POST', '/providers', token, {
      name: 'mock',
      gateway_provider: 'openai',
      auth_type: 'none',
      base_url: `${mock.url}/v1`,
      models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
    });
    const company = await call(first, 'POST', '/setup/company', token, {
      company_name: 'Acme',
      template_name: 'startup',
    });
    const agent = company.data.agents[0].name as string;
    const project = (await call(first, 'POST', '/projects', token, { name: 'Crash' })).data.id as string;
    const task = (title: string): Json => ({
      title,
      description: 'Crash test.',
      type: 'development',
      project,
      created_by: 'ceo',
    });

    // A run in flight: its model call never answers.
    mock.enqueue({ kind: 'hang' });
    const running = (await call(first, 'POST', '/tasks', token, { ...task('Running'), assigned_to: agent })).data
      .id as string;
    await eventually(
      () => Promise.resolve(mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length),
      (n) => n >= 1,
    );

    const targets: string[] = [];
    for (let i = 0; i < PATCH_TARGETS; i += 1) {
      targets.push((await call(first, 'POST', '/tasks', token, task(`target-${i}`))).data.id as string);
    }
    const writes: Write[] = [];
    for (let i = 0; i < CREATES; i += 1) {
      writes.push({ kind: 'project', marker: `burst-project-${i}` }, { kind: 'task', marker: `burst-task-${i}` });
      if (i < PATCH_TARGETS) {
        writes.push({ kind: 'patch', marker: `patched-${i}`, target: targets[i] });
      }
    }
    let acks = 0;
    const kill: { done: Promise<void> | null } = { done: null };
    await inBatches(writes, 16, async (write) => {
      if (kill.done) {
        return;
      }
      const [method, path, body] =
        write.kind === 'project'
          ? ['POST', '/projects', { name: write.marker }]
          : write.kind === 'task'
            ? ['POST', '/tasks', task(write.marker)]
            : ['PATCH', `/tasks/${write.target}`, { description: write.marker }];
      try {
        await call(first, method, path, token, body);
        write.acknowledged = true;
        acks += 1;
        if (acks === KILL_AFTER_ACKS) {
          kill.done = first.kill('SIGKILL');
        }
      } catch {
        write.acknowledged = false;
      }
    });
    await kill.done;
    const settled = writes.filter((w) => w.acknowledged !== undefined);
    process.stdout.write(
      `crash consistency on ${backend}: ${acks} writes acknowledged, ${settled.length - acks} cut off by the kill, ` +
        `${writes.length - settled.length} never sent\n`,
    );
    expect(acks).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(writes.filter((w) => w.acknowledged === undefined).length).toBeGreaterThan(0);

    mock.reset();
    mock.enqueue({ kind: 'text', text: 'Done.' });
    const second = await startChildServer(dir, db);
    servers.push(second);

    const projects = (await listAll(second, '/projects', token)).map((p) => p.name as string);
    const tasks = await listAll(second, '/tasks?status=', token);
    const titles = tasks.map((t) => t.title as string);
    const count = (names: string[], marker: string): number => names.filter((n) => n === marker).length;
    const problems: string[] = [];
    for (const write of writes) {
      const found =
        write.kind === 'project'
          ? count(projects, write.marker)
          : write.kind === 'task'
            ? count(titles, write.marker)
            : Number(tasks.find((t) => t.id === write.target)?.description === write.marker);
      if (found > 1 || (write.acknowledged && found !== 1)) {
        problems.push(`${write.kind} ${write.marker}: acknowledged ${String(write.acknowledged)}, found ${found}`);
      }
    }
    expect(problems).toEqual([]);

    // The run the kill cut short goes back to assigned and runs again to completion.
    const done = await eventually(
      async () => (await call(second, 'GET', `/tasks/${running}`, token)).data as Json,
      (t) => t.status === 'completed',
      60_000,
    );
    expect(done.assigned_to).toBe(agent);
    expect(second.output()).toContain('engine.task.recovered');
  });
});

/**
 * Offboarding killed mid-pipeline (Postgres, where the test can hold the pipeline still): a firing
 * with one of the agent's tasks running and one waiting; the test holds a lock on the messages
 * table, so the pipeline stops at its team notice with the tasks already handed over, and the server
 * is SIGKILLed there. The restarted server resumes the pipeline at startup and finishes it without
 * doing a step twice: one `fired` and one `offboarded` event, one team notice, each task raised one
 * priority step once and handed over. (Restarts after every step on both backends:
 * test/e2e/offboarding-resume.e2e-spec.ts.)
 */
(testBackends().includes('postgres') ? describe : describe.skip)('offboarding killed mid-pipeline on postgres', () => {
  const backend = 'postgres' as const;
  let mock: MockLlm;
  let db: TestDatabase;
  let dir: string;
  const servers: ChildServer[] = [];
  const env = { SYNTHORG_ENGINE_AGENT_CONCURRENCY: '1', SYNTHORG_ENGINE_GRACE_SECONDS: '2' };

  beforeAll(async () => {
    mock = await startMockLlm();
    db = await createTestDatabase(backend);
    dir = mkdtempSync(join(tmpdir(), 'synthorg-crash-offboarding-'));
  });

  afterAll(async () => {
    for (const server of servers) {
      await server.kill();
    }
    await mock.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should finish the offboarding after a restart, doing no step twice', async () => {
    const first = await startChildServer(dir, db, env);
    servers.push(first);
    const token = (await call(first, 'POST', '/auth/setup', null, { username: 'ceo', password: TEST_PASSWORD })).data
      .token as string;
    await call(first, 'POST', '/providers', token, {
      name: 'mock',
      gateway_provider: 'openai',
      auth_type: 'none',
      base_url: `${mock.url}/v1`,
      models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
    });
    await call(first, 'POST', '/setup/company', token, { company_name: 'Acme', template_name: 'startup' });
    const engineers = ((await call(first, 'GET', '/agents', token)).data as Json[]).filter(
      (a) => a.department === 'engineering',
    );
    const fired = engineers[1];
    const project = (await call(first, 'POST', '/projects', token, { name: 'Crash offboarding' })).data.id as string;
    const task = async (title: string, priority: string): Promise<string> =>
      (
        await call(first, 'POST', '/tasks', token, {
          title,
          description: 'Crash test.',
          type: 'development',
          project,
          created_by: 'ceo',
          assigned_to: fired.name,
          priority,
        })
      ).data.id as string;
    mock.enqueue({ kind: 'hang' });
    const running = await task('Running', 'medium');
    await eventually(
      async () => (await call(first, 'GET', `/tasks/${running}`, token)).data as Json,
      (t) => t.status === 'in_progress',
    );
    const waiting = await task('Waiting', 'low');

    // The pipeline waits at its team notice behind the test's lock; the server is killed there.
    const holder = new Client({ connectionString: db.env.SYNTHORG_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE messages IN EXCLUSIVE MODE');
      const answer = call(first, 'POST', `/agents/${encodeURIComponent(fired.name)}/fire`, token, {
        reason: 'budget',
      }).then(
        () => 'answered',
        () => 'cut off',
      );
      await eventually(
        async () =>
          ((await holder.query('SELECT step FROM offboarding_records')).rows as { step: string }[]).map((r) => r.step),
        (steps) => steps[0] === 'memory_archived',
        30_000,
      );
      await first.kill('SIGKILL');
      expect(await answer).toBe('cut off');
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }

    mock.reset();
    const second = await startChildServer(dir, db, env);
    servers.push(second);
    // The startup hook resumed the record before the server answered.
    expect(second.output()).toContain('hr.offboarding.resumed');
    const record = (await call(second, 'GET', `/agents/${encodeURIComponent(fired.name)}/offboarding`, token))
      .data as Json;
    expect(record).toMatchObject({ completed_at: expect.any(String), tasks_reassigned: [running, waiting] });
    expect((record.steps as Json[]).map((s) => s.state)).toEqual([
      'done',
      'done',
      'done',
      'done',
      'skipped',
      'done',
      'done',
    ]);
    const history = (await call(second, 'GET', `/agents/${encodeURIComponent(fired.name)}/history`, token))
      .data as Json[];
    expect(history.map((e) => e.event_type)).toEqual(['hired', 'onboarded', 'fired', 'offboarded']);
    const notices = (await listAll(second, '/messages?channel=%23engineering', token)).filter(
      (m) => m.type === 'hr_notification',
    );
    expect(notices).toHaveLength(1);
    for (const [id, priority] of [
      [running, 'high'],
      [waiting, 'medium'],
    ]) {
      const done = await eventually(
        async () => (await call(second, 'GET', `/tasks/${id}`, token)).data as Json,
        (t) => t.status === 'completed',
        60_000,
      );
      expect(done.priority).toBe(priority);
      expect(done.assigned_to).not.toBe(fired.name);
    }
  });
});
