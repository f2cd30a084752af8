import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ToolSecurityCheck } from '@app/domain';
import { ParkedRunEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { createTestDatabase, eventually, testBackends } from '@app/testing';

import {
  addMockProvider,
  bearer,
  type ChildServer,
  createCompany,
  type MockLlm,
  setupCeo,
  startChildServer,
  startMockLlm,
  startTestApp,
  type TestApp,
} from '../support';
import { RunParking, ToolInvoker } from '../../apps/api/src/modules/engine';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
  SYNTHORG_SECURITY_APPROVAL_CHECK_SECONDS: '0.2',
};

/** The test's stand-in for a security policy: writes under secret/ need a person's approval. */
const secretWrites: ToolSecurityCheck = {
  name: 'test-secret-writes',
  check: (call) =>
    Promise.resolve(
      call.tool === 'write_file' && String(call.arguments.path).startsWith('secret/')
        ? { decision: 'escalate', reason: 'writes a secret file' }
        : { decision: 'allow' },
    ),
};

const writeSecret = (name: string) => ({
  kind: 'tool_calls' as const,
  calls: [{ name: 'write_file', arguments: { path: `secret/${name}.txt`, content: `${name}\n` } }],
});

jest.setTimeout(90_000);

/** A company with the mock provider on `t`; answers the CEO token, the first agent's name and a project. */
async function organisation(t: TestApp, mock: MockLlm, token?: string) {
  const ceo = token ?? (await setupCeo(t));
  await addMockProvider(t, ceo, mock);
  const company = await createCompany(t, ceo);
  const project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Secrets' }).expect(201)).body
    .data.id as string;
  return { ceo, agent: company.agents[0].name, project };
}

function chats(mock: MockLlm): Json[] {
  return mock.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body as Json);
}

/** The model calls of the task with this title (its prompt quotes the title). */
function callsOf(mock: MockLlm, title: string): Json[] {
  return chats(mock).filter((c) =>
    (c.messages as Json[]).some((m) => m.role === 'user' && String(m.content).includes(title)),
  );
}

