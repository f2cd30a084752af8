import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type { Response } from 'superagent';

import { ProviderCallEntity, ProviderEntity } from '@app/persistence';
import { DatabaseService, EventBus, type ReceivedEvent } from '@app/platform';
import { testBackends } from '@app/testing';
import {
  bearer,
  expectError,
  type MockLlm,
  setupCeo,
  startMockLlm,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

import { findPreset } from '@app/domain';

import { DiscoveryService } from '../../apps/api/src/modules/providers/discovery/discovery.service';
import { LocalHealthProber } from '../../apps/api/src/modules/providers/local-health.prober';
import { ModelRouter } from '../../apps/api/src/modules/providers/model-router';
import { ProviderQuotas } from '../../apps/api/src/modules/providers/provider-quotas';
import { ProviderRegistry } from '../../apps/api/src/modules/providers/provider-registry';

// The address checks stay on here (test apps turn them off for the loopback fake provider).
const HIGH_LIMITS = {
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000',
  SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'true',
};
const SECRET = 'sk-live-DO-NOT-LEAK-7f3a9c2e1b';
const API = '/api/v1/providers';

type Json = Record<string, unknown>;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Keeps a streamed response body as text (supertest otherwise leaves event streams unparsed). */
function rawText(response: Response, callback: (error: Error | null, body: string) => void): void {
  let text = '';
  const stream = response as unknown as NodeJS.ReadableStream;
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  stream.on('end', () => callback(null, text));
}

/** Parses a server-sent event stream into (event, data) pairs. */
function sseFrames(text: string): { event: string; data: Json }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '{}';
      return { event, data: JSON.parse(data) as Json };
    });
}

