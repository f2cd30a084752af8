import { createTestDatabase, testBackends } from '@app/testing';
import {
  bearer,
  login,
  NEW_PASSWORD,
  setupCeo,
  startTestApp,
  TEST_PASSWORD,
  type TestApp,
  userWithRole,
} from '../support';

const HIGH_LIMITS = { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000', SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' };

describe.each(testBackends())('authentication on %s', (backend) => {
  let t: TestApp;
  let ceo: string;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
  });

  afterAll(async () => {
    await t.close();
  });

  describe('first-run setup', () => {
    it('should refuse the reserved name system', async () => {
      const res = await t.http
        .post('/api/v1/auth/setup')
        .send({ username: 'system', password: TEST_PASSWORD })
        .expect(409);
      expect(res.body.error_detail.error_category).toBe('conflict');
    });

    it('should reject a short password with 400', async () => {
      const res = await t.http.post('/api/v1/auth/setup').send({ username: 'ceo', password: 'short' }).expect(400);
      expect(res.body.error_detail.error_code).toBe(2001);
    });

    it('should create the CEO once and answer 409 afterwards', async () => {
      const res = await t.http
        .post('/api/v1/auth/setup')
        .send({ username: 'ceo', password: TEST_PASSWORD })
        .expect(201);
      expect(res.body.data).toEqual({ token: expect.any(String), expires_in: 86400, must_change_password: false });
      ceo = res.body.data.token;
      const again = await t.http
        .post('/api/v1/auth/setup')
        .send({ username: 'other', password: TEST_PASSWORD })
        .expect(409);
      expect(again.body.error_detail.error_code).toBe(4000);
    });

    it('should put sub, jti, role, iat, exp, iss and aud in an HS256 token', () => {
      const [header, payload] = ceo
        .split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
      expect(header.alg).toBe('HS256');
      expect(payload).toMatchObject({ role: 'ceo', iss: 'synthorg-api', aud: 'synthorg-api' });
      expect(payload.exp - payload.iat).toBe(86400);
      expect(typeof payload.sub).toBe('string');
      expect(typeof payload.jti).toBe('string');
    });
  });

  describe('login and tokens', () => {
    it('should log in and identify the caller', async () => {
      const token = await login(t, 'ceo', TEST_PASSWORD);
      const me = await t.http.get('/api/v1/auth/me').set(bearer(token)).expect(200);
      expect(me.body.data).toMatchObject({ username: 'ceo', role: 'ceo', must_change_password: false });
    });

    it('should answer 401 (1000) for a wrong password and for an unknown user alike', async () => {
      const wrong = await t.http
        .post('/api/v1/auth/login')
        .send({ username: 'ceo', password: 'wrong-password-123' })
        .expect(401);
      const unknown = await t.http
        .post('/api/v1/auth/login')
        .send({ username: 'ghost', password: 'wrong-password-123' })
        .expect(401);
      expect(wrong.body.error_detail.error_code).toBe(1000);
      expect(unknown.body.error).toBe(wrong.body.error);
    });

    it('should never let the system identity log in', async () => {
      await t.http.post('/api/v1/auth/login').send({ username: 'system', password: TEST_PASSWORD }).expect(401);
    });

    it('should answer 401 without a token, with a forged token and with a tampered one', async () => {
      const none = await t.http.get('/api/v1/auth/me').expect(401);
      expect(none.body.error_detail).toMatchObject({ error_code: 1000, error_category: 'auth' });
      await t.http.get('/api/v1/auth/me').set(bearer('not.a.jwt')).expect(401);
      const [h, p] = ceo.split('.');
      await t.http
        .get('/api/v1/auth/me')
        .set(bearer(`${h}.${p}.${'A'.repeat(43)}`))
        .expect(401);
    });

    it('should lock an account after ten failures in fifteen minutes (429, 1003, Retry-After)', async () => {
      await userWithRole(t, ceo, 'observer', 'locky');
      for (let i = 0; i < 10; i++) {
        await t.http
          .post('/api/v1/auth/login')
          .send({ username: 'locky', password: `bad-password-${i}xx` })
          .expect(401);
      }
      const locked = await t.http
        .post('/api/v1/auth/login')
        .send({ username: 'locky', password: NEW_PASSWORD })
        .expect(429);
      expect(locked.body.error_detail).toMatchObject({ error_code: 1003, retryable: true });
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    });
  });

  describe('password change', () => {
    it('should revoke older tokens and issue a working new one', async () => {
      await t.http
        .post('/api/v1/users')
        .set(bearer(ceo))
        .send({ username: 'pw', password: TEST_PASSWORD, role: 'manager' })
        .expect(201);
      const first = await login(t, 'pw', TEST_PASSWORD);
      const second = await login(t, 'pw', TEST_PASSWORD);
      const res = await t.http
        .post('/api/v1/auth/change-password')
        .set(bearer(first))
        .send({ current_password: TEST_PASSWORD, new_password: NEW_PASSWORD })
        .expect(200);
      await t.http.get('/api/v1/auth/me').set(bearer(first)).expect(401);
      await t.http.get('/api/v1/auth/me').set(bearer(second)).expect(401);
      const me = await t.http.get('/api/v1/auth/me').set(bearer(res.body.data.token)).expect(200);
      expect(me.body.data.must_change_password).toBe(false);
      await t.http.post('/api/v1/auth/login').send({ username: 'pw', password: TEST_PASSWORD }).expect(401);
    });

    it('should refuse a wrong current password (401) and a short new one (400)', async () => {
      const token = await login(t, 'ceo', TEST_PASSWORD);
      await t.http
        .post('/api/v1/auth/change-password')
        .set(bearer(token))
        .send({ current_password: 'not-my-password', new_password: NEW_PASSWORD })
        .expect(401);
      await t.http
        .post('/api/v1/auth/change-password')
        .set(bearer(token))
        .send({ current_password: TEST_PASSWORD, new_password: 'short' })
        .expect(400);
    });

    it('should gate every route but me and change-password while a change is pending', async () => {
      await t.http
        .post('/api/v1/users')
        .set(bearer(ceo))
        .send({ username: 'fresh', password: TEST_PASSWORD, role: 'ceo' })
        .expect(201);
      const token = await login(t, 'fresh', TEST_PASSWORD);
      const me = await t.http.get('/api/v1/auth/me').set(bearer(token)).expect(200);
      expect(me.body.data.must_change_password).toBe(true);
      const gated = await t.http.get('/api/v1/users').set(bearer(token)).expect(403);
      expect(gated.body.error).toMatch(/Password change required/);
      await t.http.get('/api/v1/auth/sessions').set(bearer(token)).expect(403);
    });
  });

  describe('sessions and logout', () => {
    it('should list own sessions, mark the current one, and let the CEO list all', async () => {
      const a = await login(t, 'ceo', TEST_PASSWORD);
      const own = await t.http.get('/api/v1/auth/sessions?scope=own').set(bearer(a)).expect(200);
      expect(own.body.data.filter((s: { is_current: boolean }) => s.is_current)).toHaveLength(1);
      expect(own.body.data.every((s: { username: string }) => s.username === 'ceo')).toBe(true);
      const all = await t.http.get('/api/v1/auth/sessions?scope=all').set(bearer(a)).expect(200);
      expect(all.body.data.length).toBeGreaterThan(own.body.data.length);
      await t.http.get('/api/v1/auth/sessions?scope=everything').set(bearer(a)).expect(400);
    });

    it('should revoke a session at once and hide other users sessions from non-CEOs', async () => {
      const mgr = await userWithRole(t, ceo, 'manager', 'mgr-sessions');
      const other = await login(t, 'mgr-sessions', NEW_PASSWORD);
      const list = await t.http.get('/api/v1/auth/sessions').set(bearer(mgr)).expect(200);
      const otherId = list.body.data.find((s: { is_current: boolean }) => !s.is_current).session_id;
      await t.http.delete(`/api/v1/auth/sessions/${otherId}`).set(bearer(mgr)).expect(204);
      await t.http.get('/api/v1/auth/me').set(bearer(other)).expect(401);
      const ceoSessions = await t.http.get('/api/v1/auth/sessions').set(bearer(ceo)).expect(200);
      const ceoSession = ceoSessions.body.data[0].session_id;
      await t.http.delete(`/api/v1/auth/sessions/${ceoSession}`).set(bearer(mgr)).expect(404);
      await t.http
        .delete(`/api/v1/auth/sessions/${'x'.repeat(129)}`)
        .set(bearer(mgr))
        .expect(400);
    });

    it('should log out idempotently and clear cookies', async () => {
      const token = await login(t, 'ceo', TEST_PASSWORD);
      const res = await t.http.post('/api/v1/auth/logout').set(bearer(token)).expect(204);
      expect(res.headers['clear-site-data']).toBe('"cookies"');
      await t.http.get('/api/v1/auth/me').set(bearer(token)).expect(401);
      await t.http.post('/api/v1/auth/logout').expect(204);
      await t.http.post('/api/v1/auth/logout').set(bearer(token)).expect(204);
    });
  });

  describe('cookies and CSRF', () => {
    it('should accept the session cookie and require the CSRF header on mutations', async () => {
      const res = await t.http
        .post('/api/v1/auth/login')
        .send({ username: 'ceo', password: TEST_PASSWORD })
        .expect(200);
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      const session = cookies.find((c) => c.startsWith('session='));
      const csrf = cookies.find((c) => c.startsWith('csrf_token='));
      expect(session).toMatch(/HttpOnly/);
      expect(session).toMatch(/SameSite=Strict/);
      const jar = cookies.map((c) => c.split(';')[0]).join('; ');
      await t.http.get('/api/v1/auth/me').set('Cookie', jar).expect(200);
      const rejected = await t.http.post('/api/v1/auth/ws-ticket').set('Cookie', jar).expect(403);
      expect(rejected.body.error_detail.error_code).toBe(1004);
      const token = csrf?.split(';')[0]?.split('=')[1] ?? '';
      await t.http.post('/api/v1/auth/ws-ticket').set('Cookie', jar).set('X-CSRF-Token', token).expect(201);
    });

    it('should authenticate by the Authorization header alone when a session cookie rides along', async () => {
      const res = await t.http
        .post('/api/v1/auth/login')
        .send({ username: 'ceo', password: TEST_PASSWORD })
        .expect(200);
      const jar = ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0])
        .join('; ');
      const token = (res.body as { data: { token: string } }).data.token;
      // A browser client sends both; the explicit header needs no CSRF token.
      await t.http.post('/api/v1/auth/ws-ticket').set('Cookie', jar).set(bearer(token)).expect(201);
      // The header decides alone: a bad one is not rescued by a valid cookie.
      const refused = await t.http
        .post('/api/v1/auth/ws-ticket')
        .set('Cookie', jar)
        .set(bearer('not-a-jwt'))
        .expect(401);
      expect(refused.body.error_detail.error_code).toBe(1000);
      const cookieOnly = await t.http.post('/api/v1/auth/ws-ticket').set('Cookie', jar).expect(403);
      expect(cookieOnly.body.error_detail.error_code).toBe(1004);
    });
  });

  describe('WebSocket tickets', () => {
    it('should issue 30-second tickets and cap pending ones at five per user', async () => {
      const token = await userWithRole(t, ceo, 'observer', 'ticketeer');
      const first = await t.http.post('/api/v1/auth/ws-ticket').set(bearer(token)).expect(201);
      expect(first.body.data).toEqual({ ticket: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_in: 30 });
      for (let i = 0; i < 4; i++) {
        await t.http.post('/api/v1/auth/ws-ticket').set(bearer(token)).expect(201);
      }
      const capped = await t.http.post('/api/v1/auth/ws-ticket').set(bearer(token)).expect(429);
      expect(capped.body.error_detail.error_code).toBe(5000);
    });
  });
});

