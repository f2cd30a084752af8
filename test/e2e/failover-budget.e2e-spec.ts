import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';

import { createTestDatabase, eventually, type TestDatabase, testBackends } from '@app/testing';

import { type ChildServer, type MockLlm, startChildServer, startMockLlm, TEST_PASSWORD } from '../support';

/**
 * Failover and the budget (two app instances on one Postgres, each a child process): a replica
 * SIGKILLed while its three runs wait on a slow model leaves open reservations; the survivor's
 * recovery settles them at their estimates in the same step as it re-queues the tasks, so the
 * recovered runs are judged against that spend and all complete there. A run a department limit
 * stops in flight is held (in progress, with the reason, an event, an activity entry) and resumes by
 * itself, exactly once, when the limit is raised.
 */

jest.setTimeout(240_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FAST = {
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '1000000',
};

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

const chats = (mock: MockLlm): number => mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

const postgresOnly = testBackends().includes('postgres') ? describe : describe.skip;

postgresOnly('failover and the budget on Postgres', () => {
  let mock: MockLlm;
  let db: TestDatabase;
  let sql: Client;
  let dir: string;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    mock = await startMockLlm();
    db = await createTestDatabase('postgres');
    dir = mkdtempSync(join(tmpdir(), 'synthorg-failover-'));
  });

  afterAll(async () => {
    for (const server of servers) {
      await server.kill();
    }
    await sql?.end();
    await mock.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = async <T = Json>(text: string, values: unknown[] = []): Promise<T[]> =>
    (await sql.query(text, values)).rows as T[];

  it('should settle a killed replica’s reservations on recovery, finish its tasks on the survivor and resume a held run once', async () => {
    const a = await startChildServer(dir, db, FAST);
    servers.push(a);
    sql = new Client({ connectionString: db.settings.databaseUrl ?? '' });
    await sql.connect();
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
    const engineers = (company.data.agents as Json[]).filter((x) => x.department === 'engineering');
    expect(engineers.length).toBeGreaterThanOrEqual(3);
    const project = (await call(a, 'POST', '/projects', token, { name: 'Failover' })).data.id as string;
    let live = a;
    const setting = (key: string, value: string) =>
      call(live, 'PUT', `/settings/budget/${key}`, token, { value }).then(() => undefined);
    const task = (title: string, agent: string): Json => ({
      title,
      description: 'Answer done.',
      type: 'development',
      project,
      created_by: 'ceo',
      assigned_to: agent,
    });
    // The engineering department's share (60 %) of the monthly budget is what binds.
    const share = Number(
      (await rows<{ p: number }>(`SELECT "budget_percent" AS p FROM "departments" WHERE "name_key" = 'engineering'`))[0]
        .p,
    );
    const departmentCap = async (cap: number) => setting('total_monthly', ((cap * 100) / share).toFixed(6));
    await departmentCap(1000);

    // Replica A: three runs of three engineers, each waiting on a model that answers after 30 s.
    mock.enqueue(...[0, 1, 2].map(() => ({ kind: 'text' as const, text: 'Too late.', delayMs: 30_000 })));
    const ids: string[] = [];
    for (const [i, engineer] of engineers.slice(0, 3).entries()) {
      ids.push((await call(a, 'POST', '/tasks', token, task(`In flight ${i}`, engineer.name as string))).data.id);
    }
    await eventually(
      () => Promise.resolve(chats(mock)),
      (n) => n >= 3,
      30_000,
    );
    // A reservation's COMMIT goes out behind the call it guards.
    const dead = await eventually(
      () =>
        rows<{ id: string; estimate_usd: number; task_id: string }>(
          `SELECT "id", "estimate_usd", "task_id" FROM "budget_reservations" WHERE "state" = 'open'`,
        ),
      (found) => found.length >= 3,
      10_000,
    ).catch(async (error: Error) => {
      const tasks = await rows(`SELECT "id", "status", "status_reason", "run_owner" FROM "tasks"`);
      const all = await rows(`SELECT * FROM "budget_reservations"`);
      const paths = mock.requests.map((r) => `${r.path} ${JSON.stringify(r.body).slice(0, 200)}`);
      throw new Error(
        `${error.message}\n${JSON.stringify({ tasks, all, paths }, null, 1)}\n${a.output().slice(-4000)}`,
      );
    });
    expect(dead.map((r) => r.task_id).sort()).toEqual([...ids].sort());
    const deadSpend = dead.reduce((sum, r) => sum + Number(r.estimate_usd), 0);
    const estimate = Math.max(...dead.map((r) => Number(r.estimate_usd)));
    // The department fits the dead calls' estimates and the three recovered runs' own reservations.
    await departmentCap(deadSpend + 3 * estimate * 1.1);

    // Replica B joins; A is SIGKILLed with its three calls in flight.
    const b = await startChildServer(dir, db, FAST);
    servers.push(b);
    live = b;
    const killedAt = Date.now();
    await a.kill('SIGKILL');
    const done = await Promise.all(
      ids.map((id) =>
        eventually(
          async () => (await call(b, 'GET', `/tasks/${id}`, token)).data as Json,
          (x) => x.status === 'completed',
          90_000,
        ),
      ),
    );
    process.stdout.write(
      `failover: three tasks completed on the survivor ${Date.now() - killedAt} ms after the kill\n`,
    );
    expect(done.map((x) => x.status)).toEqual(['completed', 'completed', 'completed']);
    expect(b.output()).toContain('engine.recovery.reservations_settled');

    // Spend: each dead call once, at its estimate; each call made on B once, at its usage.
    const reservations = await rows<{ id: string; state: string; cost_record_id: string | null }>(
      `SELECT "id", "state", "cost_record_id" FROM "budget_reservations"`,
    );
    expect(reservations.filter((r) => r.state === 'open')).toEqual([]);
    const recovered = reservations.filter((r) => r.state === 'recovered');
    expect(recovered.map((r) => r.id).sort()).toEqual(dead.map((r) => r.id).sort());
    const records = await rows<{ id: string; task_id: string; cost_usd: number; input_tokens: number }>(
      `SELECT "id", "task_id", "cost_usd", "input_tokens" FROM "cost_records"`,
    );
    const estimates = records.filter((r) => Number(r.input_tokens) === 0);
    expect(estimates.map((r) => r.id).sort()).toEqual(recovered.map((r) => r.cost_record_id).sort());
    expect(estimates.reduce((sum, r) => sum + Number(r.cost_usd), 0)).toBeCloseTo(deadSpend, 6);
    const made = records.filter((r) => Number(r.input_tokens) > 0);
    expect(made.map((r) => r.task_id).sort()).toEqual([...ids].sort());
    const rollup = await rows<{ total: number }>(
      `SELECT COALESCE(SUM("cost_usd"), 0) AS total FROM "cost_rollups" WHERE "grain" = 'day'`,
    );
    const recordedTotal = records.reduce((sum, r) => sum + Number(r.cost_usd), 0);
    expect(Number(rollup[0].total)).toBeCloseTo(recordedTotal, 6);
    const orphans = await rows(`SELECT "id" FROM "tasks" WHERE "status" = 'in_progress' AND "run_owner" IS NULL`);
    expect(orphans).toEqual([]);

    // A comes back: two instances. A limit that lets the run start but not its call holds it.
    const a2 = await startChildServer(dir, db, FAST);
    servers.push(a2);
    const spent = recordedTotal;
    await departmentCap(spent + estimate / 2);
    const chatsBefore = chats(mock);
    const heldId = (await call(a2, 'POST', '/tasks', token, task('Held', engineers[0].name as string))).data
      .id as string;
    const held = await eventually(
      async () => (await call(b, 'GET', `/tasks/${heldId}`, token)).data as Json,
      (x) => x.status === 'in_progress' && typeof x.status_reason === 'string',
      30_000,
    );
    expect(held.status_reason).toMatch(/^budget_exhausted: department limit \[6000\]/);
    expect(chats(mock)).toBe(chatsBefore);
    const holds = await rows<{ state: string; limit_name: string; code: number }>(
      `SELECT "state", "limit_name", "code" FROM "held_runs" WHERE "task_id" = $1`,
      [heldId],
    );
    expect(holds).toEqual([{ state: 'held', limit_name: 'department', code: 6000 }]);
    const feed = (await call(b, 'GET', '/activities?type=status_changed', token)).data as Json[];
    expect(feed.some((e) => e.related_ids.task_id === heldId && String(e.description).includes('held'))).toBe(true);
    // Still held a few checks later: nothing resumes it while the limit binds.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(((await call(b, 'GET', `/tasks/${heldId}`, token)).data as Json).status).toBe('in_progress');

    await departmentCap(1000);
    const resumed = await eventually(
      async () => (await call(a2, 'GET', `/tasks/${heldId}`, token)).data as Json,
      (x) => x.status === 'completed',
      60_000,
    );
    expect(resumed.status).toBe('completed');
    // Exactly once: one release, one model call, one cost record for the held task.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const released = [a2, b].flatMap((s) => s.output().split('\n')).filter((l) => l.includes('engine.run.released'));
    expect(released).toHaveLength(1);
    expect(chats(mock)).toBe(chatsBefore + 1);
    const heldRecords = await rows(`SELECT "id" FROM "cost_records" WHERE "task_id" = $1`, [heldId]);
    expect(heldRecords).toHaveLength(1);
    expect(await rows(`SELECT "state" FROM "held_runs" WHERE "task_id" = $1`, [heldId])).toEqual([
      { state: 'released' },
    ]);
  });
});
