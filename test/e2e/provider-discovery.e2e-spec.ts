import type { Response } from 'superagent';

import { findPreset } from '@app/domain';
import { testBackends } from '@app/testing';

import { DiscoveryService } from '../../apps/api/src/modules/providers/discovery/discovery.service';
import { LocalHealthProber } from '../../apps/api/src/modules/providers/local-health.prober';
import { ProviderRegistry } from '../../apps/api/src/modules/providers/provider-registry';
import { bearer, expectError, type MockLlm, startMockLlm, type TestApp } from '../support';
import { API, type Json, ProvidersScene, SECRET } from './providers-scene';

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

// The address checks and allowlist of discovery, local models over the Ollama protocol (pulls,
// launch parameters, deletes) and their background health probing.
describe.each(testBackends())('provider discovery and local models on %s', (backend) => {
  const scene = new ProvidersScene(backend);
  const { allowMockHost, createOpenAi, mockHostPort } = scene;
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let observer: string;

  beforeAll(async () => {
    ({ t, mock, ceo, observer } = await scene.start());
  });

  afterAll(() => scene.close());

  describe('discovery safety', () => {
    // Nothing in this file has put the mock's host:port on the allowlist yet.
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
    beforeAll(() => allowMockHost());

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
});