describe.each(testBackends())('rate limits and dev login on %s', (backend) => {
  it('should answer the 11th login in a minute with 429 (5000) and Retry-After', async () => {
    const t = await startTestApp({ backend });
    try {
      await setupCeo(t);
      for (let i = 0; i < 10; i++) {
        await t.http
          .post('/api/v1/auth/login')
          .send({ username: 'ceo', password: `wrong-password-${i}` })
          .expect(401);
      }
      const limited = await t.http
        .post('/api/v1/auth/login')
        .send({ username: 'ceo', password: TEST_PASSWORD })
        .expect(429);
      expect(limited.body.error_detail).toMatchObject({
        error_code: 5000,
        error_category: 'rate_limit',
        retryable: true,
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Health is never rate limited.
      for (let i = 0; i < 15; i++) {
        await t.http.get('/api/v1/health/live').expect(200);
      }
    } finally {
      await t.close();
    }
  });

  it('should not have a dev-login route when the bypass flag is off', async () => {
    const t = await startTestApp({ backend });
    try {
      const res = await t.http.post('/api/v1/auth/dev-login').expect(404);
      expect(res.body.error_detail.error_code).toBe(3002);
    } finally {
      await t.close();
    }
  });

  it('should answer 401 without an administrator and mint a CEO session once one exists', async () => {
    const t = await startTestApp({ backend, env: { SYNTHORG_DEV_AUTH_BYPASS: 'true' } });
    try {
      await t.http.post('/api/v1/auth/dev-login').expect(401);
      await setupCeo(t, 'boss');
      const res = await t.http.post('/api/v1/auth/dev-login').expect(200);
      const me = await t.http.get('/api/v1/auth/me').set(bearer(res.body.data.token)).expect(200);
      expect(me.body.data).toMatchObject({ username: 'boss', role: 'ceo' });
      const users = await t.http.get('/api/v1/users').set(bearer(res.body.data.token)).expect(200);
      expect(users.body.data.filter((u: { role: string }) => u.role === 'ceo')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe.each(testBackends())('user administration on %s', (backend) => {
  let t: TestApp;
  let ceo: string;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    ceo = await setupCeo(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should create, list, get, change the role of and delete an account', async () => {
    const created = await t.http
      .post('/api/v1/users')
      .set(bearer(ceo))
      .send({ username: 'ann', password: TEST_PASSWORD, role: 'observer' })
      .expect(201);
    expect(created.body.data).toMatchObject({ username: 'ann', role: 'observer', must_change_password: true });
    const id = created.body.data.id as string;
    const list = await t.http.get('/api/v1/users?limit=1&offset=0').set(bearer(ceo)).expect(200);
    expect(list.body.pagination).toMatchObject({ limit: 1, offset: 0 });
    expect(list.body.pagination.total).toBeGreaterThanOrEqual(3); // system, ceo, ann
    await t.http.get(`/api/v1/users/${id}`).set(bearer(ceo)).expect(200);
    const patched = await t.http.patch(`/api/v1/users/${id}`).set(bearer(ceo)).send({ role: 'manager' }).expect(200);
    expect(patched.body.data.role).toBe('manager');
    const annToken = await login(t, 'ann', TEST_PASSWORD);
    await t.http.delete(`/api/v1/users/${id}`).set(bearer(ceo)).expect(204);
    await t.http.get(`/api/v1/users/${id}`).set(bearer(ceo)).expect(404);
    await t.http.get('/api/v1/auth/me').set(bearer(annToken)).expect(401);
  });

  it('should apply a role change to live sessions at once', async () => {
    const token = await userWithRole(t, ceo, 'manager', 'demoted');
    const users = await t.http.get('/api/v1/users?limit=200').set(bearer(ceo)).expect(200);
    const id = users.body.data.find((u: { username: string }) => u.username === 'demoted').id;
    expect((await t.http.get('/api/v1/auth/me').set(bearer(token)).expect(200)).body.data.role).toBe('manager');
    await t.http.patch(`/api/v1/users/${id}`).set(bearer(ceo)).send({ role: 'observer' }).expect(200);
    expect((await t.http.get('/api/v1/auth/me').set(bearer(token)).expect(200)).body.data.role).toBe('observer');
  });

  it('should refuse duplicates (409), the system role (400), unknown ids (404) and bad bodies (400)', async () => {
    await t.http
      .post('/api/v1/users')
      .set(bearer(ceo))
      .send({ username: 'dup', password: TEST_PASSWORD, role: 'observer' })
      .expect(201);
    const dup = await t.http
      .post('/api/v1/users')
      .set(bearer(ceo))
      .send({ username: 'dup', password: TEST_PASSWORD, role: 'observer' })
      .expect(409);
    expect(dup.body.error_detail.error_code).toBe(4001);
    await t.http
      .post('/api/v1/users')
      .set(bearer(ceo))
      .send({ username: 'sys2', password: TEST_PASSWORD, role: 'system' })
      .expect(400);
    await t.http
      .post('/api/v1/users')
      .set(bearer(ceo))
      .send({ username: 'short', password: 'short', role: 'observer' })
      .expect(400);
    await t.http
      .post('/api/v1/users')
      .set(bearer(ceo))
      .send({ username: 'x', password: TEST_PASSWORD, role: 'observer', admin: true })
      .expect(400);
    const missing = await t.http.get('/api/v1/users/no-such-user').set(bearer(ceo)).expect(404);
    expect(missing.body.error_detail.error_category).toBe('not_found');
    await t.http
      .get(`/api/v1/users/${'u'.repeat(129)}`)
      .set(bearer(ceo))
      .expect(400);
  });

  it('should keep the system identity immutable and protect the last CEO', async () => {
    await t.http.patch('/api/v1/users/system').set(bearer(ceo)).send({ role: 'observer' }).expect(409);
    await t.http.delete('/api/v1/users/system').set(bearer(ceo)).expect(409);
    const me = await t.http.get('/api/v1/auth/me').set(bearer(ceo)).expect(200);
    const selfDelete = await t.http.delete(`/api/v1/users/${me.body.data.id}`).set(bearer(ceo)).expect(409);
    expect(selfDelete.body.error).toMatch(/own account/);
    const demote = await t.http
      .patch(`/api/v1/users/${me.body.data.id}`)
      .set(bearer(ceo))
      .send({ role: 'manager' })
      .expect(409);
    expect(demote.body.error).toMatch(/last CEO/);
  });

  it('should tell the account conflicts apart by code', async () => {
    const immutable = await t.http.delete('/api/v1/users/system').set(bearer(ceo)).expect(409);
    expect(immutable.body.error_detail.error_code).toBe(4021);
    const me = await t.http.get('/api/v1/auth/me').set(bearer(ceo)).expect(200);
    const selfDelete = await t.http.delete(`/api/v1/users/${me.body.data.id}`).set(bearer(ceo)).expect(409);
    expect(selfDelete.body.error_detail.error_code).toBe(4020);
    const demote = await t.http
      .patch(`/api/v1/users/${me.body.data.id}`)
      .set(bearer(ceo))
      .send({ role: 'manager' })
      .expect(409);
    expect(demote.body.error_detail.error_code).toBe(4019);
  });
});

describe('sessions across replicas on postgres', () => {
  it('should reject a token on replica B as soon as replica A revokes its session', async () => {
    const db = await createTestDatabase('postgres');
    const a = await startTestApp({ backend: 'postgres', database: db, env: HIGH_LIMITS });
    const b = await startTestApp({ backend: 'postgres', database: db, env: HIGH_LIMITS });
    try {
      const token = await setupCeo(a);
      // B validates (and caches) the session, then A logs it out.
      await b.http.get('/api/v1/auth/me').set(bearer(token)).expect(200);
      await a.http.post('/api/v1/auth/logout').set(bearer(token)).expect(204);
      const deadline = Date.now() + 5_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await b.http.get('/api/v1/auth/me').set(bearer(token))).status;
        if (status === 200) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      expect(status).toBe(401);
      // Sessions are rows: one opened on A is valid on B.
      const fresh = await login(a, 'ceo', TEST_PASSWORD);
      expect((await b.http.get('/api/v1/auth/me').set(bearer(fresh)).expect(200)).body.data.username).toBe('ceo');
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
