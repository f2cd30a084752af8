import { testBackends } from '@app/testing';
import {
  bearer,
  createCompany,
  otherCase,
  seedCostRecord,
  seedCostRecords,
  seedProvider,
  seedTaskMetric,
  seedTaskMetrics,
  setupCeo,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

const HIGH_LIMITS = { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000', SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' };
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const LONG = 'x'.repeat(129);

interface Agent {
  id: string;
  name: string;
  role: string;
  department: string;
  level: string;
}

interface ActivityEvent {
  event_type: string;
  timestamp: string;
  description: string;
  related_ids: Record<string, string>;
}

function path(name: string): string {
  return encodeURIComponent(name);
}

function expectNewestFirst(events: readonly ActivityEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    expect(Date.parse(events[i - 1].timestamp)).toBeGreaterThanOrEqual(Date.parse(events[i].timestamp));
  }
}

describe.each(testBackends())('agents and activities on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let observer: string;
  let roster: Agent[];
  let chief: Agent;
  let dev: Agent;
  let pm: Agent;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    ceo = await setupCeo(t);
    observer = await userWithRole(t, ceo, 'observer');
    await seedProvider(t);
    const created = await createCompany(t, ceo, 'startup');
    expect(created.agent_count).toBe(5);
    roster = (await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Agent[];
    chief = roster[0];
    dev = roster[2];
    pm = roster[4];
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should answer 401 without a token', async () => {
    await t.http.get('/api/v1/agents').expect(401);
    await t.http.get(`/api/v1/agents/${path(chief.name)}`).expect(401);
    await t.http.get(`/api/v1/agents/${path(chief.name)}/activity`).expect(401);
    await t.http.get('/api/v1/activities').expect(401);
  });

  describe('roster', () => {
    it('should list the five agents in roster order', async () => {
      const res = await t.http.get('/api/v1/agents').set(bearer(observer)).expect(200);
      expect(res.body).toMatchObject({ error: null, error_detail: null, success: true, degraded_sources: [] });
      expect(res.body.pagination).toEqual({ total: 5, offset: 0, limit: 50 });
      expect(res.body.data.map((a: Agent) => [a.role, a.department, a.level])).toEqual([
        ['CEO', 'executive', 'c_suite'],
        ['CTO', 'engineering', 'c_suite'],
        ['Full-Stack Developer', 'engineering', 'senior'],
        ['Full-Stack Developer', 'engineering', 'mid'],
        ['Product Manager', 'product', 'senior'],
      ]);
      expect(new Set(res.body.data.map((a: Agent) => a.name.toLowerCase())).size).toBe(5);
    });

    it('should page with limit and offset', async () => {
      const res = await t.http.get('/api/v1/agents?limit=2&offset=1').set(bearer(ceo)).expect(200);
      expect(res.body.data.map((a: Agent) => a.id)).toEqual([roster[1].id, roster[2].id]);
      expect(res.body.pagination).toEqual({ total: 5, offset: 1, limit: 2 });
      const past = await t.http.get('/api/v1/agents?offset=10').set(bearer(ceo)).expect(200);
      expect(past.body.data).toEqual([]);
      expect(past.body.pagination.total).toBe(5);
    });

    it.each(['limit=0', 'limit=201', 'offset=-1'])('should reject %s with 400', async (query) => {
      const res = await t.http.get(`/api/v1/agents?${query}`).set(bearer(ceo)).expect(400);
      expect(res.body.error_detail.error_category).toBe('validation');
    });

    it('should return one agent by name, case-insensitively, as an AgentConfig', async () => {
      const res = await t.http
        .get(`/api/v1/agents/${path(otherCase(chief.name))}`)
        .set(bearer(observer))
        .expect(200);
      const agent = res.body.data;
      expect(agent).toMatchObject({
        id: chief.id,
        name: chief.name,
        role: 'CEO',
        department: 'executive',
        level: 'c_suite',
        status: 'active',
        personality_preset: 'visionary_leader',
        model: {
          provider: 'test-provider',
          model_id: 'large-model',
          temperature: 0.7,
          max_tokens: 4096,
          fallback_model: null,
        },
        tier: 'large',
        autonomy_level: null,
        budget_limit_monthly: null,
      });
      expect(agent.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(agent.personality).toEqual(expect.any(Object));
      expect(Object.keys(agent.personality).length).toBeGreaterThan(0);
      expect(Number.isNaN(Date.parse(agent.hiring_date))).toBe(false);
      const medium = await t.http
        .get(`/api/v1/agents/${path(dev.name)}`)
        .set(bearer(ceo))
        .expect(200);
      expect(medium.body.data).toMatchObject({ tier: 'medium', model: { model_id: 'medium-model' } });
    });

    it('should answer 404 (3013) for an unknown agent and 400 for a 129-character name', async () => {
      const missing = await t.http.get('/api/v1/agents/Nobody%20Here').set(bearer(ceo)).expect(404);
      expect(missing.body).toMatchObject({ data: null, success: false });
      expect(missing.body.error_detail).toMatchObject({ error_code: 3013, error_category: 'not_found' });
      const long = await t.http.get(`/api/v1/agents/${LONG}`).set(bearer(ceo)).expect(400);
      expect(long.body.error_detail.error_category).toBe('validation');
      for (const sub of ['history', 'performance', 'activity']) {
        await t.http.get(`/api/v1/agents/Nobody%20Here/${sub}`).set(bearer(ceo)).expect(404);
      }
    });

    it('should list hired then onboarded in the career history, initiated by the CEO', async () => {
      const res = await t.http
        .get(`/api/v1/agents/${path(dev.name)}/history`)
        .set(bearer(observer))
        .expect(200);
      const history = res.body.data;
      expect(history.map((e: { event_type: string }) => e.event_type)).toEqual(['hired', 'onboarded']);
      expect(history[0]).toMatchObject({
        initiated_by: 'ceo',
        description: 'Hired as Full-Stack Developer (senior) from template startup',
        metadata: {},
      });
      expect(history[1].initiated_by).toBe('ceo');
      expect(Date.parse(history[0].timestamp)).toBeLessThan(Date.parse(history[1].timestamp));
    });
  });

  describe('performance', () => {
    it('should report zeros and nulls for an agent without runs', async () => {
      const res = await t.http
        .get(`/api/v1/agents/${path(pm.name)}/performance`)
        .set(bearer(observer))
        .expect(200);
      const perf = res.body.data;
      expect(perf).toMatchObject({
        agent_name: pm.name,
        tasks_completed_total: 0,
        tasks_completed_7d: 0,
        tasks_completed_30d: 0,
        avg_completion_time_seconds: null,
        cost_per_task: null,
        success_rate_percent: null,
        quality_score: null,
        collaboration_score: null,
        trend_direction: 'insufficient_data',
      });
      expect(perf.windows.map((w: { window_size: string }) => w.window_size)).toEqual(['7d', '30d', '90d']);
      for (const w of perf.windows) {
        expect(w).toMatchObject({ data_point_count: 0, tasks_completed: 0, tasks_failed: 0, success_rate: null });
      }
      expect(perf.trends).toHaveLength(3);
      expect(perf.trends.every((tr: { direction: string }) => tr.direction === 'insufficient_data')).toBe(true);
    });

    it('should summarise seeded runs over the windows', async () => {
      const now = Date.now();
      for (let i = 0; i < 6; i++) {
        await seedTaskMetric(t, dev.id, {
          completedAt: new Date(now - (i * 12 + 1) * HOUR_MS),
          qualityScore: 8,
          costUsd: 0.5,
        });
      }
      await seedTaskMetric(t, dev.id, { completedAt: new Date(now - 3 * HOUR_MS), isSuccess: false, qualityScore: 8 });
      await seedTaskMetric(t, dev.id, { completedAt: new Date(now - 50 * HOUR_MS), isSuccess: false, qualityScore: 8 });
      // Beyond the 90-day look-back: ignored by the summary.
      await seedTaskMetric(t, dev.id, { completedAt: new Date(now - 100 * DAY_MS), isSuccess: false });

      const res = await t.http
        .get(`/api/v1/agents/${path(dev.name)}/performance`)
        .set(bearer(ceo))
        .expect(200);
      const perf = res.body.data;
      expect(perf).toMatchObject({
        agent_name: dev.name,
        tasks_completed_total: 6,
        tasks_completed_7d: 6,
        tasks_completed_30d: 6,
        success_rate_percent: 75,
        quality_score: 8,
        cost_per_task: 0.5,
        avg_completion_time_seconds: 60,
      });
      expect(['improving', 'stable', 'declining']).toContain(perf.trend_direction);
      expect(perf.windows[0]).toMatchObject({
        window_size: '7d',
        data_point_count: 8,
        tasks_completed: 6,
        tasks_failed: 2,
        success_rate: 0.75,
      });
      expect(perf.windows[2]).toMatchObject({ window_size: '90d', data_point_count: 8 });
      // Another agent's summary is untouched.
      const other = await t.http
        .get(`/api/v1/agents/${path(pm.name)}/performance`)
        .set(bearer(ceo))
        .expect(200);
      expect(other.body.data.tasks_completed_total).toBe(0);
    });
  });

  describe('activity', () => {
    beforeAll(async () => {
      const now = Date.now();
      await seedCostRecord(t, chief.id, { timestamp: new Date(now - 5 * 60_000) });
      await seedCostRecord(t, dev.id, {
        model: 'small-model',
        inputTokens: 300,
        outputTokens: 70,
        costUsd: 0.125,
        timestamp: new Date(now - 30 * HOUR_MS),
      });
    });

    it("should page an agent's own timeline newest first, with that agent's events only", async () => {
      const res = await t.http
        .get(`/api/v1/agents/${path(dev.name)}/activity`)
        .set(bearer(ceo))
        .expect(200);
      expect(res.body).toMatchObject({ success: true, degraded_sources: [] });
      const events = res.body.data as ActivityEvent[];
      // hired + onboarded, 9 runs (started + completed each) and one cost record.
      expect(res.body.pagination).toEqual({ total: 21, offset: 0, limit: 50 });
      expect(events).toHaveLength(21);
      expectNewestFirst(events);
      expect(events.every((e) => e.related_ids.agent_id === dev.id)).toBe(true);
      const types = new Set(events.map((e) => e.event_type));
      expect([...types].sort()).toEqual(['cost_incurred', 'hired', 'onboarded', 'task_completed', 'task_started']);
      expect(events.slice(-2).map((e) => e.event_type)).toEqual(['task_completed', 'task_started']);
      const page = await t.http
        .get(`/api/v1/agents/${path(dev.name)}/activity?limit=5&offset=5`)
        .set(bearer(ceo))
        .expect(200);
      expect(page.body.data).toEqual(events.slice(5, 10));
      expect(page.body.pagination).toEqual({ total: 21, offset: 5, limit: 5 });
    });

    it("should keep another agent's timeline to its own events", async () => {
      const res = await t.http
        .get(`/api/v1/agents/${path(pm.name)}/activity`)
        .set(bearer(observer))
        .expect(200);
      expect(res.body.data.map((e: ActivityEvent) => e.event_type)).toEqual(['onboarded', 'hired']);
      expect(res.body.data.every((e: ActivityEvent) => e.related_ids.agent_id === pm.id)).toBe(true);
    });

    it('should show the last 24 hours by default, newest first, hires included', async () => {
      const res = await t.http.get('/api/v1/activities').set(bearer(ceo)).expect(200);
      expect(res.body).toMatchObject({ error: null, error_detail: null, success: true, degraded_sources: [] });
      const events = res.body.data as ActivityEvent[];
      expectNewestFirst(events);
      const hired = events.filter((e) => e.event_type === 'hired');
      expect(hired.map((e) => e.related_ids.agent_id).sort()).toEqual(roster.map((a) => a.id).sort());
      expect(events.filter((e) => e.event_type === 'onboarded')).toHaveLength(5);
      // Within 24 hours: the runs completed 1, 3 and 13 hours ago, not the one of 25 hours ago.
      expect(events.filter((e) => e.event_type === 'task_completed')).toHaveLength(3);
      expect(res.body.pagination).toMatchObject({ total: events.length, offset: 0, limit: 50 });
    });

    it('should filter by type', async () => {
      const res = await t.http.get('/api/v1/activities?type=hired').set(bearer(ceo)).expect(200);
      expect(res.body.data).toHaveLength(5);
      expect(res.body.data.every((e: ActivityEvent) => e.event_type === 'hired')).toBe(true);
      expect(res.body.pagination.total).toBe(5);
    });

    it('should filter by agent id', async () => {
      const res = await t.http.get(`/api/v1/activities?agent_id=${pm.id}`).set(bearer(ceo)).expect(200);
      expect(res.body.data.map((e: ActivityEvent) => e.event_type)).toEqual(['onboarded', 'hired']);
      const devs = await t.http
        .get(`/api/v1/activities?agent_id=${dev.id}&last_n_hours=168`)
        .set(bearer(ceo))
        .expect(200);
      expect(devs.body.data.length).toBeGreaterThan(2);
      expect(devs.body.data.every((e: ActivityEvent) => e.related_ids.agent_id === dev.id)).toBe(true);
      const nobody = await t.http.get('/api/v1/activities?agent_id=no-such-agent').set(bearer(ceo)).expect(200);
      expect(nobody.body.data).toEqual([]);
    });

    it.each([24, 48, 168])('should accept last_n_hours=%i', async (hours) => {
      const res = await t.http.get(`/api/v1/activities?last_n_hours=${hours}`).set(bearer(ceo)).expect(200);
      expectNewestFirst(res.body.data);
    });

    it.each([
      ['type=bogus', 'type=bogus'],
      ['last_n_hours=12', 'last_n_hours=12'],
      ['last_n_hours=abc', 'last_n_hours=abc'],
      ['a 129-character agent_id', `agent_id=${LONG}`],
      ['limit=201', 'limit=201'],
    ])('should reject %s with 400', async (_label, query) => {
      const res = await t.http.get(`/api/v1/activities?${query}`).set(bearer(ceo)).expect(400);
      expect(res.body).toMatchObject({ data: null, success: false });
      expect(res.body.error_detail.error_category).toBe('validation');
    });

    it('should show model, tokens and cost of a model call to the CEO', async () => {
      const res = await t.http.get('/api/v1/activities?type=cost_incurred').set(bearer(ceo)).expect(200);
      expect(res.body.data).toEqual([
        {
          event_type: 'cost_incurred',
          timestamp: expect.any(String),
          description: 'API call to medium-model (100+50 tokens, 0.2500 EUR)',
          related_ids: { agent_id: chief.id },
        },
      ]);
      const runs = await t.http.get('/api/v1/activities?type=task_completed').set(bearer(ceo)).expect(200);
      for (const e of runs.body.data as ActivityEvent[]) {
        expect(e.description).toMatch(/^Task task-[0-9a-f]{8} (succeeded|failed) \(60\.0s, 0\.5000 EUR\)$/);
        expect(e.related_ids).toEqual({ agent_id: dev.id, task_id: expect.stringMatching(/^task-/) });
      }
    });

    it('should redact costs for an observer', async () => {
      const res = await t.http.get('/api/v1/activities').set(bearer(observer)).expect(200);
      const events = res.body.data as ActivityEvent[];
      const cost = events.filter((e) => e.event_type === 'cost_incurred');
      expect(cost.map((e) => e.description)).toEqual(['API call (100+50 tokens)']);
      const runs = events.filter((e) => e.event_type === 'task_completed');
      expect(runs).toHaveLength(3);
      for (const e of runs) {
        expect(e.description).toMatch(/^Task task-[0-9a-f]{8} (succeeded|failed) \(60\.0s\)$/);
      }
      expect(JSON.stringify(events)).not.toMatch(/EUR|medium-model/);
      const own = await t.http
        .get(`/api/v1/agents/${path(dev.name)}/activity`)
        .set(bearer(observer))
        .expect(200);
      expect(JSON.stringify(own.body.data)).not.toMatch(/EUR|small-model/);
      expect(own.body.data.map((e: ActivityEvent) => e.description)).toContain('API call (300+70 tokens)');
    });

    it('should leave records older than the window out and take them in with a wider one', async () => {
      const day = await t.http.get('/api/v1/activities?last_n_hours=24').set(bearer(ceo)).expect(200);
      const costs = (body: { data: ActivityEvent[] }) =>
        body.data.filter((e) => e.event_type === 'cost_incurred').map((e) => e.description);
      expect(costs(day.body)).toEqual(['API call to medium-model (100+50 tokens, 0.2500 EUR)']);
      const twoDays = await t.http.get('/api/v1/activities?last_n_hours=48').set(bearer(ceo)).expect(200);
      expect(costs(twoDays.body)).toEqual([
        'API call to medium-model (100+50 tokens, 0.2500 EUR)',
        'API call to small-model (300+70 tokens, 0.1250 EUR)',
      ]);
      // Runs completed 1, 3, 13, 25 and 37 hours ago fall within 48 hours; those of 49 and 50 hours ago do not.
      const runs = twoDays.body.data.filter((e: ActivityEvent) => e.event_type === 'task_completed');
      expect(runs).toHaveLength(5);
      const week = await t.http.get('/api/v1/activities?last_n_hours=168').set(bearer(ceo)).expect(200);
      expect(week.body.data.filter((e: ActivityEvent) => e.event_type === 'task_completed')).toHaveLength(8);
    });
  });

  it("should page a long timeline from each source's newest rows: every page a slice of the whole, ties kept together", async () => {
    const agent = roster[3];
    // Eight days back and older: outside every window the organisation feed tests above look at.
    const base = Date.now() - 8 * DAY_MS;
    const minute = 60_000;
    await seedTaskMetrics(t, agent.id, 30, (i) => {
      // Runs 10 and 11 complete at the same moment; each started 90 s before it completed.
      const completedAt = new Date(base - (i === 11 ? 10 : i) * minute);
      return { taskId: `timeline-${i}`, completedAt, startedAt: new Date(completedAt.getTime() - 90_000) };
    });
    await seedCostRecords(t, agent.id, 25, (i) => ({
      // Records 0 to 4 share the newest moment of the timeline (a page cut falls inside that group),
      // as do records 7 and 8.
      timestamp: new Date(i < 5 ? base + minute : base - 30_000 - (i === 8 ? 7 : i) * 45_000),
      costUsd: 0.01 * (100 - i), // ties sort by description: the later records of a group come first
    }));
    const read = async (query: string) =>
      (
        await t.http
          .get(`/api/v1/agents/${path(agent.name)}/activity?${query}`)
          .set(bearer(ceo))
          .expect(200)
      ).body as { data: ActivityEvent[]; pagination: { total: number } };

    const whole = await read('limit=200');
    // hired + onboarded, 30 runs (started + completed each), 25 cost records.
    expect(whole.pagination.total).toBe(87);
    expect(whole.data).toHaveLength(87);
    expectNewestFirst(whole.data);
    for (const size of [1, 7, 20]) {
      const pages: ActivityEvent[] = [];
      for (let offset = 0; offset < 87; offset += size) {
        const page = await read(`limit=${size}&offset=${offset}`);
        expect(page.pagination.total).toBe(87);
        pages.push(...page.data);
      }
      expect(pages).toEqual(whole.data);
    }
    const past = await read('limit=10&offset=87');
    expect(past.data).toEqual([]);
    expect(past.pagination.total).toBe(87);
  });

  it('should list start events alone newest by start, paged from the newest starts', async () => {
    const agent = roster[1];
    const base = Date.now() - 50 * HOUR_MS;
    // Every third run took an hour, the others 30 s: start order differs from completion order.
    const runs = Array.from({ length: 12 }, (_, i) => {
      const completedAt = new Date(base - i * 60_000);
      const took = i % 3 === 0 ? HOUR_MS : 30_000;
      return { taskId: `starts-${i}`, completedAt, startedAt: new Date(completedAt.getTime() - took) };
    });
    await seedTaskMetrics(t, agent.id, runs.length, (i) => runs[i]);
    const expected = [...runs]
      .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime())
      .map((run) => ({ task: run.taskId, at: run.startedAt.toISOString() }));
    const starts = async (query: string) =>
      (
        await t.http
          .get(`/api/v1/activities?agent_id=${agent.id}&type=task_started&last_n_hours=168&${query}`)
          .set(bearer(ceo))
          .expect(200)
      ).body as { data: ActivityEvent[]; pagination: { total: number } };

    const pages: Array<{ task: string; at: string }> = [];
    for (let offset = 0; offset < 12; offset += 5) {
      const page = await starts(`limit=5&offset=${offset}`);
      expect(page.pagination.total).toBe(12);
      expect(page.data.every((e) => e.event_type === 'task_started')).toBe(true);
      pages.push(...page.data.map((e) => ({ task: e.related_ids.task_id, at: e.timestamp })));
    }
    expect(pages).toEqual(expected);
  });

  it('should count every run of the last 90 days in the performance summary', async () => {
    const now = Date.now();
    await seedTaskMetrics(t, pm.id, 2100, (i) => ({
      taskId: `task-${i}`,
      startedAt: null,
      completedAt: new Date(now - (i + 1) * 1000),
    }));
    const res = await t.http
      .get(`/api/v1/agents/${path(pm.name)}/performance`)
      .set(bearer(ceo))
      .expect(200);
    expect(res.body.data).toMatchObject({ tasks_completed_7d: 2100, tasks_completed_total: 2100 });
  });

  it('should keep every agent the setup wizard accepts addressable by name', async () => {
    const longName = 'N'.repeat(150);
    const renamed = await t.http.put('/api/v1/setup/agents/3/name').set(bearer(ceo)).send({ name: longName });
    expect([200, 400]).toContain(renamed.status);
    if (renamed.status === 200) {
      await t.http.get(`/api/v1/agents/${longName}`).set(bearer(ceo)).expect(200);
      await t.http.put('/api/v1/setup/agents/3/name').set(bearer(ceo)).send({ name: roster[3].name }).expect(200);
    }
  });
});
