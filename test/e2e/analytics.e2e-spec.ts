import { ErrorCode, HumanRole, TASK_STATUSES } from '@app/domain';
import { TaskEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { taskRow, testBackends } from '@app/testing';

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

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(60_000);

const A = '/api/v1/analytics';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  SYNTHORG_ENGINE_ENABLED: 'false',
  // The default monthly budget (test apps start without one): the overview and forecast measure against it.
  SYNTHORG_BUDGET_TOTAL_MONTHLY: '100',
};

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Spend and runs stated by hand around the moment the suite starts: two calls in the current hour
 * (1.50 + 0.25), one at 00:00:01 today (2.00), one three days ago (4.00), one 40 days ago (8.00).
 */
describe.each(testBackends())('analytics on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let observer: string;
  let agents: Json[];
  const now = Date.now();
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const threeDaysAgo = today - 3 * DAY_MS + HOUR_MS;
  const fortyDaysAgo = today - 40 * DAY_MS + HOUR_MS;
  // The billing period starts on the 1st (reset_day 1): three days ago is inside from the 4th on.
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const periodSpent = 3.75 + (threeDaysAgo >= monthStart ? 4 : 0);

  beforeAll(async () => {
    t = await startTestApp({ backend, env: ENV });
    ceo = await setupCeo(t);
    observer = await userWithRole(t, ceo, HumanRole.Observer);
    await createCompany(t, ceo);
    agents = (await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[];
    const [first, second] = agents.map((a) => a.id as string);
    await recordSpend(t, first, new Date(hour + 60_000), 1.5);
    await recordSpend(t, second, new Date(hour + 120_000), 0.25);
    await recordSpend(t, first, new Date(today + 1000), 2);
    await recordSpend(t, first, new Date(threeDaysAgo), 4);
    await recordSpend(t, second, new Date(fortyDaysAgo), 8);
    await seedTaskMetric(t, first, { completedAt: new Date(hour + 30_000), isSuccess: true });
    await seedTaskMetric(t, first, { completedAt: new Date(hour + 40_000), isSuccess: true });
    await seedTaskMetric(t, second, { completedAt: new Date(hour + 50_000), isSuccess: false });
    await seedTaskMetric(t, second, { completedAt: new Date(today - 2 * DAY_MS + HOUR_MS), isSuccess: true });
    const tasks = t.app.get(DatabaseService).dataSource.getRepository(TaskEntity);
    await tasks.insert([
      taskRow({ id: 'task-a', status: 'in_progress', assigneeId: first, assignedTo: 'first' }),
      taskRow({ id: 'task-b', status: 'in_progress', assigneeId: first, assignedTo: 'first' }),
      taskRow({ id: 'task-c', status: 'in_progress', assigneeId: second, assignedTo: 'second' }),
      taskRow({ id: 'task-d', status: 'completed', assigneeId: second, assignedTo: 'second' }),
      taskRow({ id: 'task-e' }),
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should answer 401 on every route without a token', async () => {
    for (const path of ['overview', 'trends', 'forecast']) {
      expectError((await t.http.get(`${A}/${path}`).expect(401)).body, ErrorCode.Unauthorized, 'auth');
    }
  });

  it('should sum tasks, agents and spend in the overview, with the last 7 days of spend', async () => {
    const res = await t.http.get(`${A}/overview`).set(bearer(observer)).expect(200);
    const data = res.body.data as Json;
    const byStatus = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0]));
    expect(data).toMatchObject({
      total_tasks: 5,
      tasks_by_status: { ...byStatus, in_progress: 3, completed: 1, created: 1 },
      total_agents: agents.length,
      total_cost_usd: 15.75,
      budget_remaining_usd: 100 - periodSpent,
      budget_used_percent: periodSpent,
      active_agents_count: 2,
      idle_agents_count: agents.length - 2,
      currency: 'EUR',
    });
    const trend = data.cost_7d_trend as Json[];
    expect(trend.map((p) => p.timestamp)).toEqual([6, 5, 4, 3, 2, 1, 0].map((d) => iso(today - d * DAY_MS)));
    expect(trend.map((p) => p.value)).toEqual([0, 0, 0, 4, 0, 0, 3.75]);
  });

  it('should answer hourly spend for 7d by default, continuous and zero-filled up to the current hour', async () => {
    const res = await t.http.get(`${A}/trends`).set(bearer(observer)).expect(200);
    const data = res.body.data as Json;
    expect(data).toMatchObject({ period: '7d', metric: 'spend', bucket_size: 'hour' });
    const points = data.data_points as Json[];
    expect(points).toHaveLength(168);
    expect(points[0]?.timestamp).toBe(iso(hour - 167 * HOUR_MS));
    expect(points.at(-1)?.timestamp).toBe(iso(hour));
    for (let i = 1; i < points.length; i++) {
      expect(Date.parse(points[i]?.timestamp) - Date.parse(points[i - 1]?.timestamp)).toBe(HOUR_MS);
    }
    const at = (ms: number) => points.find((p) => p.timestamp === iso(ms))?.value;
    // Just after midnight the 00:00:01 call shares the current hour.
    expect(at(hour)).toBe(hour === today ? 3.75 : 1.75);
    expect(at(today)).toBe(hour === today ? 3.75 : 2);
    expect(at(threeDaysAgo)).toBe(4);
    expect(points.reduce((sum, p) => sum + p.value, 0)).toBeCloseTo(7.75, 9);
  });

  it('should answer daily spend for 30d and 90d, each bucket a UTC day', async () => {
    const month = (await t.http.get(`${A}/trends?period=30d`).set(bearer(observer)).expect(200)).body.data as Json;
    expect(month.bucket_size).toBe('day');
    const days = month.data_points as Json[];
    expect(days).toHaveLength(30);
    expect(days[0]?.timestamp).toBe(iso(today - 29 * DAY_MS));
    expect(days.map((p) => p.value).filter((v) => v !== 0)).toEqual([4, 3.75]);
    const quarter = (await t.http.get(`${A}/trends?period=90d&metric=spend`).set(bearer(ceo)).expect(200)).body
      .data as Json;
    expect(quarter.data_points).toHaveLength(90);
    expect((quarter.data_points as Json[]).map((p) => p.value).filter((v) => v !== 0)).toEqual([8, 4, 3.75]);
  });

  it('should count completed runs and the success share per bucket', async () => {
    const done = (await t.http.get(`${A}/trends?metric=tasks_completed`).set(bearer(observer)).expect(200)).body
      .data as Json;
    const hourly = done.data_points as Json[];
    expect(hourly.at(-1)?.value).toBe(2);
    expect(hourly.reduce((sum, p) => sum + p.value, 0)).toBe(3);
    const rate = (await t.http.get(`${A}/trends?period=30d&metric=success_rate`).set(bearer(observer)).expect(200)).body
      .data as Json;
    const daily = (rate.data_points as Json[]).map((p) => p.value);
    expect(daily.at(-1)).toBe(0.6667);
    expect(daily.at(-3)).toBe(1);
    expect(daily.filter((v) => v !== 0)).toHaveLength(2);
  });

  it('should answer the current number of working agents in every bucket for active_agents', async () => {
    const res = await t.http.get(`${A}/trends?period=30d&metric=active_agents`).set(bearer(observer)).expect(200);
    expect(new Set((res.body.data.data_points as Json[]).map((p) => p.value))).toEqual(new Set([2]));
  });

  it('should project spend from the lookback average and estimate when the budget runs out', async () => {
    // Lookback of 5 days: 4.00 three days ago and 3.75 today, a span of 4 days: 1.9375 a day.
    const res = await t.http.get(`${A}/forecast?horizon_days=5`).set(bearer(observer)).expect(200);
    const tomorrow = today + DAY_MS;
    expect(res.body.data).toEqual({
      horizon_days: 5,
      projected_total_usd: 9.6875,
      daily_projections: [1.9375, 3.875, 5.8125, 7.75, 9.6875].map((value, i) => ({
        day: iso(tomorrow + i * DAY_MS).slice(0, 10),
        projected_spend_usd: value,
      })),
      days_until_exhausted: Math.ceil((100 - periodSpent) / 1.9375),
      confidence: 0.5,
      avg_daily_spend_usd: 1.9375,
      currency: 'EUR',
    });
  });

  it('should forecast 14 days by default and only today with a 1-day horizon', async () => {
    const byDefault = (await t.http.get(`${A}/forecast`).set(bearer(ceo)).expect(200)).body.data as Json;
    expect(byDefault.horizon_days).toBe(14);
    expect(byDefault.daily_projections).toHaveLength(14);
    const one = (await t.http.get(`${A}/forecast?horizon_days=1`).set(bearer(ceo)).expect(200)).body.data as Json;
    expect(one).toMatchObject({ avg_daily_spend_usd: 3.75, confidence: 1, projected_total_usd: 3.75 });
  });

  it('should refuse parameters out of range with their own 400 codes', async () => {
    const cases: [string, number][] = [
      ['trends?period=1d', ErrorCode.TrendPeriodInvalid],
      ['trends?period=', ErrorCode.TrendPeriodInvalid],
      ['trends?metric=cost', ErrorCode.TrendMetricInvalid],
      ['forecast?horizon_days=0', ErrorCode.ForecastHorizonOutOfRange],
      ['forecast?horizon_days=91', ErrorCode.ForecastHorizonOutOfRange],
      ['forecast?horizon_days=abc', ErrorCode.ForecastHorizonOutOfRange],
      ['forecast?horizon_days=1.5', ErrorCode.ForecastHorizonOutOfRange],
      ['trends?period=7d&extra=1', ErrorCode.RequestValidationError],
    ];
    for (const [path, code] of cases) {
      const res = await t.http.get(`${A}/${path}`).set(bearer(observer)).expect(400);
      expectError(res.body, code, 'validation');
    }
  });
});
