import { EventBus, type ReceivedEvent } from '@app/platform';
import { testBackends } from '@app/testing';
import {
  bearer,
  createCompany,
  otherCase,
  seedCostRecord,
  seedCostRecords,
  seedTaskMetric,
  seedTaskMetrics,
  setupCeo,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

const HIGH_LIMITS = { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000', SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' };
const DAY_MS = 86_400_000;
const LONG_NAME = 'x'.repeat(129);

interface Agent {
  id: string;
  name: string;
  role: string;
  department: string;
}

describe.each(testBackends())('company, departments and projects on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let observer: string;
  const events: ReceivedEvent[] = [];
  let unsubscribe: () => void = () => undefined;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    ceo = await setupCeo(t);
    observer = await userWithRole(t, ceo, 'observer');
    unsubscribe = t.app.get(EventBus).subscribe((event) => {
      if (event.origin === 'local') {
        events.push(event);
      }
    });
  });

  afterAll(async () => {
    unsubscribe();
    await t?.close();
  });

  describe('before a company exists', () => {
    it('should answer 404 (3018) for the company', async () => {
      const res = await t.http.get('/api/v1/company').set(bearer(ceo)).expect(404);
      expect(res.body).toMatchObject({ data: null, success: false, error: expect.any(String) });
      expect(res.body.error_detail).toMatchObject({ error_code: 3018, error_category: 'not_found' });
    });

    it('should list no departments, as a list and as a page', async () => {
      const list = await t.http.get('/api/v1/company/departments').set(bearer(ceo)).expect(200);
      expect(list.body).toEqual({ data: [], error: null, error_detail: null, success: true });
      const page = await t.http.get('/api/v1/departments').set(bearer(ceo)).expect(200);
      expect(page.body).toMatchObject({ data: [], success: true, pagination: { total: 0, offset: 0 } });
      expect(page.body.degraded_sources).toEqual([]);
    });

    it('should answer 401 without a token', async () => {
      await t.http.get('/api/v1/company').expect(401);
      await t.http.get('/api/v1/departments').expect(401);
      await t.http.get('/api/v1/projects').expect(401);
    });
  });

  describe('with the startup company', () => {
    let agents: Agent[];
    const byRole = (role: string): Agent => {
      const found = agents.find((a) => a.role === role);
      if (!found) {
        throw new Error(`no ${role} on the roster`);
      }
      return found;
    };

    beforeAll(async () => {
      const created = await createCompany(t, ceo, 'startup');
      expect(created.agent_count).toBe(5);
      const res = await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200);
      agents = res.body.data as Agent[];
    });

    describe('company and departments', () => {
      it('should describe the company with its configuration and departments', async () => {
        const res = await t.http.get('/api/v1/company').set(bearer(ceo)).expect(200);
        expect(res.body).toMatchObject({ error: null, error_detail: null, success: true });
        const company = res.body.data;
        expect(company).toMatchObject({
          name: 'Acme Labs',
          type: 'startup',
          template_name: 'startup',
          agent_count: 5,
          config: { autonomy: { level: 'semi' }, budget_monthly: 50 },
        });
        expect(company.departments.map((d: { name: string; agent_count: number }) => [d.name, d.agent_count])).toEqual([
          ['executive', 1],
          ['engineering', 3],
          ['product', 1],
        ]);
        expect(Number.isNaN(Date.parse(company.created_at))).toBe(false);
      });

      it('should carry company_name and the roster as AgentConfig objects, as clients read them', async () => {
        const res = await t.http.get('/api/v1/company').set(bearer(ceo)).expect(200);
        const company = res.body.data;
        expect(company.company_name).toBe('Acme Labs');
        expect(company.agents).toHaveLength(5);
        expect(company.agents).toEqual(agents);
      });

      it('should list the three departments in template order', async () => {
        const res = await t.http.get('/api/v1/company/departments').set(bearer(ceo)).expect(200);
        expect(res.body.data.map((d: { name: string }) => d.name)).toEqual(['executive', 'engineering', 'product']);
        expect(res.body.data[1]).toMatchObject({
          name: 'engineering',
          head: 'CTO',
          budget_percent: 60,
          ceremony_policy: null,
          agent_count: 3,
        });
      });

      it('should page the departments with limit and offset', async () => {
        const first = await t.http.get('/api/v1/departments?limit=2').set(bearer(ceo)).expect(200);
        expect(first.body.data.map((d: { name: string }) => d.name)).toEqual(['executive', 'engineering']);
        expect(first.body.pagination).toEqual({ total: 3, offset: 0, limit: 2 });
        const rest = await t.http.get('/api/v1/departments?offset=2').set(bearer(ceo)).expect(200);
        expect(rest.body.data.map((d: { name: string }) => d.name)).toEqual(['product']);
        expect(rest.body.pagination).toMatchObject({ total: 3, offset: 2 });
      });

      it.each(['limit=0', 'limit=201', 'offset=-1', 'limit=abc'])('should reject %s with 400', async (query) => {
        const res = await t.http.get(`/api/v1/departments?${query}`).set(bearer(ceo)).expect(400);
        expect(res.body).toMatchObject({ data: null, success: false });
        expect(res.body.error_detail.error_category).toBe('validation');
      });

      it('should find a department case-insensitively, 404 (3014) for an unknown one, 400 for a long name', async () => {
        const res = await t.http.get('/api/v1/departments/Engineering').set(bearer(ceo)).expect(200);
        expect(res.body.data).toMatchObject({ name: 'engineering', agent_count: 3 });
        const missing = await t.http.get('/api/v1/departments/marketing').set(bearer(ceo)).expect(404);
        expect(missing.body.error_detail).toMatchObject({ error_code: 3014, error_category: 'not_found' });
        await t.http.get(`/api/v1/departments/${LONG_NAME}`).set(bearer(ceo)).expect(400);
      });
    });

    describe('department health', () => {
      it('should report counts and an empty cost trend with no runs', async () => {
        const res = await t.http.get('/api/v1/departments/engineering/health').set(bearer(ceo)).expect(200);
        const health = res.body.data;
        expect(health).toMatchObject({
          department_name: 'engineering',
          agent_count: 3,
          active_agent_count: 3,
          utilization_percent: 100,
          total_runs: 0,
          task_success_rate: null,
          avg_performance_score: null,
          health_score: null,
          department_cost_7d: 0,
          utilization_degraded: false,
        });
        expect(health.cost_trend).toHaveLength(7);
        expect(health.cost_trend.every((p: { value: number }) => p.value === 0)).toBe(true);
        const stamps = health.cost_trend.map((p: { timestamp: string }) => Date.parse(p.timestamp));
        for (let i = 1; i < stamps.length; i++) {
          expect(stamps[i] - stamps[i - 1]).toBe(DAY_MS);
        }
        expect(new Date(stamps[6]).toISOString().slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
      });

      it('should reflect seeded runs and costs of the department only', async () => {
        const cto = byRole('CTO');
        const dev = agents.filter((a) => a.role === 'Full-Stack Developer')[0];
        const now = Date.now();
        await seedTaskMetric(t, cto.id, { completedAt: new Date(now - 3_600_000) });
        await seedTaskMetric(t, cto.id, { completedAt: new Date(now - 2 * DAY_MS) });
        await seedTaskMetric(t, dev.id, { completedAt: new Date(now - 5 * DAY_MS) });
        await seedTaskMetric(t, dev.id, { completedAt: new Date(now - 10 * DAY_MS), isSuccess: false });
        // Outside the 30-day window, and another department's run: neither counts.
        await seedTaskMetric(t, dev.id, { completedAt: new Date(now - 40 * DAY_MS), isSuccess: false });
        await seedTaskMetric(t, byRole('CEO').id, { isSuccess: false });
        await seedCostRecord(t, cto.id, { costUsd: 0.25, timestamp: new Date(now - 60_000) });
        await seedCostRecord(t, dev.id, { costUsd: 0.5, timestamp: new Date(now - 120_000) });
        await seedCostRecord(t, byRole('Product Manager').id, { costUsd: 9 });

        const res = await t.http.get('/api/v1/departments/ENGINEERING/health').set(bearer(observer)).expect(200);
        const health = res.body.data;
        expect(health).toMatchObject({
          total_runs: 4,
          task_success_rate: 0.75,
          avg_performance_score: 8,
          department_cost_7d: 0.75,
          utilization_percent: 100,
        });
        // 0.5 × 75 (success) + 0.3 × 80 (quality) + 0.2 × 100 (utilisation)
        expect(health.health_score).toBeCloseTo(81.5, 2);
        const trendTotal = health.cost_trend.reduce((sum: number, p: { value: number }) => sum + p.value, 0);
        expect(trendTotal).toBeCloseTo(0.75, 4);
      });

      it('should sum every cost of the last 7 days and count every run of the last 30', async () => {
        const pm = byRole('Product Manager');
        const now = Date.now();
        const secondsAgo = (i: number): Date => new Date(now - (i + 1) * 1000);
        await seedCostRecords(t, pm.id, 2100, (i) => ({ costUsd: 1, timestamp: secondsAgo(i) }));
        await seedTaskMetrics(t, pm.id, 2100, (i) => ({
          taskId: `task-${i}`,
          startedAt: null,
          completedAt: secondsAgo(i),
        }));
        const res = await t.http.get('/api/v1/departments/product/health').set(bearer(ceo)).expect(200);
        // 2100 × 1.00 seeded here plus the 9.00 seeded by the previous test.
        expect(res.body.data).toMatchObject({ department_cost_7d: 2109, total_runs: 2100 });
      });

      it('should answer 404 for the health of an unknown department', async () => {
        const res = await t.http.get('/api/v1/departments/nope/health').set(bearer(ceo)).expect(404);
        expect(res.body.error_detail.error_code).toBe(3014);
      });
    });

    describe('ceremony policy', () => {
      const url = '/api/v1/departments/engineering/ceremony-policy';
      const policy = {
        strategy: 'hybrid',
        auto_transition: true,
        transition_threshold: 0.5,
        velocity_calculator: null,
      };
      const stored = { strategy: 'hybrid', auto_transition: true, transition_threshold: 0.5 };

      it('should be null (inherited) at first, with an ETag', async () => {
        const res = await t.http.get(url).set(bearer(ceo)).expect(200);
        expect(res.body).toEqual({ data: null, error: null, error_detail: null, success: true });
        expect(res.headers.etag).toEqual(expect.any(String));
      });

      it('should store a policy without its null keys and read it back', async () => {
        const put = await t.http.put(url).set(bearer(ceo)).send(policy).expect(200);
        expect(put.body.data).toEqual(stored);
        expect(put.headers.etag).toEqual(expect.any(String));
        const get = await t.http.get(url).set(bearer(ceo)).expect(200);
        expect(get.body.data).toEqual(stored);
        expect(get.headers.etag).toBe(put.headers.etag);
        const dept = await t.http.get('/api/v1/departments/engineering').set(bearer(ceo)).expect(200);
        expect(dept.body.data.ceremony_policy).toEqual(stored);
      });

      it('should announce the change on the departments channel', () => {
        const announced = events.filter((e) => e.channel === 'departments' && e.event_type === 'department.updated');
        expect(announced.at(-1)?.payload).toEqual({ name: 'engineering', ceremony_policy: stored });
      });

      it.each([
        ['an unknown strategy', { strategy: 'whenever' }],
        ['a zero transition threshold', { transition_threshold: 0 }],
        ['a threshold above 1', { transition_threshold: 1.5 }],
        ['an unknown key', { strategy: 'hybrid', cadence: 'weekly' }],
        ['a JSON array', [{ strategy: 'hybrid' }]],
        ['a non-boolean auto_transition', { auto_transition: 'yes' }],
      ])('should reject %s with 400 and keep the stored policy', async (_label, body) => {
        const res = await t.http.put(url).set(bearer(ceo)).send(body).expect(400);
        expect(res.body).toMatchObject({ data: null, success: false });
        expect(res.body.error_detail.error_category).toBe('validation');
        const get = await t.http.get(url).set(bearer(ceo)).expect(200);
        expect(get.body.data).toEqual(stored);
      });

      it.each([
        ['a string threshold', { transition_threshold: 'high' }],
        ['a numeric strategy', { strategy: 3 }],
        ['a string strategy_config', { strategy: 'hybrid', strategy_config: 'weekly' }],
        ['an unknown velocity calculator', { velocity_calculator: 'gut_feeling' }],
      ])('should answer a malformed body (%s) with 400 and a 2xxx code', async (_label, body) => {
        const res = await t.http.put(url).set(bearer(ceo)).send(body).expect(400);
        expect(res.body.error_detail.error_code).toBeGreaterThanOrEqual(2000);
        expect(res.body.error_detail.error_code).toBeLessThan(3000);
        expect((await t.http.get(url).set(bearer(ceo)).expect(200)).body.data).toEqual(stored);
      });

      it('should clear the policy with DELETE (204) so it reads null again', async () => {
        const del = await t.http.delete(url).set(bearer(ceo)).expect(204);
        expect(del.text).toBe('');
        const get = await t.http.get(url).set(bearer(ceo)).expect(200);
        expect(get.body.data).toBeNull();
      });

      it('should answer 409 (4002) to a stale If-Match and accept the current one', async () => {
        const read = await t.http.get(url).set(bearer(ceo)).expect(200);
        const stale = read.headers.etag;
        const first = await t.http
          .put(url)
          .set(bearer(ceo))
          .set('If-Match', stale)
          .send({ strategy: 'calendar' })
          .expect(200);
        const current = first.headers.etag;
        expect(current).not.toBe(stale);
        const conflict = await t.http
          .put(url)
          .set(bearer(ceo))
          .set('If-Match', stale)
          .send({ strategy: 'task_driven' })
          .expect(409);
        expect(conflict.body.error_detail).toMatchObject({ error_code: 4002, error_category: 'conflict' });
        expect((await t.http.get(url).set(bearer(ceo)).expect(200)).body.data).toEqual({ strategy: 'calendar' });
        await t.http.delete(url).set(bearer(ceo)).set('If-Match', stale).expect(409);
        const ok = await t.http
          .put(url)
          .set(bearer(ceo))
          .set('If-Match', current)
          .send({ strategy: 'task_driven' })
          .expect(200);
        expect(ok.body.data).toEqual({ strategy: 'task_driven' });
        await t.http.delete(url).set(bearer(ceo)).set('If-Match', ok.headers.etag).expect(204);
      });

      it('should answer 404 for an unknown department and 400 for a long name', async () => {
        await t.http.get('/api/v1/departments/nope/ceremony-policy').set(bearer(ceo)).expect(404);
        await t.http.put('/api/v1/departments/nope/ceremony-policy').set(bearer(ceo)).send({}).expect(404);
        await t.http.get(`/api/v1/departments/${LONG_NAME}/ceremony-policy`).set(bearer(ceo)).expect(400);
      });

      describe('by role', () => {
        it.each(['board_member', 'pair_programmer'])('should refuse PUT and DELETE to a %s (403)', async (role) => {
          const token = await userWithRole(t, ceo, role as 'board_member' | 'pair_programmer');
          const res = await t.http.put(url).set(bearer(token)).send(stored).expect(403);
          expect(res.body.error_detail.error_category).toBe('auth');
          await t.http.delete(url).set(bearer(token)).expect(403);
        });

        it('should let an observer read but not write (403)', async () => {
          await t.http.get(url).set(bearer(observer)).expect(200);
          await t.http.put(url).set(bearer(observer)).send(stored).expect(403);
          await t.http.delete(url).set(bearer(observer)).expect(403);
        });

        it('should let a manager change their own department only', async () => {
          const manager = await userWithRole(t, ceo, 'manager', 'eng_mgr', 'engineering');
          const own = await t.http.put(url).set(bearer(manager)).send({ strategy: 'calendar' }).expect(200);
          expect(own.body.data).toEqual({ strategy: 'calendar' });
          const other = '/api/v1/departments/product/ceremony-policy';
          await t.http.put(other).set(bearer(manager)).send({ strategy: 'calendar' }).expect(403);
          await t.http.delete(other).set(bearer(manager)).expect(403);
          expect((await t.http.get(other).set(bearer(manager)).expect(200)).body.data).toBeNull();
          await t.http.delete(url).set(bearer(manager)).expect(204);
        });

        it('should refuse a manager without a department (403)', async () => {
          const manager = await userWithRole(t, ceo, 'manager', 'floating_mgr');
          await t.http.put(url).set(bearer(manager)).send({ strategy: 'calendar' }).expect(403);
          await t.http.delete(url).set(bearer(manager)).expect(403);
        });
      });
    });

    describe('projects', () => {
      let projectId: string;

      it('should create a project in planning with the lead resolved to its agent id', async () => {
        const cto = byRole('CTO');
        const dev = agents.filter((a) => a.role === 'Full-Stack Developer')[0];
        const res = await t.http
          .post('/api/v1/projects')
          .set(bearer(ceo))
          .send({
            name: 'Launch',
            description: 'Ship the first public version',
            lead: cto.name,
            team: [otherCase(dev.name)],
            budget: 100,
            deadline: '2027-01-31',
          })
          .expect(201);
        expect(res.body).toMatchObject({ error: null, error_detail: null, success: true });
        const project = res.body.data;
        expect(project.id).toMatch(/^proj-[0-9a-f]{12}$/);
        expect(project).toMatchObject({
          name: 'Launch',
          description: 'Ship the first public version',
          status: 'planning',
          lead: cto.id,
          team: [cto.id, dev.id],
          task_ids: [],
          budget: 100,
          deadline: '2027-01-31',
        });
        projectId = project.id;
        const announced = events.find((e) => e.channel === 'projects' && e.event_type === 'project.created');
        expect(announced?.payload).toEqual({ project });
      });

      it('should refuse a duplicate name case-insensitively (409, 4001)', async () => {
        const res = await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: '  launch ' }).expect(409);
        expect(res.body.error_detail).toMatchObject({ error_code: 4001, error_category: 'conflict' });
      });

      it.each([
        ['an unknown lead', { name: 'P1', lead: 'Nobody Here' }],
        ['an unknown team member', { name: 'P2', team: ['Nobody Here'] }],
        ['a negative budget', { name: 'P3', budget: -1 }],
        ['a missing name', { description: 'no name' }],
        ['a blank name', { name: '   ' }],
        ['a malformed deadline', { name: 'P4', deadline: 'next tuesday' }],
      ])('should reject %s with 400', async (_label, body) => {
        const res = await t.http.post('/api/v1/projects').set(bearer(ceo)).send(body).expect(400);
        expect(res.body.error_detail.error_category).toBe('validation');
      });

      it('should refuse an observer (403) and a caller without a token (401)', async () => {
        await t.http.post('/api/v1/projects').set(bearer(observer)).send({ name: 'Spy' }).expect(403);
        await t.http.post('/api/v1/projects').send({ name: 'Anon' }).expect(401);
      });

      it('should list projects filtered by status and lead', async () => {
        const planning = await t.http.get('/api/v1/projects?status=planning').set(bearer(observer)).expect(200);
        expect(planning.body.data.map((p: { id: string }) => p.id)).toEqual([projectId]);
        expect(planning.body.pagination).toMatchObject({ total: 1, offset: 0 });
        const active = await t.http.get('/api/v1/projects?status=active').set(bearer(ceo)).expect(200);
        expect(active.body.data).toEqual([]);
        expect(active.body.pagination.total).toBe(0);
        const led = await t.http
          .get(`/api/v1/projects?lead=${byRole('CTO').id}`)
          .set(bearer(ceo))
          .expect(200);
        expect(led.body.data.map((p: { id: string }) => p.id)).toEqual([projectId]);
        const other = await t.http
          .get(`/api/v1/projects?lead=${byRole('CEO').id}`)
          .set(bearer(ceo))
          .expect(200);
        expect(other.body.data).toEqual([]);
      });

      it.each([
        ['an unknown status', 'status=bogus'],
        ['a 129-character status', `status=${LONG_NAME}`],
        ['a 129-character lead', `lead=${LONG_NAME}`],
        ['limit=0', 'limit=0'],
      ])('should reject %s with 400', async (_label, query) => {
        const res = await t.http.get(`/api/v1/projects?${query}`).set(bearer(ceo)).expect(400);
        expect(res.body.error_detail.error_category).toBe('validation');
      });

      it('should get a project by id and answer 404 (3003) for an unknown one', async () => {
        const res = await t.http.get(`/api/v1/projects/${projectId}`).set(bearer(observer)).expect(200);
        expect(res.body.data).toMatchObject({ id: projectId, name: 'Launch', status: 'planning' });
        const missing = await t.http.get('/api/v1/projects/proj-000000000000').set(bearer(ceo)).expect(404);
        expect(missing.body.error_detail).toMatchObject({ error_code: 3003, error_category: 'not_found' });
      });
    });
  });
});
