import { CostRecordEntity, RiskRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { ErrorCode } from '@app/domain';
import { eventually, testBackends } from '@app/testing';

import {
  addMockProvider,
  bearer,
  createCompany,
  expectError,
  type MockLlm,
  setupCeo,
  startMockLlm,
  startTestApp,
  type TestApp,
} from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const B = '/api/v1/budget';
const ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
};

jest.setTimeout(90_000);

describe.each(testBackends())('budget on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let project: string;
  let agent: { id: string; name: string; department: string };

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: ENV });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock, { alias: 'small' });
    const company = await createCompany(t, ceo);
    const agents = (await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[];
    const first = agents.find((a) => a.name === company.agents[0].name) as Json;
    agent = { id: first.id as string, name: first.name as string, department: first.department as string };
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Budget' }).expect(201)).body.data
      .id as string;
  });

  afterEach(() => mock.reset());

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const setting = (key: string, value: string) =>
    t.http.put(`/api/v1/settings/budget/${key}`).set(bearer(ceo)).send({ value }).expect(200);

  const getTask = async (id: string): Promise<Json> =>
    (await t.http.get(`/api/v1/tasks/${id}`).set(bearer(ceo)).expect(200)).body.data as Json;

  /** A task's run is over and its work merged (a completed run passes through in_review first). */
  const finished = (x: Json) => ['completed', 'blocked', 'failed'].includes(x.status as string);

  async function runTask(
    until: (task: Json) => boolean = (x) =>
      ['completed', 'blocked', 'failed'].includes(x.status as string) || typeof x.status_reason === 'string',
  ): Promise<Json> {
    const created = await t.http
      .post('/api/v1/tasks')
      .set(bearer(ceo))
      .send({
        title: 'Say hello',
        description: 'Answer hello.',
        type: 'development',
        project,
        created_by: 'ceo',
        assigned_to: agent.name,
      })
      .expect(201);
    const id = created.body.data.id as string;
    return eventually(() => getTask(id), until);
  }

  const rawRecords = () => t.app.get(DatabaseService).dataSource.getRepository(CostRecordEntity).find();
  const riskRecords = () =>
    t.app
      .get(DatabaseService)
      .dataSource.getRepository(RiskRecordEntity)
      .find({ where: { agentId: agent.id }, order: { createdAt: 'ASC' } });

  it('should answer 401 without a token and 400 for a bad filter or page', async () => {
    expectError((await t.http.get(B).expect(401)).body, ErrorCode.Unauthorized, 'auth');
    expectError((await t.http.get(`${B}/config`).expect(401)).body, ErrorCode.Unauthorized, 'auth');
    const bad = await t.http.get(`${B}/records?limit=0`).set(bearer(ceo)).expect(400);
    expect(bad.body.success).toBe(false);
    await t.http
      .get(`${B}/records?agent_id=${'x'.repeat(200)}`)
      .set(bearer(ceo))
      .expect(400);
  });

  it('should answer the configuration in the reference shape with the risk budget', async () => {
    const res = await t.http.get(`${B}/config`).set(bearer(ceo)).expect(200);
    expect(res.body.data).toEqual({
      total_monthly: 0,
      alerts: { warn_at: 75, critical_at: 90, hard_stop_at: 100 },
      per_task_limit: 5,
      per_agent_daily_limit: 0,
      auto_downgrade: { enabled: false, threshold: 85, downgrade_map: [], boundary: 'task_assignment' },
      reset_day: 1,
      currency: 'EUR',
      risk_budget: {
        enabled: false,
        per_task_risk_limit: 5,
        per_agent_daily_risk_limit: 20,
        total_daily_risk_limit: 100,
        alerts: { warn_at: 75, critical_at: 90 },
      },
    });
    const bad = await t.http
      .put('/api/v1/settings/budget/auto_downgrade_map')
      .set(bearer(ceo))
      .send({ value: '[["large","large"]]' })
      .expect(400);
    expectError(bad.body, ErrorCode.BudgetDowngradeMapInvalid, 'validation');
  });

  it('should list records with summaries over every matching record, and an agent total', async () => {
    await runTask();
    await runTask();
    const raw = await rawRecords();
    expect(raw.length).toBeGreaterThanOrEqual(2);
    const total = raw.reduce((sum, r) => sum + r.costUsd, 0);
    const page = await t.http.get(`${B}/records?limit=1`).set(bearer(ceo)).expect(200);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.pagination.total).toBe(raw.length);
    expect(page.body.period_summary.record_count).toBe(raw.length);
    expect(page.body.period_summary.total_cost_usd).toBeCloseTo(total, 9);
    expect(page.body.daily_summary.reduce((n: number, d: Json) => n + (d.record_count as number), 0)).toBe(raw.length);
    expect(page.body.currency).toBe('EUR');
    const task = raw[0].taskId as string;
    const byTask = await t.http.get(`${B}/records?task_id=${task}&agent_id=${agent.id}`).set(bearer(ceo)).expect(200);
    expect(byTask.body.period_summary.record_count).toBe(raw.filter((r) => r.taskId === task).length);
    const mine = await t.http.get(`${B}/agents/${agent.id}`).set(bearer(ceo)).expect(200);
    expect(mine.body.data.total_cost_usd).toBeCloseTo(total, 9);
    const summary = await t.http.get(B).set(bearer(ceo)).expect(200);
    expect(summary.body.data.by_agent[0]).toMatchObject({ agent_id: agent.id, record_count: raw.length });
    expect(summary.body.data.alert_level).toBe('normal');
  });

  it('should score allowed tool calls as risk records and refuse a run past the risk budget (6002)', async () => {
    await setting('risk_budget_enabled', 'true');
    await setting('risk_per_task_limit', '0');
    await setting('risk_per_agent_daily_limit', '0.5');
    await setting('risk_total_daily_limit', '0');
    const write = (path: string) => ({
      kind: 'tool_calls' as const,
      calls: [{ name: 'write_file', arguments: { path, content: 'risk\n' } }],
    });
    mock.enqueue(write('risk/a.md'), write('risk/b.md'), {
      kind: 'text',
      text: 'Wrote both.',
      inputTokens: 10,
      outputTokens: 5,
    });
    // Its written files are merged (in review) before it completes.
    const first = await runTask(finished);
    expect(first.status).toBe('completed');
    const risks = await riskRecords();
    // code:write is a medium-risk action: 0.3·0.4 + 0.3·0.3 + 0.2·0.3 + 0.2·0.2 = 0.31 risk units.
    expect(risks.map((r) => [r.toolName, r.actionType, r.riskLevel, r.riskUnits, r.taskId])).toEqual([
      ['write_file', 'code:write', 'medium', 0.31, first.id],
      ['write_file', 'code:write', 'medium', 0.31, first.id],
    ]);
    const alerts = t.consoleLines().filter((line) => line.includes('budget.risk.alert.raised'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain('exhausted');

    const before = (await rawRecords()).length;
    const refused = await runTask();
    expect(refused.status).toBe('blocked');
    expect(refused.status_reason).toContain('budget_risk');
    expect(refused.status_reason).toContain(String(ErrorCode.RiskBudgetExhausted));
    expect((await rawRecords()).length).toBe(before);

    await setting('risk_per_agent_daily_limit', '0');
    expect((await runTask(finished)).status).toBe('completed');
    await setting('risk_budget_enabled', 'false');
    await setting('risk_per_agent_daily_limit', '20');
  });

  it("should refuse a run once the agent's department spent its share of the monthly budget (6000)", async () => {
    const departments = (await t.http.get('/api/v1/company/departments').set(bearer(ceo)).expect(200)).body
      .data as Json[];
    const share = departments.find((d) => (d.name as string).toLowerCase() === agent.department)?.budget_percent;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(50);
    // Every record so far is this agent's: the company has room left, its department has none.
    const spent = (await rawRecords()).reduce((sum, r) => sum + r.costUsd, 0);
    await setting('total_monthly', (spent * 2).toFixed(6));
    const before = (await rawRecords()).length;
    const task = await runTask();
    expect(task.status).toBe('blocked');
    expect(task.status_reason).toContain('budget_limits');
    expect(task.status_reason).toContain(String(ErrorCode.BudgetExhausted));
    expect(task.status_reason).toContain(`department ${agent.department}`);
    expect((await rawRecords()).length).toBe(before);

    // With a share that fits a call's estimate (its whole output budget), the run goes ahead.
    await setting('total_monthly', ((spent * 100 * 1000) / (share as number)).toFixed(6));
    expect(await runTask(finished)).toMatchObject({ status: 'completed', status_reason: null });
    await setting('total_monthly', '0');
  });

  it('should raise each alert once per upward crossing', async () => {
    await setting('total_monthly', '100000');
    await setting('alert_warn_at', '0');
    await runTask();
    await runTask();
    await setting('alert_critical_at', '0');
    await runTask();
    await runTask();
    const alerts = t.consoleLines().filter((line) => line.includes('budget.alert.raised'));
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toContain('warning');
    expect(alerts[1]).toContain('critical');
    await setting('alert_warn_at', '75');
    await setting('alert_critical_at', '90');
  });

  it('should refuse new runs once the monthly hard stop is reached, without another model call', async () => {
    const spent = (await rawRecords()).reduce((sum, r) => sum + r.costUsd, 0);
    await setting('total_monthly', (spent / 2).toFixed(6));
    const before = (await rawRecords()).length;
    const task = await runTask();
    expect(task.status).toBe('blocked');
    expect(task.status_reason).toContain('budget_limits');
    expect(task.status_reason).toContain(String(ErrorCode.BudgetExhausted));
    expect((await rawRecords()).length).toBe(before);
    const summary = await t.http.get(B).set(bearer(ceo)).expect(200);
    expect(summary.body.data.alert_level).toBe('hard_stop');
    await setting('total_monthly', '0');
  });
  if (backend === 'postgres') {
    it("should never let two app instances on one database overspend an agent's daily limit together", async () => {
      const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
      const spentToday = async () =>
        (await rawRecords())
          .filter((r) => r.agentId === agent.id && r.timestamp >= today)
          .reduce((sum, r) => sum + r.costUsd, 0);
      const before = await spentToday();
      // Each call reserves its estimate (the agent's whole output budget) and costs about as much:
      // three calls fit under the limit, never a fourth, however the instances interleave.
      const limit = before + 30;
      await setting('per_agent_daily_limit', limit.toFixed(6));
      const other = await startTestApp({ backend, env: ENV, database: t.db });
      try {
        const apps = [t, other];
        mock.enqueue(
          ...Array.from({ length: 8 }, () => ({
            kind: 'text' as const,
            text: 'Done.',
            inputTokens: 10,
            outputTokens: 4096,
          })),
        );
        const ids = await Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            const res = await apps[i % 2].http
              .post('/api/v1/tasks')
              .set(bearer(ceo))
              .send({
                title: `Concurrent ${i}`,
                description: 'Answer done.',
                type: 'development',
                project,
                created_by: 'ceo',
                assigned_to: agent.name,
              })
              .expect(201);
            return res.body.data.id as string;
          }),
        );
        // A run refused in flight stays in_progress with the reason; one refused at its start is blocked.
        const settled = (x: Json) =>
          ['completed', 'blocked', 'failed'].includes(x.status as string) || typeof x.status_reason === 'string';
        const tasks = await Promise.all(ids.map((id) => eventually(() => getTask(id), settled, 60_000)));
        const after = await spentToday();
        expect(after).toBeLessThanOrEqual(limit);
        // Only these tasks' calls: a run an earlier test's limit held may resume meanwhile.
        const calls = (await rawRecords()).filter((r) => r.taskId !== null && ids.includes(r.taskId)).length;
        expect(calls).toBeGreaterThanOrEqual(1);
        expect(calls).toBeLessThanOrEqual(3);
        // Every task that could not make its call was refused by the daily limit, at its start or in flight.
        const refused = tasks.filter((x) => String(x.status_reason ?? '').includes('daily limit'));
        expect(refused.length).toBeGreaterThanOrEqual(8 - calls);
        const open = await t.app
          .get(DatabaseService)
          .dataSource.query(`SELECT COUNT(*) AS n FROM "budget_reservations" WHERE "state" = 'open'`);
        expect(Number((open as Array<{ n: unknown }>)[0]?.n)).toBe(0);
      } finally {
        await other.close();
        await setting('per_agent_daily_limit', '0');
      }
    });
  }
});
