import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDatabase, eventually, type TestDatabase, testBackends } from '@app/testing';
import { type MockLlm, startChildServer, startMockLlm, startTestApp } from '../support';

import { AgentRunner } from '../../apps/api/src/modules/engine/agent-runner';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(120_000);

const PASSWORD = 'correct-horse-battery-staple';

interface Server {
  proc: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** The built server as a real child process (so it can be killed like a crashed pod). */
async function startServer(dir: string, db: TestDatabase, extra: Record<string, string> = {}): Promise<Server> {
  const server = await startChildServer(dir, db, { SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000', ...extra });
  return { proc: server.proc, base: `${server.url}/api/v1`, output: server.output, exited: server.exited };
}

async function call(server: Server, method: string, path: string, token: string | null, body?: Json): Promise<Json> {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  }
  return text ? (JSON.parse(text) as Json) : {};
}

/** CEO, a provider on the fake, a company and a project; answers the token, an agent and the project. */
async function seedCompany(server: Server, mock: MockLlm): Promise<{ token: string; agent: string; project: string }> {
  const token = (await call(server, 'POST', '/auth/setup', null, { username: 'ceo', password: PASSWORD })).data
    .token as string;
  await call(server, 'POST', '/providers', token, {
    name: 'mock',
    gateway_provider: 'openai',
    auth_type: 'none',
    base_url: `${mock.url}/v1`,
    models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
  });
  const company = await call(server, 'POST', '/setup/company', token, {
    company_name: 'Acme',
    template_name: 'startup',
  });
  const project = (await call(server, 'POST', '/projects', token, { name: 'Recovery' })).data.id as string;
  return { token, agent: company.data.agents[0].name as string, project };
}

const taskBody = (project: string, agent: string): Json => ({
  title: 'Write notes',
  description: 'Write notes.md',
  type: 'development',
  project,
  created_by: 'ceo',
  assigned_to: agent,
});

const chatCount = (mock: MockLlm): number => mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

describe.each(testBackends())('engine crash recovery on %s', (backend) => {
  let mock: MockLlm;
  let db: TestDatabase;
  let dir: string;
  const servers: Server[] = [];

  beforeEach(async () => {
    mock = await startMockLlm();
    db = await createTestDatabase(backend);
    dir = mkdtempSync(join(tmpdir(), 'synthorg-recovery-'));
  });

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.proc.kill('SIGKILL');
      await server.exited;
    }
    await mock.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A server whose run writes notes.md and then waits on the model, SIGKILLed there: a crashed pod
   * with a worktree holding uncommitted work.
   */
  async function killAfterWrite(content: string): Promise<{ token: string; task: Json }> {
    const first = await startServer(dir, db);
    servers.push(first);
    const { token, agent, project } = await seedCompany(first, mock);
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'notes.md', content } }] },
      { kind: 'hang' },
    );
    const task = (await call(first, 'POST', '/tasks', token, taskBody(project, agent))).data as Json;
    await eventually(
      () => Promise.resolve(chatCount(mock)),
      (n) => n >= 2,
    );
    first.proc.kill('SIGKILL');
    await first.exited;
    servers.splice(servers.indexOf(first), 1);
    return { token, task };
  }

  it('should recover a task whose process was SIGKILLed mid-run, keep its cost records and finish the work', async () => {
    const { token, task } = await killAfterWrite('one\n');

    const logs = readdirSync(join(dir, 'logs')).map((f) => readFileSync(join(dir, 'logs', f), 'utf8'));
    const started = logs
      .join('\n')
      .split('\n')
      .filter((l) => l.includes('provider.call.started'));
    // The interrupted call left its trace: started (with input tokens) but never completed.
    expect(new Set(started.map((l) => (JSON.parse(l) as Json).input_tokens > 0)).has(true)).toBe(true);

    mock.reset();
    mock.enqueue({ kind: 'text', text: 'Notes written.' });
    const second = await startServer(dir, db);
    servers.push(second);
    const done = await eventually(
      async () => (await call(second, 'GET', `/tasks/${task.id}`, token)).data as Json,
      (x) => x.status === 'completed',
      30_000,
    );
    expect(done.retry_count).toBe(0);
    expect(readFileSync(join(dir, 'data/workspace/repo/notes.md'), 'utf8')).toBe('one\n');
    const costs = (await call(second, 'GET', '/activities?type=cost_incurred', token)).data as Json[];
    // One record from the killed run's completed call and one from the recovered run. The call the kill
    // interrupted is settled at its reserved estimate (the provider most likely billed it), once, by
    // the recovery that puts the dead owner's task back, before the task runs again.
    const mine = costs.filter((c) => c.related_ids.task_id === task.id);
    expect(mine).toHaveLength(3);
    expect(mine.filter((c) => String(c.description).includes('(0+0 tokens'))).toHaveLength(1);
    expect(second.output()).toContain('engine.task.recovered');
  });

  it('should give back at startup the worktree a killed process left for a task cancelled meanwhile, keeping the work on its branch', async () => {
    const { token, task } = await killAfterWrite('draft\n');
    const reader = await startTestApp({ backend, database: db, env: { SYNTHORG_ENGINE_ENABLED: 'false' } });
    try {
      await reader.http
        .post(`/api/v1/tasks/${task.id}/cancel`)
        .set('Authorization', `Bearer ${token}`)
        .send({ reason: 'abandoned' })
        .expect(201);
    } finally {
      await reader.close();
    }
    // The killed owner's heartbeat (1 s) goes stale after three beats: on Postgres the next process
    // would otherwise leave the worktree to it.
    await new Promise((resolveWait) => setTimeout(resolveWait, 3_500));
    const worktree = join(dir, 'data/workspace/worktrees', task.id as string);
    expect(existsSync(join(worktree, 'notes.md'))).toBe(true);

    const second = await startServer(dir, db);
    servers.push(second);
    await eventually(
      () => Promise.resolve(existsSync(worktree)),
      (present) => !present,
      30_000,
    );
    const repo = join(dir, 'data/workspace/repo');
    const branch = execFileSync('git', ['branch', '--list', '--format=%(refname:short)', `workspace/${task.id}/*`], {
      cwd: repo,
      encoding: 'utf8',
    }).trim();
    expect(execFileSync('git', ['show', `${branch}:notes.md`], { cwd: repo, encoding: 'utf8' })).toBe('draft\n');
    expect(second.output()).toContain('engine.workspace.retired');
  });

  it('should stop cooperatively on SIGTERM: the run in flight is marked interrupted and restarts with the next process', async () => {
    const first = await startServer(dir, db, { SYNTHORG_ENGINE_GRACE_SECONDS: '1' });
    servers.push(first);
    const { token, agent, project } = await seedCompany(first, mock);
    mock.enqueue({ kind: 'hang' });
    const task = (await call(first, 'POST', '/tasks', token, taskBody(project, agent))).data as Json;
    await eventually(
      () => Promise.resolve(chatCount(mock)),
      (n) => n >= 1,
    );
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    servers.splice(servers.indexOf(first), 1);
    expect(first.output()).toContain('engine.shutdown.force_cancel');

    const reader = await startTestApp({ backend, database: db, env: { SYNTHORG_ENGINE_ENABLED: 'false' } });
    try {
      const stored = (await reader.http.get(`/api/v1/tasks/${task.id}`).set('Authorization', `Bearer ${token}`)).body
        .data as Json;
      expect(stored.status).toBe('interrupted');
    } finally {
      await reader.close();
    }

    const second = await startServer(dir, db);
    servers.push(second);
    const done = await eventually(
      async () => (await call(second, 'GET', `/tasks/${task.id}`, token)).data as Json,
      (x) => x.status === 'completed',
      30_000,
    );
    expect(done.status).toBe('completed');
  });
});

