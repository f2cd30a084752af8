import { testBackends } from '@app/testing';
import { startTestApp, type TestApp } from '../support';

import { PlatformFixtureModule } from './fixtures/platform-fixture.module';

const ANSI = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(testBackends())('HTTP platform on %s', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ backend, extraImports: [PlatformFixtureModule] });
  });

  afterAll(async () => {
    await t.close();
  });

  describe('health', () => {
    it('should answer the health envelope with version, uptime, persistence and subsystems', async () => {
      const res = await t.http.get('/api/v1/health').expect(200);
      expect(res.body).toMatchObject({ error: null, error_detail: null, success: true });
      expect(res.body.data).toMatchObject({
        status: 'ok',
        version: '0.6.1',
        persistence: true,
        persistence_detail: { backend, state: 'ready' },
      });
      expect(typeof res.body.data.uptime_seconds).toBe('number');
      expect(res.body.data.subsystems).toEqual(
        expect.arrayContaining([
          { name: 'persistence', wired: true, detail: backend },
          expect.objectContaining({ name: 'memory', wired: false }),
        ]),
      );
    });

    it('should answer liveness and readiness probes', async () => {
      await t.http
        .get('/api/v1/health/live')
        .expect(200, { data: { status: 'alive' }, error: null, error_detail: null, success: true });
      await t.http.get('/api/v1/health/ready').expect(200);
    });
  });

  describe('request ids', () => {
    it('should return a fresh UUID in X-Request-ID and ignore an incoming one', async () => {
      const a = await t.http.get('/api/v1/health').set('X-Request-ID', 'forged');
      const b = await t.http.get('/api/v1/health');
      expect(a.headers['x-request-id']).toMatch(UUID);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });

    it('should write one access line per request with its id, status and level, and none for the probes', async () => {
      const ok = await t.http.get('/api/v1/health').expect(200);
      const missing = await t.http.get('/api/v1/nope?x=1').expect(404);
      const probe = await t.http.get('/api/v1/health/live').expect(200);
      await t.logging.flush();
      const accessLines = (id: string) =>
        t
          .consoleLines()
          .map((l) => l.replace(ANSI, ''))
          .filter((l) => l.includes('synthorg.api.access') && l.includes(`"request_id":"${id}"`));
      const [okLine, ...okMore] = accessLines(String(ok.headers['x-request-id']));
      expect(okMore).toHaveLength(0);
      expect(okLine).toContain('INFO: synthorg.api.access api.request.completed');
      expect(okLine).toContain('"req":{"method":"GET","url":"/api/v1/health"},"res":{"status_code":200}');
      expect(okLine).toMatch(/"duration_ms":\d+(\.\d+)?/);
      const missingLines = accessLines(String(missing.headers['x-request-id']));
      expect(missingLines).toHaveLength(1);
      expect(missingLines[0]).toContain('WARNING: synthorg.api.access api.request.completed');
      expect(missingLines[0]).toContain('"url":"/api/v1/nope?x=1"},"res":{"status_code":404}');
      expect(accessLines(String(probe.headers['x-request-id']))).toHaveLength(0);
    });

    it('should use the request id as the error instance', async () => {
      const res = await t.http.get('/api/v1/fixtures/items/' + 'x'.repeat(129)).expect(400);
      expect(res.body.error_detail.instance).toBe(res.headers['x-request-id']);
    });
  });

  describe('errors', () => {
    it('should answer an unknown route, even a protected-looking one, with the 404 envelope (3002)', async () => {
      const res = await t.http.get('/api/v1/admin/secret/things').expect(404);
      expect(res.body).toMatchObject({
        data: null,
        success: false,
        error_detail: {
          error_code: 3002,
          error_category: 'not_found',
          retryable: false,
          retry_after: null,
          title: 'Resource Not Found',
          type: 'https://synthorg.io/docs/errors#not_found',
        },
      });
      expect(res.body.error).toBe(res.body.error_detail.detail);
    });

    it('should return a bare RFC 9457 body when problem+json is preferred', async () => {
      const res = await t.http.get('/api/v1/nope').set('Accept', 'application/problem+json').expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const body = JSON.parse(res.text);
      expect(body).toEqual({
        type: 'https://synthorg.io/docs/errors#not_found',
        title: 'Resource Not Found',
        status: 404,
        detail: expect.any(String),
        instance: res.headers['x-request-id'],
        error_code: 3002,
        error_category: 'not_found',
        retryable: false,
        retry_after: null,
      });
    });

    it('should keep the envelope when application/json is preferred', async () => {
      const res = await t.http
        .get('/api/v1/nope')
        .set('Accept', 'application/json, application/problem+json;q=0.5')
        .expect(404);
      expect(res.body.success).toBe(false);
    });

    it('should scrub 5xx details and log the error once', async () => {
      const res = await t.http.get('/api/v1/fixtures/boom').expect(500);
      expect(res.body.error_detail).toMatchObject({ error_code: 8000, error_category: 'internal', retryable: false });
      expect(res.text).not.toContain('hunter2');
      expect(res.text).not.toContain('secret detail');
      await t.logging.flush();
      const failures = t.consoleLines().filter((l) => l.includes('api.request.failed'));
      expect(failures).toHaveLength(1);
      // The cause is for operators: in the log (once), never in the response.
      expect(failures[0]).toContain('internal secret detail');
    });

    it('should map a conflict to 409 with its code', async () => {
      const res = await t.http.post('/api/v1/fixtures/items').send({ name: 'taken' }).expect(409);
      expect(res.body.error_detail.error_code).toBe(4000);
    });
  });

  describe('validation', () => {
    it('should page with defaults offset 0 and limit 50', async () => {
      const res = await t.http.get('/api/v1/fixtures/items').expect(200);
      expect(res.body).toMatchObject({
        success: true,
        pagination: { total: 7, offset: 0, limit: 50 },
        degraded_sources: [],
      });
      expect(res.body.data).toHaveLength(7);
    });

    it('should honour offset and limit', async () => {
      const res = await t.http.get('/api/v1/fixtures/items?offset=5&limit=1').expect(200);
      expect(res.body.data).toEqual([{ name: 'item-5' }]);
      expect(res.body.pagination).toEqual({ total: 7, offset: 5, limit: 1 });
    });

    it.each([
      'limit=201',
      'limit=0',
      'offset=-1',
      'limit=abc',
      'limit=1.5',
      'limit=0x10',
      'offset=0x10',
      'limit=1e1',
      'limit=0b11',
      'limit=0o7',
      'limit=%2010',
      'limit=',
      'offset=1&offset=2',
    ])('should reject %s with 400 (2001)', async (q) => {
      const res = await t.http.get(`/api/v1/fixtures/items?${q}`).expect(400);
      expect(res.body.error_detail).toMatchObject({ error_code: 2001, error_category: 'validation' });
    });

    it('should accept a 128-character id and reject a 129-character one', async () => {
      await t.http.get('/api/v1/fixtures/items/' + 'a'.repeat(128)).expect(200);
      const res = await t.http.get('/api/v1/fixtures/items/' + 'a'.repeat(129)).expect(400);
      expect(res.body.error_detail.error_code).toBe(2001);
      expect(res.body.error).toContain('item_id');
    });

    it('should reject unknown fields, bad types and malformed JSON with 400 (2001)', async () => {
      const unknown = await t.http.post('/api/v1/fixtures/items').send({ name: 'a', extra: 1 }).expect(400);
      expect(unknown.body.error).toContain('extra');
      await t.http.post('/api/v1/fixtures/items').send({ name: 'far-too-long-name' }).expect(400);
      const malformed = await t.http
        .post('/api/v1/fixtures/items')
        .set('Content-Type', 'application/json')
        .send('{"name":')
        .expect(400);
      expect(malformed.body.error_detail.error_code).toBe(2001);
    });

    it('should answer 201 for creation and 204 with no body for deletion', async () => {
      const created = await t.http.post('/api/v1/fixtures/items').send({ name: 'ok' }).expect(201);
      expect(created.body.data).toEqual({ name: 'ok' });
      const deleted = await t.http.delete('/api/v1/fixtures/items/ok').expect(204);
      expect(deleted.text).toBe('');
    });
  });

  describe('subsystems', () => {
    it('should answer 503 (8001, retryable) for a controller whose subsystem is unwired', async () => {
      const res = await t.http.get('/api/v1/fixtures/needs-memory').expect(503);
      expect(res.body.error_detail).toMatchObject({ error_code: 8001, retryable: true, error_category: 'internal' });
      expect(res.body.error).toContain('memory');
      await t.http.get('/api/v1/fixtures/needs-persistence').expect(200);
    });

    it('should log one ERROR when no embedding model resolves and wire no memory backend', async () => {
      await t.logging.flush();
      const lines = t.consoleLines().filter((l) => l.includes('memory.backend.unwired'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/ERROR/);
    });
  });

  describe('OpenAPI', () => {
    it('should serve the 3.1.0 document with interface version 0.6.1', async () => {
      const res = await t.http.get('/docs/openapi.json').expect(200);
      expect(res.body.openapi).toBe('3.1.0');
      expect(res.body.info.version).toBe('0.6.1');
      expect(res.body.servers).toEqual([{ url: '/' }]);
      expect(res.body.paths['/api/v1/health'].get.operationId).toBe('ApiV1HealthGetHealth');
      expect(JSON.stringify(res.body)).not.toContain('"nullable"');
    });

    it('should serve the UI', async () => {
      const res = await t.http.get('/docs/api').redirects(1).expect(200);
      expect(res.text).toContain('swagger');
    });
  });
});
