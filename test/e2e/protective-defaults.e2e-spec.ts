import { testBackends } from '@app/testing';

import { bearer, expectError, setupCeo, startTestApp, TEST_PASSWORD, type TestApp } from '../support';

const HIGH_LIMITS = { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000', SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' };
const LISTS = ['agents', 'departments', 'projects', 'providers', 'tasks', 'users'];

type Headers = Record<string, string | string[] | undefined>;

function nestedArrays(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

function nestedObjects(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function cookiesOf(headers: Headers): string[] {
  return ([] as string[]).concat(headers['set-cookie'] ?? []);
}

function expectProtectiveHeaders(headers: Headers): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-powered-by']).toBeUndefined();
}

describe.each(testBackends())('protective defaults on %s', (backend) => {
  let t: TestApp;
  let ceo: string;

  beforeAll(async () => {
    // Behind a proxy on loopback: X-Forwarded-Proto from it counts.
    t = await startTestApp({ backend, env: { ...HIGH_LIMITS, SYNTHORG_TRUST_PROXY: 'loopback' } });
    ceo = await setupCeo(t);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('headers', () => {
    it('should send the protective headers and no-store on API answers, errors included', async () => {
      for (const res of [
        await t.http.get('/api/v1/health').expect(200),
        await t.http.get('/api/v1/auth/me').set(bearer(ceo)).expect(200),
        await t.http.get('/api/v1/auth/me').expect(401),
      ]) {
        expectProtectiveHeaders(res.headers);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      }
    });

    it('should send no-store on the responses that carry a token', async () => {
      const res = await t.http.post('/api/v1/auth/login').send({ username: 'ceo', password: 'x'.repeat(12) });
      expect(res.status).toBe(401);
      expect(res.headers['cache-control']).toBe('no-store');
      const ok = await t.http.post('/api/v1/auth/login').send({ username: 'ceo', password: TEST_PASSWORD }).expect(200);
      expect(ok.headers['cache-control']).toBe('no-store');
      expectProtectiveHeaders(ok.headers);
    });

    it('should keep the documentation UI working under a page-friendly policy', async () => {
      const ui = await t.http.get('/docs/api').redirects(1).expect(200);
      expect(ui.text).toContain('swagger');
      expectProtectiveHeaders(ui.headers);
      expect(ui.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
      await t.http.get('/docs/openapi.json').expect(200);
    });

    it('should send HSTS and Secure cookies only when the request came over TLS', async () => {
      const credentials = { username: 'ceo', password: TEST_PASSWORD };
      const plain = await t.http.post('/api/v1/auth/login').send(credentials).expect(200);
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      expect(cookiesOf(plain.headers).some((c) => /;\s*Secure/i.test(c))).toBe(false);
      const tls = await t.http
        .post('/api/v1/auth/login')
        .set('X-Forwarded-Proto', 'https')
        .send(credentials)
        .expect(200);
      expect(tls.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const cookies = cookiesOf(tls.headers);
      expect(cookies.filter((c) => /^(session|csrf_token)=/.test(c))).toHaveLength(2);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/;\s*Secure/i);
      }
    });
  });

  describe('paths outside the API', () => {
    it('should answer them with the JSON error body (404, 3002), negotiated like the API', async () => {
      for (const path of ['/', '/nope', '/docs/nope/deeper', '/apiary']) {
        const res = await t.http.get(path).expect(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expectError(res.body, 3002, 'not_found');
        expectProtectiveHeaders(res.headers);
      }
      const problem = await t.http.post('/nope').set('Accept', 'application/problem+json').expect(404);
      expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(problem.text)).toMatchObject({ status: 404, error_code: 3002 });
    });
  });

  describe('request limits', () => {
    it('should refuse a deeply nested array with 400 (2027), anonymous routes included', async () => {
      for (const path of ['/api/v1/auth/login', '/api/v1/auth/setup']) {
        const res = await t.http.post(path).set('Content-Type', 'application/json').send(nestedArrays(5000));
        expect(res.status).toBe(400);
        expectError(res.body, 2027, 'validation');
      }
      const tasks = await t.http
        .post('/api/v1/tasks')
        .set(bearer(ceo))
        .set('Content-Type', 'application/json')
        .send(nestedArrays(5000))
        .expect(400);
      expectError(tasks.body, 2027);
    });

    it('should keep refusing an object nested 1,000 deep and accept ordinary nesting', async () => {
      const deep = await t.http
        .post('/api/v1/auth/login')
        .set('Content-Type', 'application/json')
        .send(nestedObjects(1000))
        .expect(400);
      expectError(deep.body, 2027);
      const shallow = await t.http
        .post('/api/v1/auth/login')
        .set('Content-Type', 'application/json')
        .send(nestedObjects(60))
        .expect(400);
      expectError(shallow.body, 2001);
    });

    it('should bound offset and limit to safe integers on every list (400, 2001)', async () => {
      for (const list of LISTS) {
        for (const query of ['offset=99999999999999999999', 'limit=99999999999999999999', 'offset=1e300']) {
          const res = await t.http.get(`/api/v1/${list}?${query}`).set(bearer(ceo));
          expect([list, query, res.status]).toEqual([list, query, 400]);
          expectError(res.body, 2001, 'validation');
        }
        const last = await t.http.get(`/api/v1/${list}?offset=${Number.MAX_SAFE_INTEGER}`).set(bearer(ceo));
        expect([list, last.status]).toEqual([list, 200]);
        expect(last.body.data).toEqual([]);
      }
    });
  });
});

describe.each(testBackends())('forced Secure cookies without a trusted proxy on %s', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { ...HIGH_LIMITS, SYNTHORG_COOKIE_SECURE: 'true' } });
    await setupCeo(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should ignore X-Forwarded-Proto from an untrusted peer, and still set Secure as configured', async () => {
    const res = await t.http
      .post('/api/v1/auth/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ username: 'ceo', password: TEST_PASSWORD })
      .expect(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const cookies = cookiesOf(res.headers);
    expect(cookies).toHaveLength(2);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/;\s*Secure/i);
    }
  });
});

describe.each(testBackends())('no trusted proxy, cookie mode auto, on %s', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    await setupCeo(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should change neither HSTS nor Secure for X-Forwarded-Proto from a peer it does not trust', async () => {
    const res = await t.http
      .post('/api/v1/auth/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ username: 'ceo', password: TEST_PASSWORD })
      .expect(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const cookies = cookiesOf(res.headers);
    expect(cookies).toHaveLength(2);
    expect(cookies.some((c) => /;\s*Secure/i.test(c))).toBe(false);
  });
});
