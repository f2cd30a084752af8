import { testBackends } from '@app/testing';
import { bearer, expectError, setupCeo, startTestApp, type TestApp, userWithRole } from '../support';

const HIGH_LIMITS = { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000', SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' };

const TEMPLATE_NAMES = [
  'agency',
  'dev_shop',
  'full_company',
  'product_team',
  'research_lab',
  'solo_founder',
  'startup',
];

// The wizard's reference data and the requests it refuses, before any company exists; the wizard's
// own steps, in order, are in setup.e2e-spec.ts.
describe.each(testBackends())('setup reference data and refused requests on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let observer: string;

  const status = async (): Promise<Record<string, unknown>> =>
    (await t.http.get('/api/v1/setup/status').expect(200)).body.data as Record<string, unknown>;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    ceo = await setupCeo(t);
    observer = await userWithRole(t, ceo, 'observer');
  });

  afterAll(async () => {
    await t.close();
  });

  describe('templates', () => {
    it('should list the seven built-in templates with their variables', async () => {
      const res = await t.http.get('/api/v1/setup/templates').set(bearer(ceo)).expect(200);
      const templates = res.body.data as Array<Record<string, unknown>>;
      expect(templates.map((tpl) => tpl.name).sort()).toEqual(TEMPLATE_NAMES);
      for (const tpl of templates) {
        expect(tpl.display_name).toEqual(expect.any(String));
        expect((tpl.display_name as string).length).toBeGreaterThan(0);
        const variables = (tpl.variables as Array<{ name: string }>).map((v) => v.name);
        expect(variables).toEqual(expect.arrayContaining(['company_name', 'budget']));
        expect(tpl.agent_count).toBeGreaterThan(0);
        expect(tpl.autonomy_level).toBe('semi');
      }
      const startup = templates.find((tpl) => tpl.name === 'startup');
      expect(startup).toMatchObject({ agent_count: 5, department_count: 3, source: 'builtin' });
    });

    it('should show one template in full: the departments and agents it would set up', async () => {
      const res = await t.http.get('/api/v1/setup/templates/startup').set(bearer(ceo)).expect(200);
      const detail = res.body.data as {
        agent_count: number;
        department_count: number;
        budget_monthly: number;
        departments: Array<{ name: string; budget_percent: number; head_role: string | null }>;
        agents: Array<{ role: string; department: string; level: string; model_tier: string }>;
      };
      expect(detail).toMatchObject({ name: 'startup', source: 'builtin' });
      expect(detail.departments).toHaveLength(detail.department_count);
      expect(detail.agents).toHaveLength(detail.agent_count);
      expect(detail.budget_monthly).toBeGreaterThan(0);
      const departments = new Set(detail.departments.map((d) => d.name));
      for (const agent of detail.agents) {
        expect(departments.has(agent.department)).toBe(true);
        expect(agent).toMatchObject({ role: expect.any(String), level: expect.any(String) });
      }
      // Reading a template creates nothing.
      const status = await t.http.get('/api/v1/setup/status').expect(200);
      expect(status.body.data).toMatchObject({ has_company: false, has_agents: false });
      expectError((await t.http.get('/api/v1/setup/templates/moon_base').set(bearer(ceo)).expect(404)).body, 3021);
      await t.http.get('/api/v1/setup/templates/startup').expect(401);
    });
  });

  describe('company creation', () => {
    it.each([
      ['an empty body', {}],
      ['a 201-character company name', { company_name: 'x'.repeat(201), template_name: 'startup' }],
      ['a blank company name', { company_name: '   ', template_name: 'startup' }],
      ['an unknown field', { company_name: 'Acme', template_name: 'startup', colour: 'red' }],
      ['variables without a template', { company_name: 'Acme', variables: { budget: 10 } }],
      ['a variable of the wrong type', { company_name: 'Acme', template_name: 'startup', variables: { budget: 'x' } }],
      ['an unknown variable', { company_name: 'Acme', template_name: 'startup', variables: { nope: 1 } }],
      ['a negative budget', { company_name: 'Acme', template_name: 'startup', variables: { budget: -1 } }],
    ])('should answer 400 (2001) for %s', async (_label, body) => {
      const res = await t.http.post('/api/v1/setup/company').set(bearer(ceo)).send(body).expect(400);
      expectError(res.body, 2001, 'validation');
    });

    it('should answer 404 for an unknown template', async () => {
      const res = await t.http
        .post('/api/v1/setup/company')
        .set(bearer(ceo))
        .send({ company_name: 'Acme', template_name: 'moon_base' })
        .expect(404);
      expectError(res.body, 3021, 'not_found');
      expect((await status()).has_company).toBe(false);
    });
  });

  describe('name locales', () => {
    it('should list the available locales by region with display names', async () => {
      const res = await t.http.get('/api/v1/setup/name-locales/available').set(bearer(observer)).expect(200);
      const { regions, display_names: displayNames } = res.body.data as {
        regions: Record<string, string[]>;
        display_names: Record<string, string>;
      };
      expect(Object.keys(regions).length).toBeGreaterThan(0);
      for (const codes of Object.values(regions)) {
        expect(Array.isArray(codes)).toBe(true);
        for (const code of codes) {
          expect(displayNames[code]).toEqual(expect.any(String));
        }
      }
      expect(Object.values(regions).flat()).toEqual(expect.arrayContaining(['de_DE', 'fr_FR', 'en_US']));
    });

    it('should default to all locales', async () => {
      const res = await t.http.get('/api/v1/setup/name-locales').set(bearer(ceo)).expect(200);
      expect(res.body.data).toEqual({ locales: ['__all__'] });
    });

    it.each([
      ['an unknown code', ['xx_XX']],
      ['an empty list', []],
      ['the sentinel mixed with a code', ['__all__', 'de_DE']],
    ])('should answer 400 (2001) for %s', async (_label, locales) => {
      const res = await t.http.put('/api/v1/setup/name-locales').set(bearer(ceo)).send({ locales }).expect(400);
      expectError(res.body, 2001, 'validation');
      expect((await status()).has_name_locales).toBe(false);
    });
  });
});
