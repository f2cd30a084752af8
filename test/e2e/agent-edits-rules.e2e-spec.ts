import { testBackends } from '@app/testing';

import { bearer, expectError } from '../support';
import { AgentEditsScene, type SceneRole } from './agent-edits-scene';

/** PATCH /agents/{agent_name}: who may edit, what is refused (400, 404, 409 with their codes) and the budget share. */
describe.each(testBackends())('agent edit rules on %s', (backend) => {
  const scene = new AgentEditsScene(backend);
  let chief: string;
  let senior: string;
  let mid: string;
  let pm: string;

  beforeAll(async () => {
    await scene.start();
    chief = scene.agents.chief.name as string;
    senior = scene.agents.senior.name as string;
    mid = scene.agents.mid.name as string;
    pm = scene.agents.pm.name as string;
  });

  afterAll(async () => {
    await scene.close();
  });

  describe('memory level', () => {
    it("should show an agent without a level of its own at the company's memory.default_level", async () => {
      const setLevel = (value: string) =>
        scene.t.http
          .put('/api/v1/settings/memory/default_level')
          .set(bearer(scene.tokens.ceo))
          .send({ value })
          .expect(200);
      try {
        await setLevel('project');
        expect((await scene.get(pm)).agent.memory.type).toBe('project');
        const listed = await scene.t.http.get('/api/v1/agents?limit=200').set(bearer(scene.tokens.ceo)).expect(200);
        const shown = (listed.body.data as { name: string; memory: { type: string } }[]).find((a) => a.name === pm);
        expect(shown?.memory.type).toBe('project');
        // Editing another memory field keeps following the default: the level is not frozen into the agent.
        await scene.patch(pm, { memory: { retention_days: 30 } }).expect(200);
        await setLevel('session');
        expect((await scene.get(pm)).agent.memory).toMatchObject({ type: 'session', retention_days: 30 });
      } finally {
        await setLevel('persistent');
      }
      expect((await scene.get(pm)).agent.memory.type).toBe('persistent');
    });
  });

  describe('who may edit', () => {
    it('should answer 401 without a token', async () => {
      const res = await scene.t.http
        .patch(`/api/v1/agents/${encodeURIComponent(senior)}`)
        .send({ memory: { type: 'none' } })
        .expect(401);
      expectError(res.body, 1000);
    });

    it.each<SceneRole>(['observer', 'pair_programmer', 'board_member'])(
      'should refuse the %s with 403 (1001)',
      async (role) => {
        const res = await scene.patch(senior, { memory: { type: 'none' } }, role).expect(403);
        expectError(res.body, 1001, 'auth');
        // No level of its own: the company's memory.default_level (persistent), as the engine applies it.
        expect((await scene.get(senior)).agent.memory.type).toBe('persistent');
      },
    );

    it("should let a manager edit their department's agents, within it", async () => {
      const res = await scene.patch(senior, { memory: { type: 'project' }, department: 'Engineering' }, 'manager');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ memory: { type: 'project' }, department: 'engineering' });
      const history = await scene.history(senior);
      expect(history.at(-1)).toMatchObject({ event_type: 'status_changed', initiated_by: 'manager' });
    });

    it("should refuse a manager another department's agent with 403 (1999)", async () => {
      for (const name of [chief, pm]) {
        const res = await scene.patch(name, { memory: { type: 'project' } }, 'manager').expect(403);
        expectError(res.body, 1999, 'auth');
      }
    });

    it('should refuse a manager moving an agent out of their department with 403 (1999), changing nothing', async () => {
      const res = await scene.patch(mid, { department: 'product', memory: { type: 'none' } }, 'manager').expect(403);
      expectError(res.body, 1999, 'auth');
      expect((await scene.get(mid)).agent).toMatchObject({ department: 'engineering', memory: { type: 'persistent' } });
    });

    it('should let the CEO edit and move any agent', async () => {
      await scene.patch(pm, { department: 'executive' }).expect(200);
      await scene.patch(pm, { department: 'product' }).expect(200);
    });
  });

  describe('what an edit refers to', () => {
    it('should answer 404 (3013) for an unknown agent', async () => {
      const res = await scene.patch('Nobody Here', { status: 'on_leave' }).expect(404);
      expectError(res.body, 3013, 'not_found');
    });

    it.each([
      { what: 'an unknown provider', body: { model: { provider: 'nowhere', model_id: 'mock-small' } }, code: 2999 },
      {
        what: 'a model the provider does not offer',
        body: { model: { provider: 'mock', model_id: 'gpt-x' } },
        code: 2998,
      },
      { what: "a model the agent's provider does not offer", body: { model: { model_id: 'gpt-x' } }, code: 2998 },
      { what: 'an unknown fallback model', body: { model: { fallback_model: 'gpt-x' } }, code: 2998 },
      { what: 'an unknown department', body: { department: 'Marketing' }, code: 2997 },
      { what: 'an unknown personality preset', body: { personality_preset: 'grumpy_wizard' }, code: 2996 },
    ])('should refuse $what with 400 ($code), changing nothing', async ({ body, code }) => {
      // The agent has a provider, so a bare model id is judged against it.
      await scene.patch(mid, { model: { provider: 'mock', model_id: 'small' } }).expect(200);
      const before = await scene.get(mid);
      const res = await scene.patch(mid, body).expect(400);
      expectError(res.body, code, 'validation');
      expect(await scene.get(mid)).toEqual(before);
    });

    it('should refuse a rename onto another agent name, in any case, with 409 (4001)', async () => {
      // Another case of the same name; generated names may hold letters whose upper case does not lower
      // back to them (ß → SS), which are then another name, so those are tried in lower case.
      const sameName =
        senior.toUpperCase().toLowerCase() === senior.toLowerCase() ? senior.toUpperCase() : senior.toLowerCase();
      const res = await scene.patch(mid, { name: sameName }).expect(409);
      expectError(res.body, 4001, 'conflict');
      expect((await scene.get(mid)).agent.name).toBe(mid);
    });

    it('should refuse a status an edit does not set with 400 (2001) before anything', async () => {
      for (const status of ['terminated', 'onboarding', 'retired']) {
        const res = await scene.patch(mid, { status }).expect(400);
        expectError(res.body, 2001, 'validation');
      }
    });

    it('should refuse leave and return for an onboarding agent with 409 (4998)', async () => {
      await scene.setStatus(scene.agents.cto.id as string, 'onboarding');
      const res = await scene.patch(scene.agents.cto.name as string, { status: 'on_leave' }).expect(409);
      expectError(res.body, 4998, 'conflict');
      await scene.setStatus(scene.agents.cto.id as string, 'active');
    });

    it('should refuse every edit of a terminated agent with 409 (4999), even an empty one', async () => {
      await scene.setStatus(scene.agents.cto.id as string, 'terminated');
      for (const body of [{ status: 'active' }, { model: { temperature: 1 } }, {}]) {
        const res = await scene.patch(scene.agents.cto.name as string, body).expect(409);
        expectError(res.body, 4999, 'conflict');
      }
      expect((await scene.get(scene.agents.cto.name as string)).agent.status).toBe('terminated');
      await scene.setStatus(scene.agents.cto.id as string, 'active');
    });
  });

  describe('bad bodies', () => {
    it.each<[string, unknown]>([
      ['an unknown field', { nickname: 'x' }],
      ['an unknown field in a group', { model: { provider: 'mock', colour: 'red' } }],
      ['an unknown personality field', { personality: { charisma: 0.9 } }],
      ['a personality value out of range', { personality: { openness: 2 } }],
      ['a blank name', { name: '   ' }],
      ['an empty name', { name: '' }],
      ['a name too long', { name: 'x'.repeat(129) }],
      ['null for a field nothing clears', { name: null }],
      ['null for a group', { model: null }],
      ['null for a list', { tools: { allowed: null } }],
      ['a group that is not an object', { memory: 'persistent' }],
      ['a group that is a list', { tools: ['send_message'] }],
      ['a temperature out of range', { model: { temperature: 2.5 } }],
      ['max tokens that are not an integer', { model: { max_tokens: 10.5 } }],
      ['an unknown access level', { tools: { access_level: 'root' } }],
      ['a tool list of numbers', { tools: { allowed: [1, 2] } }],
      ['an unknown memory level', { memory: { type: 'forever' } }],
      ['retention of zero days', { memory: { retention_days: 0 } }],
      ['a negative budget limit', { budget_limit_monthly: -1 }],
      ['a budget limit as text', { budget_limit_monthly: '100' }],
      ['a negative authority budget', { authority: { budget_limit: -5 } }],
      ['a list body', [{ status: 'on_leave' }]],
    ])('should refuse %s with 400', async (_what, body) => {
      const res = await scene.patch(mid, body).expect(400);
      expect(res.body.error_detail.error_category).toBe('validation');
      expect(String(res.body.error_detail.error_code)).toMatch(/^20\d\d$/);
    });

    it('should refuse malformed JSON and a path name over 128 characters with 400', async () => {
      const malformed = await scene.t.http
        .patch(`/api/v1/agents/${encodeURIComponent(mid)}`)
        .set(bearer(scene.tokens.ceo))
        .set('Content-Type', 'application/json')
        .send('{"status": ')
        .expect(400);
      expect(malformed.body.error_detail.error_category).toBe('validation');
      await scene.patch('x'.repeat(129), { status: 'on_leave' }).expect(400);
    });
  });

  describe("the department's budget share", () => {
    beforeAll(async () => {
      // Engineering may spend 60% of 1000, product 20%.
      await scene.setting('budget', 'total_monthly', '1000');
    });

    afterAll(async () => {
      await scene.setting('budget', 'total_monthly', '0');
    });

    it("should let the engineering agents' monthly limits add up to the department's share, not past it", async () => {
      await scene.patch(senior, { budget_limit_monthly: 400 }).expect(200);
      const over = await scene.patch(mid, { budget_limit_monthly: 200.01 }).expect(409);
      expectError(over.body, 6999, 'budget_exhausted');
      expect(over.body.error).toContain('200.00 is left');
      expect((await scene.get(mid)).agent.budget_limit_monthly).toBeNull();
      await scene.patch(mid, { budget_limit_monthly: 200 }).expect(200);
      // Lowering a limit always fits.
      await scene.patch(senior, { budget_limit_monthly: 300 }).expect(200);
    });

    it('should judge a moved agent against the department it moves into', async () => {
      // Product's share is 200: the senior developer's 300 does not fit there.
      const res = await scene.patch(senior, { department: 'product' }).expect(409);
      expectError(res.body, 6999, 'budget_exhausted');
      expect((await scene.get(senior)).agent.department).toBe('engineering');
      await scene.patch(senior, { department: 'product', budget_limit_monthly: 150 }).expect(200);
      const pmOver = await scene.patch(pm, { budget_limit_monthly: 50.5 }).expect(409);
      expectError(pmOver.body, 6999);
      await scene.patch(pm, { budget_limit_monthly: 50 }).expect(200);
    });

    it('should let a limit go down, and other edits through, once the share is cut below what is held', async () => {
      // Engineering's share becomes 150 while the mid developer alone holds 200.
      await scene.setting('budget', 'total_monthly', '250');
      await scene.patch(mid, { memory: { type: 'none' }, department: 'engineering' }).expect(200);
      await scene.patch(mid, { budget_limit_monthly: 180 }).expect(200);
      const up = await scene.patch(mid, { budget_limit_monthly: 190 }).expect(409);
      expectError(up.body, 6999, 'budget_exhausted');
      await scene.setting('budget', 'total_monthly', '1000');
    });

    it('should not count terminated agents against the share', async () => {
      await scene.setStatus(scene.agents.senior.id as string, 'terminated');
      await scene.patch(pm, { budget_limit_monthly: 200 }).expect(200);
      await scene.setStatus(scene.agents.senior.id as string, 'active');
    });
  });
});
