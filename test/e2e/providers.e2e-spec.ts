import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { ProviderEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { testBackends } from '@app/testing';

import { ProviderRegistry } from '../../apps/api/src/modules/providers/provider-registry';
import { bearer, expectError, type MockLlm, startTestApp, type TestApp } from '../support';
import { API, HIGH_LIMITS, type Json, ProvidersScene, SECRET } from './providers-scene';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// Presets, the providers' CRUD and secrets, and hot reload; calls, health and routing are in
// provider-calls.e2e-spec.ts, discovery and local models in provider-discovery.e2e-spec.ts.
describe.each(testBackends())('providers on %s', (backend) => {
  const scene = new ProvidersScene(backend);
  const { allowMockHost, createOpenAi, events } = scene;
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let observer: string;
  let pair: string;

  beforeAll(async () => {
    ({ t, mock, ceo, observer, pair } = await scene.start());
  });

  afterAll(() => scene.close());

  describe('presets', () => {
    it('should list exactly the 11 built-in presets with their capability fields', async () => {
      const res = await t.http.get(`${API}/presets`).set(bearer(observer)).expect(200);
      const presets = res.body.data as Json[];
      expect(presets.map((p) => p.name)).toEqual([
        'anthropic',
        'azure',
        'deepseek',
        'gemini',
        'groq',
        'mistral',
        'openai',
        'lm-studio',
        'ollama',
        'vllm',
        'openrouter',
      ]);
      const ollama = presets.find((p) => p.name === 'ollama') as Json;
      expect(ollama).toMatchObject({
        supported_auth_types: ['none'],
        requires_base_url: true,
        supports_model_pull: true,
        supports_model_delete: true,
        supports_model_config: true,
        candidate_urls: ['http://host.docker.internal:11434', 'http://172.17.0.1:11434', 'http://localhost:11434'],
      });
      expect(presets.find((p) => p.name === 'vllm')).toMatchObject({ candidate_urls: [], requires_base_url: true });
      expect(presets.find((p) => p.name === 'azure')).toMatchObject({ requires_base_url: true });
      expect((presets.find((p) => p.name === 'anthropic') as Json).supported_auth_types).toEqual([
        'api_key',
        'subscription',
      ]);
    });

    it('should refuse anonymous callers with 401', async () => {
      const res = await t.http.get(`${API}/presets`).expect(401);
      expectError(res.body, 1000, 'auth');
    });

    it('should answer 404 (3022) for an unknown preset and probe nothing for a preset without candidates', async () => {
      expectError(
        (await t.http.post(`${API}/probe-preset`).set(bearer(ceo)).send({ preset_name: 'nope' }).expect(404)).body,
        3022,
      );
      const res = await t.http.post(`${API}/probe-preset`).set(bearer(ceo)).send({ preset_name: 'vllm' }).expect(201);
      expect(res.body.data).toEqual({ url: null, model_count: 0, candidates_tried: 0 });
    });
  });

  describe('CRUD and secrets', () => {
    // Test calls go through the discovery allowlist, as discovery does; the mock is on loopback.
    beforeAll(() => allowMockHost());

    it('should create a provider, never return or log its secret, and store it encrypted', async () => {
      const res = await t.http
        .post(API)
        .set(bearer(ceo))
        .send({
          name: 'secretive',
          gateway_provider: 'openai',
          base_url: `${mock.url}/v1`,
          api_key: SECRET,
          models: [{ id: 'mock-small' }],
        })
        .expect(201);
      expect(res.text).not.toContain(SECRET);
      expect(res.body.data).toMatchObject({
        name: 'secretive',
        driver: 'openai_compatible',
        auth_type: 'api_key',
        has_api_key: true,
        has_subscription_token: false,
        has_oauth_credentials: false,
        has_custom_header: false,
        models: [{ id: 'mock-small', alias: null, cost_per_1k_input: 0, cost_per_1k_output: 0, max_context: 8192 }],
        degradation: { strategy: 'alert', fallback_providers: [], queue_max_wait_seconds: 300 },
      });
      for (const path of [`${API}`, `${API}/secretive`, `${API}/secretive/models`]) {
        const read = await t.http.get(path).set(bearer(ceo)).expect(200);
        expect(read.text).not.toContain(SECRET);
      }
      const row = await t.app
        .get(DatabaseService)
        .dataSource.getRepository(ProviderEntity)
        .findOneByOrFail({ name: 'secretive' });
      expect(row.secrets).toMatch(/^v1:[0-9a-f]{12}:/);
      expect(JSON.stringify(row)).not.toContain(SECRET);
      // The key really is used: a test call authenticates against the key-checking mock.
      const tested = await t.http.post(`${API}/secretive/test`).set(bearer(ceo)).send({}).expect(201);
      expect(tested.body.data).toMatchObject({ success: true, error: null, model_tested: 'mock-small' });
      await t.logging.flush();
      for (const file of filesUnder(t.logDir)) {
        expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
      }
      expect(t.consoleLines().join('\n')).not.toContain(SECRET);
      expect(events.some((e) => e.channel === 'providers' && e.event_type === 'provider.created')).toBe(true);
    });

    it('should page the list and get one by name', async () => {
      await createOpenAi('listed-a');
      await createOpenAi('listed-b');
      const page = await t.http.get(`${API}?limit=1&offset=0`).set(bearer(observer)).expect(200);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.pagination.total).toBeGreaterThanOrEqual(2);
      const one = await t.http.get(`${API}/listed-b`).set(bearer(observer)).expect(200);
      expect(one.body.data.name).toBe('listed-b');
      expectError((await t.http.get(`${API}/missing`).set(bearer(observer)).expect(404)).body, 3020, 'not_found');
    });

    it.each([
      ['an invalid name', { name: 'Bad_Name', gateway_provider: 'openai' }],
      ['a reserved name', { name: 'presets', gateway_provider: 'openai' }],
      ['an unknown auth type', { name: 'x-auth', gateway_provider: 'openai', auth_type: 'magic' }],
      ['a non-http base URL', { name: 'x-url', base_url: 'ftp://example.com' }],
      ['no endpoint at all', { name: 'x-endpoint', gateway_provider: 'somewhere' }],
      [
        'a subscription token without terms',
        { name: 'x-sub', gateway_provider: 'anthropic', auth_type: 'subscription', subscription_token: 'tok' },
      ],
      [
        'duplicate model references',
        { name: 'x-dup', gateway_provider: 'openai', models: [{ id: 'a' }, { id: 'b', alias: 'a' }] },
      ],
      [
        'a negative price',
        { name: 'x-price', gateway_provider: 'openai', models: [{ id: 'a', cost_per_1k_input: -1 }] },
      ],
      ['an unknown field', { name: 'x-field', gateway_provider: 'openai', surprise: true }],
      ['a bad degradation strategy', { name: 'x-deg', gateway_provider: 'openai', degradation: { strategy: 'panic' } }],
      [
        'a self fallback',
        {
          name: 'x-self',
          gateway_provider: 'openai',
          degradation: { strategy: 'fallback', fallback_providers: ['x-self'] },
        },
      ],
      ['a negative quota', { name: 'x-quota', gateway_provider: 'openai', quota: { requests_per_minute: -1 } }],
      ['credentials in the base URL', { name: 'x-cred', base_url: 'https://user:pw@example.com/v1' }],
      ['an auth type the preset lacks', { name: 'x-preset', preset_name: 'openai', auth_type: 'none' }],
    ])('should refuse %s with 400', async (_label, body) => {
      const res = await t.http.post(API).set(bearer(ceo)).send(body).expect(400);
      expect((res.body.error_detail as Json).error_category).toBe('validation');
      expect(String((res.body.error_detail as Json).error_code)).toMatch(/^2\d{3}$/);
    });

    it('should answer 409 (4001) for a duplicate name and 404 (3022) for an unknown preset', async () => {
      await createOpenAi('dupe');
      expectError(
        (await t.http.post(API).set(bearer(ceo)).send({ name: 'dupe', gateway_provider: 'openai' }).expect(409)).body,
        4001,
      );
      expectError(
        (await t.http.post(API).set(bearer(ceo)).send({ name: 'x-np', preset_name: 'nope' }).expect(404)).body,
        3022,
      );
    });

    it('should update fields, keep omitted ones, clear secrets on request and refuse a value with its clear flag', async () => {
      await createOpenAi('updatable');
      const res = await t.http
        .put(`${API}/updatable`)
        .set(bearer(ceo))
        .send({ family: 'gpt', degradation: { strategy: 'queue', queue_max_wait_seconds: 5 } })
        .expect(200);
      expect(res.body.data).toMatchObject({
        family: 'gpt',
        has_api_key: true,
        degradation: { strategy: 'queue', queue_max_wait_seconds: 5 },
        version: 2,
      });
      expect((res.body.data as { models: unknown[] }).models).toHaveLength(3);
      const bad = await t.http
        .put(`${API}/updatable`)
        .set(bearer(ceo))
        .send({ api_key: 'x', clear_api_key: true })
        .expect(400);
      expectError(bad.body, 2000);
      const cleared = await t.http.put(`${API}/updatable`).set(bearer(ceo)).send({ clear_api_key: true }).expect(200);
      expect(cleared.body.data.has_api_key).toBe(false);
      const sub = await t.http
        .put(`${API}/updatable`)
        .set(bearer(ceo))
        .send({ auth_type: 'subscription', subscription_token: 'plan-token', tos_accepted: true })
        .expect(200);
      expect(sub.body.data).toMatchObject({ has_subscription_token: true, auth_type: 'subscription' });
      expect(sub.body.data.tos_accepted_at).toEqual(expect.any(String));
      expect(sub.text).not.toContain('plan-token');
    });

    it('should make a change of where credentials are sent give them again or clear them (2028)', async () => {
      await createOpenAi('moving');
      const stolen = await t.http
        .put(`${API}/moving`)
        .set(bearer(pair))
        .send({ base_url: 'https://collector.example/v1' })
        .expect(400);
      expectError(stolen.body, 2028, 'validation');
      expect(stolen.body.error).toContain('api_key');
      const kept = await t.http.get(`${API}/moving`).set(bearer(ceo)).expect(200);
      expect(kept.body.data).toMatchObject({ base_url: `${mock.url}/v1`, has_api_key: true, version: 1 });
      const rekeyed = await t.http
        .put(`${API}/moving`)
        .set(bearer(pair))
        .send({ base_url: 'https://collector.example/v1', api_key: 'their-own-key' })
        .expect(200);
      expect(rekeyed.body.data).toMatchObject({ base_url: 'https://collector.example/v1', has_api_key: true });
      const back = await t.http
        .put(`${API}/moving`)
        .set(bearer(ceo))
        .send({ base_url: `${mock.url}/v1`, clear_api_key: true })
        .expect(200);
      expect(back.body.data).toMatchObject({ has_api_key: false });
      // Changes that leave the destination alone keep the stored secrets as before.
      await t.http.put(`${API}/moving`).set(bearer(ceo)).send({ api_key: SECRET }).expect(200);
      await t.http.put(`${API}/moving`).set(bearer(ceo)).send({ family: 'gpt' }).expect(200);
      const tested = await t.http.post(`${API}/moving/test`).set(bearer(ceo)).send({}).expect(201);
      expect(tested.body.data).toMatchObject({ success: true });
    });

    it('should let read-only roles read but not write, and keep the allowlist to the CEO', async () => {
      expectError((await t.http.post(API).set(bearer(observer)).send({ name: 'nope-1' }).expect(403)).body, 1001);
      expectError((await t.http.delete(`${API}/dupe`).set(bearer(observer)).expect(403)).body, 1001);
      expectError(
        (
          await t.http
            .post(`${API}/discovery-policy/entries`)
            .set(bearer(pair))
            .send({ host_port: 'a.example:1' })
            .expect(403)
        ).body,
        1001,
      );
      await t.http.get(`${API}/discovery-policy`).set(bearer(observer)).expect(200);
    });

    it('should delete a provider (204), then answer 404', async () => {
      await createOpenAi('doomed');
      await t.http.delete(`${API}/doomed`).set(bearer(ceo)).expect(204);
      expectError((await t.http.delete(`${API}/doomed`).set(bearer(ceo)).expect(404)).body, 3020);
      expect(t.app.get(ProviderRegistry).get('doomed')).toBeUndefined();
    });
  });

  describe('hot reload', () => {
    it('should keep serving calls while the provider is reconfigured, in-flight calls finishing on the old driver', async () => {
      await createOpenAi('hot');
      const registry = t.app.get(ProviderRegistry);
      const before = registry.get('hot')!;
      const generation = registry.generation;
      const traffic = Array.from({ length: 12 }, (_, i) =>
        t.http
          .post(`${API}/hot/test`)
          .set(bearer(ceo))
          .send({ model: i % 2 ? 'small' : 'mock-small' }),
      );
      const updates = Array.from({ length: 3 }, (_, i) =>
        t.http
          .put(`${API}/hot`)
          .set(bearer(ceo))
          .send({ family: `gen-${i}` }),
      );
      const inFlight = before.driver.chat({ model: 'mock-small', messages: [{ role: 'user', content: 'hello' }] });
      const results = await Promise.all([...traffic, ...updates]);
      for (const res of results.slice(0, traffic.length)) {
        expect(res.status).toBe(201);
        expect(res.body.data.success).toBe(true);
      }
      // Concurrent updates either land or lose the compare-and-set race with a clear 409.
      for (const res of results.slice(traffic.length)) {
        expect([200, 409]).toContain(res.status);
      }
      await expect(inFlight).resolves.toMatchObject({ content: 'ack: hello' });
      expect(registry.generation).toBeGreaterThan(generation);
      expect(registry.get('hot')).not.toBe(before);
    });
  });

  if (backend === 'postgres') {
    it('should reload the registry of another replica on the same database', async () => {
      const other = await startTestApp({ backend, env: HIGH_LIMITS, database: t.db });
      try {
        await createOpenAi('replicated');
        const registry = other.app.get(ProviderRegistry);
        for (let i = 0; i < 50 && !registry.get('replicated'); i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(registry.get('replicated')?.record.models.map((m) => m.id)).toContain('mock-small');
      } finally {
        await other.close();
      }
    });
  }
});
