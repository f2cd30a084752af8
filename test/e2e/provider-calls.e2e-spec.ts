import { ProviderCallEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { testBackends } from '@app/testing';

import { ModelRouter } from '../../apps/api/src/modules/providers/model-router';
import { ProviderQuotas } from '../../apps/api/src/modules/providers/provider-quotas';
import { bearer, type MockLlm, type TestApp } from '../support';
import { API, ProvidersScene } from './providers-scene';

// Test calls, health and model listings of a provider, and routing with quota degradation.
describe.each(testBackends())('provider calls, health and routing on %s', (backend) => {
  const scene = new ProvidersScene(backend);
  const { allowMockHost, createOpenAi } = scene;
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let observer: string;

  beforeAll(async () => {
    ({ t, mock, ceo, observer } = await scene.start());
    // Test calls go through the discovery allowlist, as discovery does; the mock is on loopback.
    await allowMockHost();
  });

  afterAll(() => scene.close());

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
});