describe.each(testBackends())('parked runs on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let org: { ceo: string; agent: string; project: string };

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: ENV });
    t.app.get(ToolInvoker).registerSecurityCheck(secretWrites);
    org = await organisation(t, mock);
  });

  afterEach(() => mock.reset());

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const task = async (id: string): Promise<Json> =>
    (await t.http.get(`/api/v1/tasks/${id}`).set(bearer(org.ceo)).expect(200)).body.data as Json;

  async function assign(title: string): Promise<string> {
    const res = await t.http
      .post('/api/v1/tasks')
      .set(bearer(org.ceo))
      .send({
        title,
        description: title,
        type: 'development',
        project: org.project,
        created_by: 'ceo',
        assigned_to: org.agent,
      })
      .expect(201);
    return res.body.data.id as string;
  }

  /** Waits until the task's run parked; answers its approval item. */
  async function parked(taskId: string): Promise<Json> {
    const waiting = await eventually(
      () => task(taskId),
      (x) => typeof x.status_reason === 'string' && x.status_reason.startsWith('waiting for approval '),
    );
    expect(waiting.status).toBe('in_progress');
    const approvalId = /waiting for approval ([0-9a-f-]+)/.exec(waiting.status_reason as string)?.[1] as string;
    const item = (await t.http.get(`/api/v1/approvals/${approvalId}`).set(bearer(org.ceo)).expect(200)).body
      .data as Json;
    expect(item).toMatchObject({
      status: 'pending',
      task_id: taskId,
      risk_level: 'high',
      action_type: 'tool:write_file',
    });
    expect(item.metadata).toMatchObject({ tool_name: 'write_file' });
    return item;
  }

  it('should park on an escalated call, run another task of the agent meanwhile, and resume once on approval', async () => {
    mock.enqueue(writeSecret('alpha'));
    const first = await assign('Write the alpha secret');
    const item = await parked(first);
    const repo = join(t.config.engine.workspaceDir, 'worktrees', first);
    expect(existsSync(join(repo, 'secret/alpha.txt'))).toBe(false);

    // The agent is free: its next task runs to completion while the first waits.
    mock.enqueue({ kind: 'text', text: 'Second done.' });
    const second = await assign('Something else');
    await eventually(
      () => task(second),
      (x) => x.status === 'completed',
    );
    expect((await task(first)).status).toBe('in_progress');

    mock.enqueue({ kind: 'text', text: 'Alpha written.' });
    await t.http.post(`/api/v1/approvals/${item.id}/approve`).set(bearer(org.ceo)).send({ comment: 'go' }).expect(200);
    const done = await eventually(
      () => task(first),
      (x) => x.status === 'completed',
    );
    expect(done.status_reason).toBeNull();
    const resumed = callsOf(mock, 'Write the alpha secret');
    // One call before parking, exactly one after: the saved conversation with the executed call's result.
    expect(resumed).toHaveLength(2);
    const last = resumed[1].messages as Json[];
    expect(last.at(-1)).toMatchObject({ role: 'tool' });
    expect(String(last.at(-1)?.content)).not.toContain('denied');
    const rows = await t.app.get(DatabaseService).dataSource.getRepository(ParkedRunEntity).findBy({ taskId: first });
    expect(rows).toEqual([expect.objectContaining({ state: 'resumed', approved: true, decidedBy: 'ceo' })]);
    const main = join(t.config.engine.workspaceDir, 'repo', 'secret/alpha.txt');
    expect(readFileSync(main, 'utf8')).toBe('alpha\n');
  });

  it('should give the agent the refusal as the tool result and let it go on when the item is rejected', async () => {
    mock.enqueue(writeSecret('beta'));
    const id = await assign('Write the beta secret');
    const item = await parked(id);
    mock.enqueue({ kind: 'text', text: 'Understood, not writing it.' });
    await t.http
      .post(`/api/v1/approvals/${item.id}/reject`)
      .set(bearer(org.ceo))
      .send({ reason: 'not today' })
      .expect(200);
    await eventually(
      () => task(id),
      (x) => x.status === 'completed',
    );
    const after = callsOf(mock, 'Write the beta secret');
    expect(after).toHaveLength(2);
    const reply = (after[1].messages as Json[]).at(-1) as Json;
    expect(reply.role).toBe('tool');
    expect(reply.content).toContain('not today');
    expect(existsSync(join(t.config.engine.workspaceDir, 'repo', 'secret/beta.txt'))).toBe(false);
  });

  it('should end the run and block the task on a rejection when approval_rejection is end_run', async () => {
    await t.http
      .put('/api/v1/settings/security/approval_rejection')
      .set(bearer(org.ceo))
      .send({ value: 'end_run' })
      .expect(200);
    try {
      mock.enqueue(writeSecret('gamma'));
      const id = await assign('Write the gamma secret');
      const item = await parked(id);
      await t.http
        .post(`/api/v1/approvals/${item.id}/reject`)
        .set(bearer(org.ceo))
        .send({ reason: 'never' })
        .expect(200);
      const blocked = await eventually(
        () => task(id),
        (x) => x.status === 'blocked',
      );
      expect(blocked.status_reason).toContain('never');
      expect(callsOf(mock, 'Write the gamma secret')).toHaveLength(1);
    } finally {
      await t.http
        .put('/api/v1/settings/security/approval_rejection')
        .set(bearer(org.ceo))
        .send({ value: 'continue' })
        .expect(200);
    }
  });

  it('should resume with a denial when the item expires under the deny policy', async () => {
    const put = (key: string, value: string) =>
      t.http.put(`/api/v1/settings/security/${key}`).set(bearer(org.ceo)).send({ value }).expect(200);
    await put('approval_timeout_minutes', '0.01');
    await put('approval_timeout_policy', 'deny');
    try {
      mock.enqueue(writeSecret('delta'));
      const id = await assign('Write the delta secret');
      const item = await parked(id);
      mock.enqueue({ kind: 'text', text: 'Gave up on delta.' });
      await eventually(
        () => task(id),
        (x) => x.status === 'completed',
      );
      const stored = (await t.http.get(`/api/v1/approvals/${item.id}`).set(bearer(org.ceo))).body.data as Json;
      expect(stored).toMatchObject({ status: 'expired', decided_by: 'system' });
      const after = callsOf(mock, 'Write the delta secret');
      expect(String((after[1].messages as Json[]).at(-1)?.content)).toContain('expired');
    } finally {
      await put('approval_timeout_policy', 'wait');
    }
  });
});

