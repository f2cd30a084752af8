import { EventBus, type ReceivedEvent } from '@app/platform';
import { testBackends } from '@app/testing';
import {
  bearer,
  expectError,
  createCompany,
  seedProvider,
  setupCeo,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

const HIGH_LIMITS = { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000', SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' };

interface SetupAgent {
  name: string;
  role: string;
  department: string;
  level: string | null;
  model_provider: string | null;
  model_id: string | null;
  tier: string;
  personality_preset: string | null;
}

describe.each(testBackends())('setup wizard on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let observer: string;
  const events: ReceivedEvent[] = [];

  const roster = async (): Promise<SetupAgent[]> => {
    const res = await t.http.get('/api/v1/setup/agents').set(bearer(ceo)).expect(200);
    expect(res.body.data.agent_count).toBe(res.body.data.agents.length);
    return res.body.data.agents as SetupAgent[];
  };
  const status = async (): Promise<Record<string, unknown>> =>
    (await t.http.get('/api/v1/setup/status').expect(200)).body.data as Record<string, unknown>;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    t.app.get(EventBus).subscribe((e) => events.push(e));
  });

  afterAll(async () => {
    await t.close();
  });

  describe('status and access', () => {
    it('should answer the public status before the CEO exists with needs_admin true', async () => {
      const res = await t.http.get('/api/v1/setup/status').expect(200);
      expect(res.body).toEqual({
        data: expect.objectContaining({ needs_admin: true, needs_setup: true }),
        error: null,
        error_detail: null,
        success: true,
      });
    });

    it('should report every flag false but needs_setup once the CEO exists', async () => {
      ceo = await setupCeo(t);
      expect(await status()).toEqual({
        needs_admin: false,
        needs_setup: true,
        has_company: false,
        has_agents: false,
        has_providers: false,
        has_name_locales: false,
        min_password_length: 12,
      });
    });

    it('should answer 401 without a token and 403 to an observer that tries to write', async () => {
      const none = await t.http.get('/api/v1/setup/templates').expect(401);
      expectError(none.body, 1000, 'auth');
      observer = await userWithRole(t, ceo, 'observer');
      const denied = await t.http
        .post('/api/v1/setup/company')
        .set(bearer(observer))
        .send({ company_name: 'Nope', template_name: 'startup' })
        .expect(403);
      expectError(denied.body, 1001, 'auth');
      expect((await status()).has_company).toBe(false);
    });

    it('should let an observer read templates and the roster', async () => {
      await t.http.get('/api/v1/setup/templates').set(bearer(observer)).expect(200);
      const agents = await t.http.get('/api/v1/setup/agents').set(bearer(observer)).expect(200);
      expect(agents.body.data).toEqual({ agents: [], agent_count: 0 });
    });

    it('should refuse to complete setup without a company (400)', async () => {
      const res = await t.http.post('/api/v1/setup/complete').set(bearer(ceo)).expect(400);
      expectError(res.body, 2000, 'validation');
      expect(res.body.error).toMatch(/no company/i);
    });
  });

  describe('company creation', () => {
    it('should create the company from the startup template with five uniquely named agents', async () => {
      const res = await t.http
        .post('/api/v1/setup/company')
        .set(bearer(ceo))
        .send({ company_name: 'Acme Labs', template_name: 'startup', variables: { budget: 75 } })
        .expect(201);
      const data = res.body.data;
      expect(data).toMatchObject({
        company_name: 'Acme Labs',
        template_applied: 'startup',
        agent_count: 5,
        department_count: 3,
      });
      const names = (data.agents as SetupAgent[]).map((a) => a.name);
      expect(names.every((n) => n.trim().length > 0)).toBe(true);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(5);
      expect((data.agents as SetupAgent[]).map((a) => a.role)).toEqual([
        'CEO',
        'CTO',
        'Full-Stack Developer',
        'Full-Stack Developer',
        'Product Manager',
      ]);
      // No provider yet: nobody has a model.
      expect((data.agents as SetupAgent[]).every((a) => a.model_provider === null && a.model_id === null)).toBe(true);
      const listed = await roster();
      expect(listed.map((a) => a.name)).toEqual(names);
      expect(await status()).toMatchObject({ has_company: true, has_agents: true, has_providers: false });
    });

    it('should replace the roster when another template is applied before completion', async () => {
      const solo = await createCompany(t, ceo, 'solo_founder', 'Acme Solo');
      expect(solo.agent_count).toBe(2);
      expect((await roster()).map((a) => a.name)).toEqual(solo.agents.map((a) => a.name));
      const departments = await t.http.get('/api/v1/departments').set(bearer(ceo)).expect(200);
      expect((departments.body.data as Array<{ name: string }>).map((d) => d.name)).toEqual([
        'executive',
        'engineering',
      ]);
    });

    it('should refuse a blank company over an existing roster (409)', async () => {
      const res = await t.http
        .post('/api/v1/setup/company')
        .set(bearer(ceo))
        .send({ company_name: 'Blank Co' })
        .expect(409);
      expectError(res.body, 4000, 'conflict');
      expect(await roster()).toHaveLength(2);
    });

    it('should accept the template name in any case and go back to the startup roster', async () => {
      const again = await createCompany(t, ceo, 'STARTUP', 'Acme Labs');
      expect(again.agent_count).toBe(5);
      expect(await roster()).toHaveLength(5);
    });

    it('should refuse to complete with a company but no provider (400 naming the provider)', async () => {
      const res = await t.http.post('/api/v1/setup/complete').set(bearer(ceo)).expect(400);
      expectError(res.body, 2000, 'validation');
      expect(res.body.error).toMatch(/provider/i);
      expect((await status()).needs_setup).toBe(true);
    });
  });

  describe('agents by index', () => {
    it('should rename an agent, findable case-insensitively under /agents', async () => {
      const res = await t.http
        .put('/api/v1/setup/agents/0/name')
        .set(bearer(ceo))
        .send({ name: '  Ada Lovelace ' })
        .expect(200);
      expect(res.body.data).toMatchObject({ name: 'Ada Lovelace', role: 'CEO' });
      const found = await t.http.get('/api/v1/agents/ada%20LOVELACE').set(bearer(ceo)).expect(200);
      expect(found.body.data.name).toBe('Ada Lovelace');
      expect((await roster())[0].name).toBe('Ada Lovelace');
    });

    it('should answer 409 (4001) for a rename onto another agent name, in any case', async () => {
      for (const name of ['Ada Lovelace', 'ADA LOVELACE']) {
        const res = await t.http.put('/api/v1/setup/agents/1/name').set(bearer(ceo)).send({ name }).expect(409);
        expectError(res.body, 4001, 'conflict');
      }
      // Renaming an agent to its own name in another case is not a conflict.
      await t.http.put('/api/v1/setup/agents/0/name').set(bearer(ceo)).send({ name: 'ada lovelace' }).expect(200);
      await t.http.put('/api/v1/setup/agents/0/name').set(bearer(ceo)).send({ name: 'Ada Lovelace' }).expect(200);
    });

    it('should answer 404 for an index past the roster and 400 for a malformed one', async () => {
      const missing = await t.http.put('/api/v1/setup/agents/99/name').set(bearer(ceo)).send({ name: 'X' }).expect(404);
      expectError(missing.body, 3013, 'not_found');
      for (const index of ['abc', '-1', '1.5']) {
        const bad = await t.http
          .put(`/api/v1/setup/agents/${index}/name`)
          .set(bearer(ceo))
          .send({ name: 'X' })
          .expect(400);
        expectError(bad.body, 2001, 'validation');
      }
      const blank = await t.http.put('/api/v1/setup/agents/0/name').set(bearer(ceo)).send({ name: '  ' }).expect(400);
      expectError(blank.body, 2001);
    });

    it('should give an agent a different random name', async () => {
      const before = (await roster())[1].name;
      const res = await t.http.post('/api/v1/setup/agents/1/randomize-name').set(bearer(ceo)).expect(200);
      expect(res.body.data.name).toEqual(expect.any(String));
      expect(res.body.data.name).not.toBe(before);
      expect((await roster())[1].name).toBe(res.body.data.name);
      await t.http.post('/api/v1/setup/agents/99/randomize-name').set(bearer(ceo)).expect(404);
    });

    it('should apply a personality preset and answer 404 for an unknown one', async () => {
      const res = await t.http
        .put('/api/v1/setup/agents/0/personality')
        .set(bearer(ceo))
        .send({ personality_preset: 'team_diplomat' })
        .expect(200);
      expect(res.body.data.personality_preset).toBe('team_diplomat');
      expect((await roster())[0].personality_preset).toBe('team_diplomat');
      const agent = await t.http.get('/api/v1/agents/Ada%20Lovelace').set(bearer(ceo)).expect(200);
      expect(agent.body.data.personality_preset).toBe('team_diplomat');
      const unknown = await t.http
        .put('/api/v1/setup/agents/0/personality')
        .set(bearer(ceo))
        .send({ personality_preset: 'grumpy_wizard' })
        .expect(404);
      expectError(unknown.body, 3019, 'not_found');
    });

    it('should answer 404 for a model of an unknown provider', async () => {
      const res = await t.http
        .put('/api/v1/setup/agents/0/model')
        .set(bearer(ceo))
        .send({ model_provider: 'nobody', model_id: 'medium-model' })
        .expect(404);
      expectError(res.body, 3020, 'not_found');
    });

    it('should set a model the seeded provider offers (by id or alias) and refuse one it does not', async () => {
      await seedProvider(t);
      expect((await status()).has_providers).toBe(true);
      const res = await t.http
        .put('/api/v1/setup/agents/0/model')
        .set(bearer(ceo))
        .send({ model_provider: 'test-provider', model_id: 'medium-model' })
        .expect(200);
      expect(res.body.data).toMatchObject({ model_provider: 'test-provider', model_id: 'medium-model' });
      const alias = await t.http
        .put('/api/v1/setup/agents/2/model')
        .set(bearer(ceo))
        .send({ model_provider: 'test-provider', model_id: 'large' })
        .expect(200);
      expect(alias.body.data).toMatchObject({ model_provider: 'test-provider', model_id: 'large-model' });
      const missing = await t.http
        .put('/api/v1/setup/agents/0/model')
        .set(bearer(ceo))
        .send({ model_provider: 'test-provider', model_id: 'gigantic-model' })
        .expect(400);
      expectError(missing.body, 2001, 'validation');
      expect((await roster())[0]).toMatchObject({ model_provider: 'test-provider', model_id: 'medium-model' });
    });
  });

  describe('adding an agent by hand', () => {
    const newAgent = {
      name: 'Grace Hopper',
      role: 'Compiler Engineer',
      model_provider: 'test-provider',
      model_id: 'small-model',
    };

    it('should require model_provider and model_id (400)', async () => {
      const res = await t.http
        .post('/api/v1/setup/agent')
        .set(bearer(ceo))
        .send({ name: 'Grace Hopper', role: 'Compiler Engineer' })
        .expect(400);
      expectError(res.body, 2001, 'validation');
      expect(res.body.error).toMatch(/model_provider/);
      expect(res.body.error).toMatch(/model_id/);
    });

    it('should answer 404 for an unknown provider', async () => {
      const res = await t.http
        .post('/api/v1/setup/agent')
        .set(bearer(ceo))
        .send({ ...newAgent, model_provider: 'nobody' })
        .expect(404);
      expectError(res.body, 3020);
    });

    it('should add the agent at the end of the roster (201)', async () => {
      const res = await t.http.post('/api/v1/setup/agent').set(bearer(ceo)).send(newAgent).expect(201);
      expect(res.body.data).toMatchObject({
        name: 'Grace Hopper',
        role: 'Compiler Engineer',
        department: 'engineering',
        level: 'mid',
        model_provider: 'test-provider',
        model_id: 'small-model',
        personality_preset: 'pragmatic_builder',
      });
      const listed = await roster();
      expect(listed).toHaveLength(6);
      expect(listed[5].name).toBe('Grace Hopper');
    });

    it('should answer 409 (4001) for a name already on the roster, in any case', async () => {
      const res = await t.http
        .post('/api/v1/setup/agent')
        .set(bearer(ceo))
        .send({ ...newAgent, name: 'GRACE HOPPER' })
        .expect(409);
      expectError(res.body, 4001, 'conflict');
      expect(await roster()).toHaveLength(6);
    });

    it('should refuse full autonomy for a junior agent (400, 2012)', async () => {
      const res = await t.http
        .post('/api/v1/setup/agent')
        .set(bearer(ceo))
        .send({ ...newAgent, name: 'Junior Dev', level: 'junior', autonomy_level: 'full' })
        .expect(400);
      expectError(res.body, 2012, 'validation');
      expect(await roster()).toHaveLength(6);
    });

    it('should leave no trace of a refused hire, not even a new department', async () => {
      const res = await t.http
        .post('/api/v1/setup/agent')
        .set(bearer(ceo))
        .send({ ...newAgent, name: 'Junior Dev', level: 'junior', autonomy_level: 'full', department: 'qa_lab' })
        .expect(400);
      expectError(res.body, 2012);
      expect(await roster()).toHaveLength(6);
      // A refused hire writes nothing: not even the department it named.
      await t.http.get('/api/v1/departments/qa_lab').set(bearer(ceo)).expect(404);
    });

    it('should create a department that does not exist yet', async () => {
      await t.http.get('/api/v1/departments/research').set(bearer(ceo)).expect(404);
      const res = await t.http
        .post('/api/v1/setup/agent')
        .set(bearer(ceo))
        .send({ ...newAgent, name: 'Marie Curie', role: 'Researcher', department: 'research' })
        .expect(201);
      expect(res.body.data.department).toBe('research');
      const dept = await t.http.get('/api/v1/departments/research').set(bearer(ceo)).expect(200);
      expect(dept.body.data.name).toBe('research');
      expect((await roster()).at(-1)?.name).toBe('Marie Curie');
    });
  });

  describe('name locales', () => {
    it('should store chosen locales and still randomize names', async () => {
      const res = await t.http
        .put('/api/v1/setup/name-locales')
        .set(bearer(ceo))
        .send({ locales: ['de_DE', 'fr_FR', 'de_DE'] })
        .expect(200);
      expect(res.body.data).toEqual({ locales: ['de_DE', 'fr_FR'] });
      const read = await t.http.get('/api/v1/setup/name-locales').set(bearer(observer)).expect(200);
      expect(read.body.data).toEqual({ locales: ['de_DE', 'fr_FR'] });
      expect((await status()).has_name_locales).toBe(true);
      const before = (await roster())[3].name;
      const renamed = await t.http.post('/api/v1/setup/agents/3/randomize-name').set(bearer(ceo)).expect(200);
      expect(renamed.body.data.name).not.toBe(before);
      expect(renamed.body.data.name.trim().length).toBeGreaterThan(0);
    });
  });

  describe('completion', () => {
    it('should complete, bootstrapping every agent onto a model', async () => {
      const before = await roster();
      expect(before.some((a) => a.model_provider === null)).toBe(true);
      const res = await t.http.post('/api/v1/setup/complete').set(bearer(ceo)).expect(200);
      expect(res.body).toEqual({
        data: { setup_complete: true, reinitialised: expect.arrayContaining(['agents.bootstrap']) },
        error: null,
        error_detail: null,
        success: true,
      });
      const after = await roster();
      expect(after).toHaveLength(before.length);
      for (const agent of after) {
        expect(agent.model_provider).toBe('test-provider');
        expect(['small-model', 'medium-model', 'large-model']).toContain(agent.model_id);
      }
      // Models chosen by hand are kept; the rest follow their tier.
      expect(after[0].model_id).toBe('medium-model');
      expect(after[1]).toMatchObject({ tier: 'large', model_id: 'large-model' });
      expect(await status()).toMatchObject({ needs_setup: false, has_company: true, has_agents: true });
    });

    it('should announce the completion', () => {
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ channel: 'company', event_type: 'company.setup_completed' }),
          expect.objectContaining({ channel: 'company', event_type: 'company.created' }),
        ]),
      );
    });

    it('should make every mutating wizard call answer 409 (4010) afterwards', async () => {
      const calls = [
        t.http.post('/api/v1/setup/company').set(bearer(ceo)).send({ company_name: 'Again', template_name: 'startup' }),
        t.http.put('/api/v1/setup/agents/0/name').set(bearer(ceo)).send({ name: 'Someone Else' }),
        t.http.post('/api/v1/setup/agents/0/randomize-name').set(bearer(ceo)),
        t.http.put('/api/v1/setup/agents/0/personality').set(bearer(ceo)).send({ personality_preset: 'eager_learner' }),
        t.http
          .put('/api/v1/setup/agents/0/model')
          .set(bearer(ceo))
          .send({ model_provider: 'test-provider', model_id: 'small-model' }),
        t.http
          .post('/api/v1/setup/agent')
          .set(bearer(ceo))
          .send({ name: 'Late Hire', role: 'Dev', model_provider: 'test-provider', model_id: 'small-model' }),
        t.http
          .put('/api/v1/setup/name-locales')
          .set(bearer(ceo))
          .send({ locales: ['en_US'] }),
        t.http.post('/api/v1/setup/complete').set(bearer(ceo)),
      ];
      for (const call of calls) {
        const res = await call;
        expect(res.status).toBe(409);
        expectError(res.body, 4010, 'conflict');
      }
      expect((await roster())[0].name).toBe('Ada Lovelace');
      const locales = await t.http.get('/api/v1/setup/name-locales').set(bearer(ceo)).expect(200);
      expect(locales.body.data.locales).toEqual(['de_DE', 'fr_FR']);
    });
  });
});
