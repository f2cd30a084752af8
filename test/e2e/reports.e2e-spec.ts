import { ErrorCode, HumanRole } from '@app/domain';
import { RiskRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { testBackends } from '@app/testing';

import {
  bearer,
  createCompany,
  expectError,
  recordSpend,
  seedTaskMetric,
  setupCeo,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

import { RiskEviction, RiskTracker } from '../../apps/api/src/modules/budget';
import { ReportScheduler } from '../../apps/api/src/modules/reports';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(60_000);

const R = '/api/v1/reports';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  SYNTHORG_ENGINE_ENABLED: 'false',
};

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Yesterday: two calls (1.25 + 0.75), three runs and two medium-risk tool calls; the day before: one
 * call of 4.00 and one low-risk tool call.
 */
describe.each(testBackends())('reports on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let manager: string;
  let pair: string;
  let observer: string;
  let board: string;
  let agents: Json[];
  const now = Date.now();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const yesterday = today - DAY_MS;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: ENV });
    ceo = await setupCeo(t);
    manager = await userWithRole(t, ceo, HumanRole.Manager);
    pair = await userWithRole(t, ceo, HumanRole.PairProgrammer);
    observer = await userWithRole(t, ceo, HumanRole.Observer);
    board = await userWithRole(t, ceo, HumanRole.BoardMember);
    await createCompany(t, ceo);
    agents = (await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[];
    const [first, second] = agents.map((a) => a.id as string);
    await recordSpend(t, first, new Date(yesterday + 10 * HOUR_MS), 1.25);
    await recordSpend(t, second, new Date(yesterday + 13 * HOUR_MS), 0.75);
    await recordSpend(t, first, new Date(yesterday - 12 * HOUR_MS), 4);
    await seedTaskMetric(t, first, { completedAt: new Date(yesterday + HOUR_MS), durationSeconds: 30 });
    await seedTaskMetric(t, first, { completedAt: new Date(yesterday + 2 * HOUR_MS), durationSeconds: 90 });
    await seedTaskMetric(t, second, { completedAt: new Date(yesterday + 3 * HOUR_MS), isSuccess: false });
    // Today's run is outside yesterday's report.
    await seedTaskMetric(t, second, { completedAt: new Date(today + 1000) });
    // Risk through the tracker the tool invoker calls: two medium-risk calls yesterday, a low one before.
    const risk = t.app.get(RiskTracker);
    await risk.take('write_file', first, 'task-r1', new Date(yesterday + 5 * HOUR_MS));
    await risk.take('commit_changes', second, 'task-r2', new Date(yesterday + 6 * HOUR_MS));
    await risk.take('read_file', first, 'task-r1', new Date(yesterday - 6 * HOUR_MS));
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should answer 401 on every route without a token', async () => {
    for (const call of [
      t.http.get(R),
      t.http.get(`${R}/periods`),
      t.http.get(`${R}/report-1`),
      t.http.post(`${R}/generate`).send({ period: 'daily' }),
    ]) {
      expectError((await call.expect(401)).body, ErrorCode.Unauthorized, 'auth');
    }
  });

  it('should list the three periods to every role', async () => {
    const res = await t.http.get(`${R}/periods`).set(bearer(observer)).expect(200);
    expect(res.body.data).toEqual(['daily', 'weekly', 'monthly']);
  });

  it('should let only the write roles generate', async () => {
    for (const token of [observer, board]) {
      const res = await t.http.post(`${R}/generate`).set(bearer(token)).send({ period: 'daily' }).expect(403);
      expectError(res.body, ErrorCode.Forbidden, 'auth');
    }
    await t.http
      .post(`${R}/generate`)
      .set(bearer(pair))
      .send({ period: 'daily', template: 'task_completion' })
      .expect(201);
  });

  it('should refuse an unknown period or template with their own codes', async () => {
    const cases: [Json, number][] = [
      [{ period: 'yearly' }, ErrorCode.ReportPeriodInvalid],
      [{}, ErrorCode.ReportPeriodInvalid],
      [{ period: 'daily', template: 'everything' }, ErrorCode.ReportTemplateInvalid],
      [{ period: 'daily', template: null }, ErrorCode.ReportTemplateInvalid],
      [{ period: 'daily', extra: 1 }, ErrorCode.RequestValidationError],
    ];
    for (const [body, code] of cases) {
      const res = await t.http.post(`${R}/generate`).set(bearer(manager)).send(body).expect(400);
      expectError(res.body, code, 'validation');
    }
  });

  it("should build yesterday's comprehensive report, store it and read it back", async () => {
    const res = await t.http.post(`${R}/generate`).set(bearer(manager)).send({ period: 'daily' }).expect(201);
    const report = res.body.data as Json;
    const [first, second] = agents;
    expect(report).toMatchObject({
      period: 'daily',
      template: 'comprehensive',
      start: iso(yesterday),
      end: iso(today),
      trigger: 'manual',
      has_spending: true,
      has_performance: true,
      has_task_completion: true,
      has_risk_trends: true,
    });
    expect(report.content.spending).toEqual({
      total_cost_usd: 2,
      total_input_tokens: 200,
      total_output_tokens: 100,
      record_count: 2,
      previous_period_cost_usd: 4,
      change_percent: -50,
      daily: [{ date: iso(yesterday).slice(0, 10), cost_usd: 2, record_count: 2 }],
      currency: 'EUR',
    });
    expect(report.content.performance.agents).toEqual([
      {
        agent_id: first?.id,
        agent_name: first?.name,
        department: first?.department,
        tasks_completed: 2,
        tasks_failed: 0,
        success_rate: 1,
        avg_duration_seconds: 60,
        total_cost_usd: 1,
        avg_quality_score: 8,
      },
      expect.objectContaining({ agent_id: second?.id, tasks_completed: 0, tasks_failed: 1, success_rate: 0 }),
    ]);
    expect(report.content.task_completion).toMatchObject({ runs: 3, completed: 2, failed: 1, completion_rate: 0.6667 });
    expect(report.content.risk_trends).toEqual({
      total_risk_units: 0.62,
      by_agent: { [first?.id as string]: 0.31, [second?.id as string]: 0.31 },
      by_action_type: { 'code:write': 0.31, 'vcs:commit': 0.31 },
      daily: [{ date: iso(yesterday).slice(0, 10), risk_units: 0.62 }],
    });

    const stored = await t.http.get(`${R}/${report.id}`).set(bearer(observer)).expect(200);
    expect(stored.body.data).toEqual(report);
    const list = await t.http.get(R).set(bearer(observer)).expect(200);
    const row = (list.body.data as Json[]).find((r) => r.id === report.id);
    const { content: _content, ...summary } = report;
    expect(row).toEqual(summary);
  });

  it('should cover the previous Monday to Monday for weekly', async () => {
    const weekday = (new Date(today).getUTCDay() + 6) % 7;
    const monday = today - weekday * DAY_MS;
    const res = await t.http
      .post(`${R}/generate`)
      .set(bearer(ceo))
      .send({ period: 'weekly', template: 'spending_summary' })
      .expect(201);
    expect(res.body.data).toMatchObject({
      start: iso(monday - 7 * DAY_MS),
      end: iso(monday),
      has_spending: true,
      has_performance: false,
    });
  });

  it('should store a risk report with only its risk section', async () => {
    const res = await t.http
      .post(`${R}/generate`)
      .set(bearer(ceo))
      .send({ period: 'monthly', template: 'risk_trends' })
      .expect(201);
    expect(res.body.data).toMatchObject({ template: 'risk_trends', has_risk_trends: true, has_spending: false });
    expect(Object.keys(res.body.data.content as Json)).toEqual(['risk_trends']);
    expect(res.body.data.content.risk_trends).toEqual(
      expect.objectContaining({ total_risk_units: expect.any(Number), by_action_type: expect.any(Object) }),
    );
  });

  it('should evict risk records older than 7 days and keep the rest', async () => {
    const rows = t.app.get(DatabaseService).dataSource.getRepository(RiskRecordEntity);
    await t.app.get(RiskTracker).take('write_file', agents[0]?.id as string, 'task-old', new Date(now - 8 * DAY_MS));
    const kept = (await rows.find()).filter((r) => r.taskId !== 'task-old').length;
    expect(await t.app.get(RiskEviction).runDue(new Date(now))).toEqual(expect.any(Number));
    const left = await rows.find();
    expect(left.filter((r) => r.taskId === 'task-old')).toEqual([]);
    expect(left).toHaveLength(kept);
  });

  it('should answer 404 (ReportNotFound) for an unknown id and 400 for an over-long one', async () => {
    expectError((await t.http.get(`${R}/report-1`).set(bearer(ceo)).expect(404)).body, ErrorCode.ReportNotFound);
    await t.http
      .get(`${R}/${'x'.repeat(129)}`)
      .set(bearer(ceo))
      .expect(400);
  });

  it("should store the scheduled period's report once, and none while the schedule is off", async () => {
    const scheduler = t.app.get(ReportScheduler);
    await expect(scheduler.runDue()).resolves.toBe(false);
    await t.http.put('/api/v1/settings/budget/report_schedule').set(bearer(ceo)).send({ value: 'daily' }).expect(200);
    await expect(scheduler.runDue()).resolves.toBe(true);
    await expect(scheduler.runDue()).resolves.toBe(false);
    const list = (await t.http.get(`${R}?limit=200`).set(bearer(ceo)).expect(200)).body.data as Json[];
    const scheduled = list.filter((r) => r.trigger === 'scheduled');
    expect(scheduled).toEqual([
      expect.objectContaining({
        period: 'daily',
        template: 'comprehensive',
        start: iso(yesterday),
        generated_by: 'system',
        has_task_completion: true,
      }),
    ]);
    const refused = await t.http
      .put('/api/v1/settings/budget/report_schedule')
      .set(bearer(ceo))
      .send({ value: 'hourly' })
      .expect(400);
    expectError(refused.body, ErrorCode.SettingEnumInvalid, 'validation');
    await t.http.put('/api/v1/settings/budget/report_schedule').set(bearer(ceo)).send({ value: 'off' }).expect(200);
  });
});