describe.each(testBackends())('a parked run across restarts on %s', (backend) => {
  it('should resume at the next startup a run decided while no engine was running (startup rule 11)', async () => {
    const mock = await startMockLlm();
    const db = await createTestDatabase(backend);
    const guarded = async (env: Record<string, string> = {}) => {
      const app = await startTestApp({ backend, database: db, env: { ...ENV, ...env } });
      app.app.get(ToolInvoker).registerSecurityCheck(secretWrites);
      return app;
    };
    let app = await guarded();
    try {
      const org = await organisation(app, mock);
      mock.enqueue(writeSecret('restart'));
      const created = await app.http
        .post('/api/v1/tasks')
        .set(bearer(org.ceo))
        .send({
          title: 'Restart',
          description: 'Restart',
          type: 'development',
          project: org.project,
          created_by: 'ceo',
          assigned_to: org.agent,
        })
        .expect(201);
      const id = created.body.data.id as string;
      const getTask = async () => (await app.http.get(`/api/v1/tasks/${id}`).set(bearer(org.ceo))).body.data as Json;
      const waiting = await eventually(getTask, (x) => String(x.status_reason).startsWith('waiting for approval '));
      const approvalId = /waiting for approval ([0-9a-f-]+)/.exec(waiting.status_reason as string)?.[1] as string;
      await app.close();
      // The decision lands while no engine runs: the parked run is decided but nobody resumes it.
      app = await guarded({ SYNTHORG_ENGINE_ENABLED: 'false' });
      await app.http.post(`/api/v1/approvals/${approvalId}/approve`).set(bearer(org.ceo)).send({}).expect(200);
      expect((await getTask()).status).toBe('in_progress');
      await app.close();
      mock.enqueue({ kind: 'text', text: 'Restart done.' });
      app = await guarded();
      const done = await eventually(getTask, (x) => x.status === 'completed');
      expect(done.status_reason).toBeNull();
      expect(callsOf(mock, 'Restart')).toHaveLength(2);
    } finally {
      await app.close();
      await db.drop();
      await mock.close();
    }
  });
});

const postgresOnly = testBackends().includes('postgres') ? describe : describe.skip;

postgresOnly('a parked run with two replicas on one Postgres', () => {
  it('should resume exactly once when the decision is made on the other replica', async () => {
    const mock = await startMockLlm();
    const db = await createTestDatabase('postgres');
    const a = await startTestApp({ backend: 'postgres', database: db, env: ENV });
    const b = await startTestApp({ backend: 'postgres', database: db, env: ENV });
    try {
      for (const app of [a, b]) {
        app.app.get(ToolInvoker).registerSecurityCheck(secretWrites);
      }
      const claims = [a, b].map((app) => {
        const parking = app.app.get(RunParking);
        const original = parking.claim.bind(parking);
        const won: string[] = [];
        jest.spyOn(parking, 'claim').mockImplementation(async (...args) => {
          const saved = await original(...args);
          if (saved) {
            won.push(args[0]);
          }
          return saved;
        });
        return won;
      });
      const org = await organisation(a, mock);
      mock.enqueue(writeSecret('omega'));
      const created = await a.http
        .post('/api/v1/tasks')
        .set(bearer(org.ceo))
        .send({
          title: 'Omega',
          description: 'Omega',
          type: 'development',
          project: org.project,
          created_by: 'ceo',
          assigned_to: org.agent,
        })
        .expect(201);
      const id = created.body.data.id as string;
      const waiting = await eventually(
        async () => (await b.http.get(`/api/v1/tasks/${id}`).set(bearer(org.ceo))).body.data as Json,
        (x) => typeof x.status_reason === 'string' && x.status_reason.startsWith('waiting for approval '),
      );
      const approvalId = /waiting for approval ([0-9a-f-]+)/.exec(waiting.status_reason as string)?.[1] as string;
      mock.enqueue({ kind: 'text', text: 'Omega done.' });
      await b.http.post(`/api/v1/approvals/${approvalId}/approve`).set(bearer(org.ceo)).send({}).expect(200);
      await eventually(
        async () => (await a.http.get(`/api/v1/tasks/${id}`).set(bearer(org.ceo))).body.data as Json,
        (x) => x.status === 'completed',
      );
      // Both replicas' sweeps re-dispatch decided runs; give a duplicate time to show up.
      await new Promise((r) => setTimeout(r, 2500));
      expect([...claims[0], ...claims[1]]).toEqual([approvalId]);
      expect(callsOf(mock, 'Omega')).toHaveLength(2);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
      await mock.close();
    }
  });
});