const postgresOnly = testBackends().includes('postgres') ? describe : describe.skip;

postgresOnly('two replicas on one Postgres', () => {
  it('should run each task of a batch exactly once across both replicas', async () => {
    const mock = await startMockLlm();
    const db = await createTestDatabase('postgres');
    const env = { SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000', SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1' };
    const a = await startTestApp({ backend: 'postgres', database: db, env });
    const b = await startTestApp({ backend: 'postgres', database: db, env });
    try {
      const token = (await a.http.post('/api/v1/auth/setup').send({ username: 'ceo', password: PASSWORD })).body.data
        .token as string;
      const auth = { Authorization: `Bearer ${token}` };
      await a.http
        .post('/api/v1/providers')
        .set(auth)
        .send({
          name: 'mock',
          gateway_provider: 'openai',
          auth_type: 'none',
          base_url: `${mock.url}/v1`,
          models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
        })
        .expect(201);
      const company = await a.http
        .post('/api/v1/setup/company')
        .set(auth)
        .send({ company_name: 'Acme', template_name: 'startup' })
        .expect(201);
      const agents = (company.body.data.agents as Json[]).map((x) => x.name as string);
      const project = (await a.http.post('/api/v1/projects').set(auth).send({ name: 'Batch' }).expect(201)).body.data
        .id as string;
      const counts = [a, b].map((app) => {
        const runner = app.app.get(AgentRunner);
        const original = runner.run.bind(runner);
        const ran: string[] = [];
        jest.spyOn(runner, 'run').mockImplementation(async (...args) => {
          const executed = await original(...args);
          if (executed) {
            ran.push(args[0]);
          }
          return executed;
        });
        return ran;
      });
      const ids: string[] = [];
      for (let i = 0; i < 30; i += 1) {
        const res = await (i % 2 === 0 ? a : b).http
          .post('/api/v1/tasks')
          .set(auth)
          .send(taskBody(project, agents[i % agents.length]))
          .expect(201);
        ids.push(res.body.data.id as string);
      }
      await eventually(
        async () => (await a.http.get('/api/v1/tasks?status=completed&limit=200').set(auth)).body.data as Json[],
        (done) => done.length === ids.length,
        60_000,
      );
      // A run reports back just after its task shows completed: wait for every report, then a beat
      // more so a duplicate run (which must not exist) would have time to show up.
      await eventually(
        () => Promise.resolve(counts[0].length + counts[1].length),
        (n) => n >= ids.length,
        10_000,
      );
      await new Promise((r) => setTimeout(r, 300));
      const ran = [...counts[0], ...counts[1]];
      expect(ran.sort()).toEqual([...ids].sort());
      expect(counts[0].length).toBeGreaterThan(0);
      expect(counts[1].length).toBeGreaterThan(0);
      expect(chatCount(mock)).toBe(ids.length);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
      await mock.close();
    }
  });
});