describe.each(testBackends())('providers on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let observer: string;
  let pair: string;
  const events: ReceivedEvent[] = [];

  beforeAll(async () => {
    mock = await startMockLlm({ apiKey: SECRET, pullStepDelayMs: 1 });
    t = await startTestApp({ backend, env: { ...HIGH_LIMITS, SYNTHORG_ROUTING_STRATEGY: 'smart' } });
    t.app.get(EventBus).subscribe((e) => events.push(e));
    ceo = await setupCeo(t);
    observer = await userWithRole(t, ceo, 'observer');
    pair = await userWithRole(t, ceo, 'pair_programmer');
  });

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const mockHostPort = () => new URL(mock.url).host;

  async function createOpenAi(name: string, extra: Json = {}): Promise<Json> {
    const res = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({
        name,
        gateway_provider: 'openai',
        base_url: `${mock.url}/v1`,
        api_key: SECRET,
        models: [
          { id: 'mock-small', alias: 'small', cost_per_1k_input: 0.5, cost_per_1k_output: 1.5, max_context: 8000 },
          { id: 'mock-error-429', cost_per_1k_input: 0, cost_per_1k_output: 0, max_context: 8000 },
          { id: 'mock-error-500', cost_per_1k_input: 0, cost_per_1k_output: 0, max_context: 8000 },
        ],
        ...extra,
      })
      .expect(201);
    return res.body.data as Json;
  }

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
    beforeAll(async () => {
      // Test calls go through the discovery allowlist, as discovery does; the mock is on loopback.
      await t.http
        .post(`${API}/discovery-policy/entries`)
        .set(bearer(ceo))
        .send({ host_port: mockHostPort() })
        .expect(201);
    });

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

  describe('test, models and health', () => {
    it('should report success with latency, and failures with their 7xxx codes', async () => {
      await createOpenAi('probed');
      const ok = await t.http.post(`${API}/probed/test`).set(bearer(ceo)).send({ model: 'small' }).expect(201);
      expect(ok.body.data).toMatchObject({ success: true, error: null, error_code: null, model_tested: 'small' });
      expect(ok.body.data.latency_ms).toEqual(expect.any(Number));
      const limited = await t.http
        .post(`${API}/probed/test`)
        .set(bearer(ceo))
        .send({ model: 'mock-error-429' })
        .expect(201);
      expect(limited.body.data).toMatchObject({ success: false, error_code: 7010 });
      const broken = await t.http
        .post(`${API}/probed/test`)
        .set(bearer(ceo))
        .send({ model: 'mock-error-500' })
        .expect(201);
      expect(broken.body.data).toMatchObject({ success: false, error_code: 7003 });
      await t.http.put(`${API}/probed`).set(bearer(ceo)).send({ api_key: 'wrong-key' }).expect(200);
      const denied = await t.http.post(`${API}/probed/test`).set(bearer(ceo)).send({}).expect(201);
      expect(denied.body.data).toMatchObject({ success: false, error_code: 7004 });
      expect(denied.body.data.error).toEqual(expect.any(String));
    });

    it('should derive health states from the recorded calls of the last 24 hours', async () => {
      await createOpenAi('healthy');
      const unknown = await t.http.get(`${API}/healthy/health`).set(bearer(observer)).expect(200);
      expect(unknown.body.data).toMatchObject({
        health_status: 'unknown',
        calls_last_24h: 0,
        avg_response_time_ms: null,
        last_check_timestamp: null,
      });
      const calls = t.app.get(DatabaseService).dataSource.getRepository(ProviderCallEntity);
      const seed = async (provider: string, ok: number, failed: number, at = new Date()) => {
        const rows = Array.from({ length: ok + failed }, (_, i) => ({
          id: `${provider}-${i}-${at.getTime()}`,
          provider,
          model: 'mock-small',
          kind: 'chat',
          startedAt: at,
          latencyMs: 100,
          success: i < ok,
          errorCode: i < ok ? null : 7003,
          inputTokens: 10,
          outputTokens: 5,
          cost: 0.001,
        }));
        await calls.insert(rows);
      };
      const table: [string, number, number, string][] = [
        ['up-p', 10, 0, 'up'],
        ['deg-p', 9, 1, 'degraded'],
        ['down-p', 5, 5, 'down'],
      ];
      for (const [name, ok, failed, status] of table) {
        await createOpenAi(name);
        await seed(name, ok, failed);
        // Calls older than the window do not count.
        await seed(name, 0, 50, new Date(Date.now() - 25 * 3600 * 1000));
        const res = await t.http.get(`${API}/${name}/health`).set(bearer(observer)).expect(200);
        expect(res.body.data).toMatchObject({
          health_status: status,
          calls_last_24h: ok + failed,
          error_rate_percent_24h: (failed / (ok + failed)) * 100,
          avg_response_time_ms: 100,
          total_tokens_24h: 15 * (ok + failed),
        });
        expect(res.body.data.total_cost_24h).toBeCloseTo(0.001 * (ok + failed), 6);
      }
      // Real calls are recorded too.
      await t.http.post(`${API}/healthy/test`).set(bearer(ceo)).send({}).expect(201);
      const after = await t.http.get(`${API}/healthy/health`).set(bearer(observer)).expect(200);
      expect(after.body.data).toMatchObject({ health_status: 'up', calls_last_24h: 1 });
      expect(after.body.data.total_cost_24h).toBeGreaterThan(0);
    });

    it('should list models with capability defaults for a driver that cannot report them', async () => {
      await createOpenAi('caps');
      const res = await t.http.get(`${API}/caps/models`).set(bearer(observer)).expect(200);
      expect(res.body.data[0]).toMatchObject({
        id: 'mock-small',
        supports_tools: false,
        supports_vision: false,
        supports_streaming: true,
      });
    });
  });

  describe('discovery safety', () => {
    beforeAll(async () => {
      await t.http
        .post(`${API}/discovery-policy/remove-entry`)
        .set(bearer(ceo))
        .send({ host_port: mockHostPort() })
        .expect(201);
    });

    it('should refuse loopback discovery until the host:port is allowlisted, then add the models', async () => {
      const local = { name: 'local-oa', gateway_provider: 'openai', api_key: SECRET, base_url: `${mock.url}/v1` };
      // Refused where the mistake is made: at creation, naming the host:port and the call that trusts it.
      const atCreation = await t.http.post(API).set(bearer(ceo)).send(local).expect(400);
      expectError(atCreation.body, 2014);
      expect(String(atCreation.body.error)).toContain(mockHostPort());
      expect(String(atCreation.body.error)).toContain('/providers/discovery-policy/entries');
      // Trusted in the same request, then withdrawn: the calls themselves are refused again.
      await t.http
        .post(API)
        .set(bearer(ceo))
        .send({ ...local, trust_address: true })
        .expect(201);
      await t.http
        .post(`${API}/discovery-policy/remove-entry`)
        .set(bearer(ceo))
        .send({ host_port: mockHostPort() })
        .expect(201);
      const refused = await t.http.post(`${API}/local-oa/discover-models`).set(bearer(ceo)).expect(400);
      expectError(refused.body, 2014);
      expect(String(refused.body.error)).toContain(mockHostPort());

      const policy = await t.http
        .post(`${API}/discovery-policy/entries`)
        .set(bearer(ceo))
        .send({ host_port: mockHostPort() })
        .expect(201);
      expect(policy.body.data.host_port_allowlist).toContain(mockHostPort());
      expect(policy.body.data).toMatchObject({ block_private_ips: true });

      const found = await t.http.post(`${API}/local-oa/discover-models`).set(bearer(ceo)).expect(201);
      expect(found.body.data).toEqual({
        provider_name: 'local-oa',
        discovered_models: ['mock-small', 'mock-medium', 'mock-large'],
      });
      const provider = await t.http.get(`${API}/local-oa`).set(bearer(ceo)).expect(200);
      expect((provider.body.data.models as Json[]).map((m) => m.id)).toEqual([
        'mock-small',
        'mock-medium',
        'mock-large',
      ]);

      await t.http
        .post(`${API}/discovery-policy/remove-entry`)
        .set(bearer(ceo))
        .send({ host_port: mockHostPort() })
        .expect(201);
      expectError((await t.http.post(`${API}/local-oa/discover-models`).set(bearer(ceo)).expect(400)).body, 2014);
    });

    it('should hold the runtime’s own calls (agents, health probes) to the same checks, sending nothing', async () => {
      const registry = t.app.get(ProviderRegistry);
      await registry.reload();
      const sent = mock.requests.length;
      const call = (): Promise<unknown> =>
        registry.get('local-oa')!.driver.chat({ model: 'mock-small', messages: [{ role: 'user', content: 'hi' }] });
      await expect(call()).rejects.toThrow(`refused to connect to ${mockHostPort()}`);
      await expect(registry.get('local-oa')!.driver.listModels()).rejects.toThrow(mockHostPort());
      expect(mock.requests.length).toBe(sent);

      // The allowlist is read per call: no reload needed for the entry to apply, or to be withdrawn.
      await t.http
        .post(`${API}/discovery-policy/entries`)
        .set(bearer(ceo))
        .send({ host_port: mockHostPort() })
        .expect(201);
      await expect(call()).resolves.toMatchObject({ content: expect.any(String) });
      await t.http
        .post(`${API}/discovery-policy/remove-entry`)
        .set(bearer(ceo))
        .send({ host_port: mockHostPort() })
        .expect(201);
      await expect(call()).rejects.toThrow(mockHostPort());
    });

    it('should refuse a test call to a loopback or metadata address as discovery does (2014)', async () => {
      const loopback = await t.http.post(`${API}/local-oa/test`).set(bearer(ceo)).send({}).expect(400);
      expectError(loopback.body, 2014);
      const models = [{ id: 'm', cost_per_1k_input: 0, cost_per_1k_output: 0, max_context: 1000 }];
      const metadataUrl = 'http://169.254.169.254/v1';
      const metadata = await t.http
        .post(API)
        .set(bearer(ceo))
        .send({ name: 'metadata-test', gateway_provider: 'openai', api_key: SECRET, base_url: metadataUrl, models })
        .expect(400);
      expectError(metadata.body, 2014);
      expect(String(metadata.body.error)).toContain('169.254.169.254:80');
    });

    it('should seed the allowlist with the local presets and refuse malformed entries', async () => {
      const res = await t.http.get(`${API}/discovery-policy`).set(bearer(observer)).expect(200);
      expect(res.body.data.host_port_allowlist).toEqual(
        expect.arrayContaining(['localhost:11434', 'localhost:1234', 'host.docker.internal:11434', '172.17.0.1:11434']),
      );
      expect(res.body.data.entry_count).toBe((res.body.data.host_port_allowlist as string[]).length);
      for (const host_port of ['no-port', 'http://x:1', 'a b:1', 'x:99999']) {
        expectError(
          (await t.http.post(`${API}/discovery-policy/entries`).set(bearer(ceo)).send({ host_port }).expect(400)).body,
          2000,
        );
      }
    });

    it('should refuse metadata and private addresses given as IP literals', async () => {
      for (const [name, url] of [
        ['meta-p', 'http://169.254.169.254/v1'],
        ['priv-p', 'http://10.1.2.3:8080/v1'],
        ['mapped-p', 'http://[::ffff:127.0.0.1]:9/v1'],
      ]) {
        const refused = await t.http
          .post(API)
          .set(bearer(ceo))
          .send({ name, auth_type: 'none', gateway_provider: 'openai', base_url: url })
          .expect(400);
        expectError(refused.body, 2014);
        await t.http.get(`${API}/${name}`).set(bearer(ceo)).expect(404);
      }
    });
  });

  describe('local models (Ollama protocol)', () => {
    beforeAll(async () => {
      await t.http
        .post(`${API}/discovery-policy/entries`)
        .set(bearer(ceo))
        .send({ host_port: mockHostPort() })
        .expect(201);
    });

    it('should create from the ollama preset and discover its models automatically', async () => {
      const res = await t.http
        .post(`${API}/from-preset`)
        .set(bearer(ceo))
        .send({ preset_name: 'ollama', name: 'local-llama', base_url: mock.url })
        .expect(201);
      expect(res.body.data).toMatchObject({
        name: 'local-llama',
        preset_name: 'ollama',
        driver: 'ollama',
        auth_type: 'none',
        supports_model_pull: true,
      });
      expect((res.body.data.models as Json[]).map((m) => m.id)).toEqual(mock.models());
      const models = await t.http.get(`${API}/local-llama/models`).set(bearer(observer)).expect(200);
      expect(models.body.data[0]).toMatchObject({ supports_tools: true, supports_streaming: true });
    });

    it('should stream pull progress as server-sent events and add the model', async () => {
      const res = await t.http
        .post(`${API}/local-llama/models/pull`)
        .set(bearer(ceo))
        .send({ model_name: 'llama3.2:1b' })
        .buffer(true)
        .parse(rawText)
        .expect(200);
      expect(res.headers['content-type']).toContain('text/event-stream');
      const frames = sseFrames(res.body as string);
      expect(frames.length).toBeGreaterThan(3);
      const last = frames.at(-1)!;
      expect(last).toMatchObject({ event: 'message', data: { status: 'success', done: true, error: null } });
      const downloading = frames.filter((f) => typeof f.data.progress_percent === 'number' && f.data.done === false);
      expect(downloading.length).toBeGreaterThan(0);
      for (const frame of frames) {
        expect(Object.keys(frame.data).sort()).toEqual(
          ['completed_bytes', 'done', 'error', 'progress_percent', 'status', 'total_bytes'].sort(),
        );
      }
      const provider = await t.http.get(`${API}/local-llama`).set(bearer(ceo)).expect(200);
      expect((provider.body.data.models as Json[]).map((m) => m.id)).toContain('llama3.2:1b');
    });

    it('should end a failed pull with an error event', async () => {
      const res = await t.http
        .post(`${API}/local-llama/models/pull`)
        .set(bearer(ceo))
        .send({ model_name: 'mock-missing' })
        .buffer(true)
        .parse(rawText)
        .expect(200);
      const last = sseFrames(res.body as string).at(-1)!;
      expect(last.event).toBe('error');
      expect(last.data).toMatchObject({ done: true, status: 'error' });
      expect(String(last.data.error)).toMatch(/file does not exist|ended without success/);
    });

    it('should set launch parameters within their ranges', async () => {
      const ok = await t.http
        .put(`${API}/local-llama/models/mock-small/config`)
        .set(bearer(ceo))
        .send({ local_params: { num_ctx: 4096, num_threads: 4, repeat_penalty: 1.1 } })
        .expect(200);
      expect(ok.body.data).toMatchObject({
        id: 'mock-small',
        local_params: { num_ctx: 4096, num_threads: 4, repeat_penalty: 1.1, num_gpu_layers: null, num_batch: null },
      });
      for (const local_params of [
        { num_ctx: 1 },
        { num_threads: 0 },
        { repeat_penalty: 9 },
        { bogus: 1 },
        { num_batch: 1.5 },
      ]) {
        const res = await t.http
          .put(`${API}/local-llama/models/mock-small/config`)
          .set(bearer(ceo))
          .send({ local_params })
          .expect(400);
        expect((res.body.error_detail as Json).error_category).toBe('validation');
      }
      expectError(
        (
          await t.http
            .put(`${API}/local-llama/models/unknown/config`)
            .set(bearer(ceo))
            .send({ local_params: {} })
            .expect(404)
        ).body,
        3011,
      );
    });

    it('should delete a local model (a slash percent-encoded) and 404 an unknown one', async () => {
      await t.http.delete(`${API}/local-llama/models/mock-large`).set(bearer(ceo)).expect(204);
      expect(mock.models()).not.toContain('mock-large');
      const provider = await t.http.get(`${API}/local-llama`).set(bearer(ceo)).expect(200);
      expect((provider.body.data.models as Json[]).map((m) => m.id)).not.toContain('mock-large');
      expectError(
        (
          await t.http
            .delete(`${API}/local-llama/models/${encodeURIComponent('no/such')}`)
            .set(bearer(ceo))
            .expect(404)
        ).body,
        3011,
      );
    });

    it('should refuse local-model operations on providers whose preset does not support them (2013)', async () => {
      await createOpenAi('cloud-ish');
      expectError(
        (await t.http.post(`${API}/cloud-ish/models/pull`).set(bearer(ceo)).send({ model_name: 'x' }).expect(400)).body,
        2013,
      );
      expectError((await t.http.delete(`${API}/cloud-ish/models/mock-small`).set(bearer(ceo)).expect(400)).body, 2013);
      expectError(
        (
          await t.http
            .put(`${API}/cloud-ish/models/mock-small/config`)
            .set(bearer(ceo))
            .send({ local_params: {} })
            .expect(400)
        ).body,
        2013,
      );
      expectError(
        (
          await t.http
            .post(`${API}/local-llama/models/pull`)
            .set(bearer(ceo))
            .send({ model_name: 'bad name!' })
            .expect(400)
        ).body,
        2001,
      );
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

  describe('background probing and preset probe timeout', () => {
    it('should probe every local provider in one round and record the calls', async () => {
      const before = await t.http.get(`${API}/local-llama/health`).set(bearer(observer)).expect(200);
      const probed = await t.app.get(LocalHealthProber).probeAll();
      expect(probed).toBeGreaterThanOrEqual(1);
      const after = await t.http.get(`${API}/local-llama/health`).set(bearer(observer)).expect(200);
      expect(after.body.data.calls_last_24h).toBe((before.body.data.calls_last_24h as number) + 1);
    });

    if (backend === 'sqlite') {
      it('should give up on a hanging candidate after 5 seconds and take the next reachable one', async () => {
        const second = await startMockLlm();
        try {
          await t.http
            .post(`${API}/discovery-policy/entries`)
            .set(bearer(ceo))
            .send({ host_port: new URL(second.url).host })
            .expect(201);
          mock.enqueue({ route: 'models', kind: 'hang' });
          const started = Date.now();
          const result = await t.app
            .get(DiscoveryService)
            .probeCandidates(findPreset('ollama')!, [mock.url, second.url]);
          const elapsed = Date.now() - started;
          expect(result).toEqual({ url: second.url, model_count: 3, candidates_tried: 2 });
          expect(elapsed).toBeGreaterThanOrEqual(4900);
          expect(elapsed).toBeLessThan(9000);
        } finally {
          await second.close();
        }
      }, 20_000);
    }
  });

  describe('routing and quota degradation', () => {
    const shared = (cost: number) => [
      { id: 'shared-model', cost_per_1k_input: cost, cost_per_1k_output: cost, max_context: 8000 },
    ];

    beforeAll(async () => {
      await t.http
        .post(API)
        .set(bearer(ceo))
        .send({
          name: 'route-a',
          gateway_provider: 'openai',
          base_url: `${mock.url}/v1`,
          models: shared(1),
          quota: { requests_per_minute: 1 },
          degradation: { strategy: 'fallback', fallback_providers: ['route-b'] },
        })
        .expect(201);
      await t.http
        .post(API)
        .set(bearer(ceo))
        .send({ name: 'route-b', gateway_provider: 'openai', base_url: `${mock.url}/v1`, models: shared(2) })
        .expect(201);
    });

    it('should keep every provider variant of one model id as a candidate', () => {
      const variants = t.app
        .get(ModelRouter)
        .models()
        .filter((m) => m.id === 'shared-model')
        .map((m) => m.provider);
      expect(variants.sort()).toEqual(['route-a', 'route-b']);
    });

    it('should prefer the provider with quota, while the alternative selector always takes the cheapest', () => {
      const router = t.app.get(ModelRouter);
      const request = { modelOverride: 'shared-model' };
      expect(router.routing.strategy).toBe('smart');
      expect(router.route(request).model.provider).toBe('route-a');
      t.app.get(ProviderQuotas).record('route-a', 10);
      expect(router.route(request).model.provider).toBe('route-b');
      expect(router.route(request, 'cheapest').model.provider).toBe('route-a');
    });

    it.each([
      [
        'fallback',
        { strategy: 'fallback', fallback_providers: ['route-b'] },
        { provider: 'route-b', fallbackFrom: 'route-a' },
      ],
      ['alert', { strategy: 'alert' }, 6004],
      ['queue beyond its cap', { strategy: 'queue', queue_max_wait_seconds: 1 }, 6004],
    ])('should apply %s degradation at pre-flight', async (_label, degradation, expected) => {
      await t.http.put(`${API}/route-a`).set(bearer(ceo)).send({ degradation }).expect(200);
      const quotas = t.app.get(ProviderQuotas);
      // A fixed instant mid-minute, with route-a's one request already used in it.
      const now = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
      quotas.record('route-a', 1, now);
      const clock = { now: () => now, sleep: () => Promise.resolve() };
      const outcome = t.app.get(ModelRouter).preflight('route-a', clock);
      if (typeof expected === 'number') {
        await expect(outcome).rejects.toMatchObject({ code: expected });
      } else {
        await expect(outcome).resolves.toMatchObject(expected);
      }
    });

    it('should wait for the window reset under the queue strategy, then proceed', async () => {
      await t.http
        .put(`${API}/route-a`)
        .set(bearer(ceo))
        .send({ degradation: { strategy: 'queue', queue_max_wait_seconds: 60 } })
        .expect(200);
      let now = Math.floor(Date.now() / 60_000) * 60_000 + 50_000;
      t.app.get(ProviderQuotas).record('route-a', 1, now);
      const waits: number[] = [];
      const clock = {
        now: () => now,
        sleep: (ms: number) => {
          waits.push(ms);
          now += ms;
          return Promise.resolve();
        },
      };
      await expect(t.app.get(ModelRouter).preflight('route-a', clock)).resolves.toMatchObject({
        provider: 'route-a',
        waitedMs: 10_000,
      });
      expect(waits).toEqual([10_000]);
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