describe.each(testBackends())('a parked run after a SIGKILL on %s', (backend) => {
  it('should keep the parked run through a killed process and resume it when the next process hears the approval', async () => {
    const mock = await startMockLlm();
    const db = await createTestDatabase(backend);
    const dir = mkdtempSync(join(tmpdir(), 'synthorg-parked-kill-'));
    const servers: ChildServer[] = [];
    const start = async () => {
      const server = await startChildServer(dir, db, ENV);
      servers.push(server);
      return server;
    };
    try {
      let server = await start();
      const api = (method: string, path: string, token: string | null, body?: Json) =>
        childCall(server, method, path, token, body);
      const ceo = (
        await api('POST', '/auth/setup', null, { username: 'ceo', password: 'correct-horse-battery-staple' })
      ).token as string;
      await api('POST', '/providers', ceo, {
        name: 'mock',
        gateway_provider: 'openai',
        auth_type: 'none',
        base_url: `${mock.url}/v1`,
        models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
      });
      const company = await api('POST', '/setup/company', ceo, { company_name: 'Acme', template_name: 'startup' });
      const agent = (company.agents as Json[])[0].name as string;
      const project = (await api('POST', '/projects', ceo, { name: 'Parked' })).id as string;
      // The real security pipeline escalates every call of a locked agent.
      await api('PUT', `/agents/${agent}/autonomy`, ceo, { level: 'locked', reason: 'supervised week' });
      mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }] });
      const id = (
        await api('POST', '/tasks', ceo, {
          title: 'Survive',
          description: 'Survive',
          type: 'development',
          project,
          created_by: 'ceo',
          assigned_to: agent,
        })
      ).id as string;
      const waiting = await eventually(
        () => api('GET', `/tasks/${id}`, ceo),
        (x) => typeof x.status_reason === 'string' && x.status_reason.startsWith('waiting for approval '),
      );
      const approvalId = /waiting for approval ([0-9a-f-]+)/.exec(waiting.status_reason as string)?.[1] as string;
      expect(await api('GET', `/approvals/${approvalId}`, ceo)).toMatchObject({
        status: 'pending',
        action_type: 'code:read',
        risk_level: 'low',
      });

      // A crash while the run is parked: nothing of it lives in the process.
      server.proc.kill('SIGKILL');
      await server.exited;
      servers.splice(0);
      server = await start();
      mock.enqueue({ kind: 'text', text: 'Survived.' });
      await api('POST', `/approvals/${approvalId}/approve`, ceo, {});
      const done = await eventually(
        () => api('GET', `/tasks/${id}`, ceo),
        (x) => x.status === 'completed',
      );
      expect(done.status_reason).toBeNull();
      // The approved call ran in the new process, and the model heard its result, not a refusal.
      const calls = callsOf(mock, 'Survive');
      expect(calls).toHaveLength(2);
      const replies = (calls[1].messages as Json[]).filter((m) => m.role === 'tool').map((m) => String(m.content));
      expect(replies).toHaveLength(1);
      expect(replies[0]).not.toContain('denied by security policy');
    } finally {
      for (const server of servers) {
        server.proc.kill('SIGKILL');
        await server.exited;
      }
      await mock.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** One call to a child server's API; answers the envelope's data. */
async function childCall(server: ChildServer, method: string, path: string, token: string | null, body?: Json) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  }
  return (JSON.parse(text) as Json).data as Json;
}
