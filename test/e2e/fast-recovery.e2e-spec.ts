import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDatabase, eventually, type TestDatabase, testBackends } from '@app/testing';

import { type ChildServer, type MockLlm, startChildServer, startMockLlm, TEST_PASSWORD } from '../support';

/**
 * Fast recovery on Postgres (child processes): a SIGKILLed replica's run is taken over by the
 * survivor within seconds (its liveness lock went with its session), while a replica that is only
 * frozen (SIGSTOP: a long GC pause, a busy event loop) for longer than three heartbeats keeps its
 * run, which then finishes there, once.
 */

jest.setTimeout(180_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ENV = { SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1', SYNTHORG_ENGINE_LIVENESS_GRACE_SECONDS: '3' };

async function call(server: ChildServer, method: string, path: string, token: string | null, body?: Json) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  }
  return (text ? JSON.parse(text) : {}) as Json;
}

const chatsOf = (mock: MockLlm, marker: string): number =>
  mock.requests.filter((r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes(marker)).length;

const postgresOnly = testBackends().includes('postgres') ? describe : describe.skip;

postgresOnly('fast recovery on Postgres', () => {
  let mock: MockLlm;
  let db: TestDatabase;
  let dir: string;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    mock = await startMockLlm();
    db = await createTestDatabase('postgres');
    dir = mkdtempSync(join(tmpdir(), 'synthorg-fast-'));
  });

  afterAll(async () => {
    for (const server of servers) {
      server.proc.kill('SIGCONT');
      await server.kill();
    }
    await mock.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should hand a killed replica’s run to the survivor within seconds and leave a frozen one its run', async () => {
    const a = await startChildServer(dir, db, ENV);
    servers.push(a);
    const token = (await call(a, 'POST', '/auth/setup', null, { username: 'ceo', password: TEST_PASSWORD })).data
      .token as string;
    await call(a, 'POST', '/providers', token, {
      name: 'mock',
      gateway_provider: 'openai',
      auth_type: 'none',
      base_url: `${mock.url}/v1`,
      models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
    });
    const company = await call(a, 'POST', '/setup/company', token, { company_name: 'Acme', template_name: 'startup' });
    const agent = company.data.agents[0].name as string;
    const project = (await call(a, 'POST', '/projects', token, { name: 'Fast' })).data.id as string;
    const create = async (server: ChildServer, title: string): Promise<string> =>
      (
        await call(server, 'POST', '/tasks', token, {
          title,
          description: `Answer ${title}.`,
          type: 'development',
          project,
          created_by: 'ceo',
          assigned_to: agent,
        })
      ).data.id as string;

    // Killed: A's call never answers; B takes the run over.
    mock.enqueue({ kind: 'hang' });
    const killedTask = await create(a, 'killed-run');
    await eventually(
      () => Promise.resolve(chatsOf(mock, 'killed-run')),
      (n) => n === 1,
    );
    const b = await startChildServer(dir, db, ENV);
    servers.push(b);
    // B judges others once its own lock is steady (the grace).
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const killedAt = Date.now();
    await a.kill('SIGKILL');
    await eventually(
      async () => (await call(b, 'GET', `/tasks/${killedTask}`, token)).data as Json,
      (x) => x.status === 'completed',
      40_000,
      100,
    );
    const recoveredMs = Date.now() - killedAt;
    process.stdout.write(
      `fast recovery: the killed replica's run completed on the survivor ${recoveredMs} ms after SIGKILL\n`,
    );
    expect(recoveredMs).toBeLessThan(20_000);
    expect(chatsOf(mock, 'killed-run')).toBe(2);

    // Frozen: C's run waits 4 s on the model; C is stopped for 10 s (ten missed heartbeats), then resumed.
    const c = await startChildServer(dir, db, ENV);
    servers.push(c);
    mock.enqueue({ kind: 'text', text: 'Slow but done.', delayMs: 4_000 });
    const frozenTask = await create(c, 'frozen-run');
    await eventually(
      () => Promise.resolve(chatsOf(mock, 'frozen-run')),
      (n) => n === 1,
    );
    // Either replica may have taken the job: the one running it is frozen, the other one watches.
    const runs = (server: ChildServer): boolean =>
      server
        .output()
        .split('\n')
        .some((line) => line.includes('engine.run.started') && line.includes(frozenTask));
    const [frozen, watcher] = runs(c) ? [c, b] : [b, c];
    expect(runs(frozen)).toBe(true);
    frozen.proc.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const duringFreeze = (await call(watcher, 'GET', `/tasks/${frozenTask}`, token)).data as Json;
    frozen.proc.kill('SIGCONT');
    expect(duringFreeze.status).toBe('in_progress');
    const done = await eventually(
      async () => (await call(watcher, 'GET', `/tasks/${frozenTask}`, token)).data as Json,
      (x) => x.status === 'completed',
      30_000,
    );
    expect(done.result).toBe('Slow but done.');
    expect(chatsOf(mock, 'frozen-run')).toBe(1);
    const robbed = watcher
      .output()
      .split('\n')
      .filter((line) => line.includes('engine.task.recovered') && line.includes(frozenTask));
    expect(robbed).toEqual([]);
  });
});
