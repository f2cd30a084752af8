import { createHmac } from 'node:crypto';

import { Client } from 'pg';
import type { Response } from 'supertest';

import { ReplicaLink, unconfirmedAllowance } from '@app/platform';
import { createTestDatabase, type TestDatabase, testBackends } from '@app/testing';

import { bearer, login, setupCeo, startTestApp, TEST_JWT_SECRET, TEST_PASSWORD, type TestApp } from '../support';

// Two whole app instances on one Postgres database take a few seconds to start on a busy machine.
jest.setTimeout(60_000);

const STATUS = '/api/v1/setup/status';
const ME = '/api/v1/auth/me';

/** The CLI's short-lived system token, signed with the shared secret. */
function systemToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'system', iss: 'synthorg-cli', aud: 'synthorg-backend', iat: now, exp: now + 300 })}`;
  return `${body}.${createHmac('sha256', TEST_JWT_SECRET).update(body).digest('base64url')}`;
}

/** The session id (`jti`) a session token carries. */
function sessionIdOf(token: string): string {
  const payload = token.split('.')[1] ?? '';
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { jti: string }).jti;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function expectRefusal(res: Response, policy: string): void {
  expect(res.status).toBe(429);
  expect(res.body.error_detail.error_code).toBe(5000);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['ratelimit-policy']).toBe(policy);
  expect(res.headers['ratelimit']).toMatch(/^"default";r=0;t=\d+$/);
}

describe.each(testBackends())('rate limits per identity type on %s', (backend) => {
  it('should count people and the System identity against their own limits and report them in headers', async () => {
    const t = await startTestApp({
      backend,
      env: {
        SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '3',
        SYNTHORG_RATE_LIMIT_SYSTEM_PER_MINUTE: '5',
        SYNTHORG_ENGINE_ENABLED: 'false',
      },
    });
    try {
      const ceo = await setupCeo(t);
      for (let i = 0; i < 3; i++) {
        const res = await t.http.get(STATUS).set(bearer(ceo)).expect(200);
        expect(res.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
        expect(res.headers['ratelimit']).toMatch(new RegExp(`^"default";r=${2 - i};t=\\d+$`));
        expect(res.headers['x-ratelimit-limit']).toBe('3'); // the older trio stays
      }
      expectRefusal(await t.http.get(STATUS).set(bearer(ceo)), '"default";q=3;w=60');
      const system = systemToken();
      for (let i = 0; i < 5; i++) {
        const res = await t.http.get(STATUS).set(bearer(system)).expect(200);
        expect(res.headers['ratelimit-policy']).toBe('"default";q=5;w=60');
      }
      expectRefusal(await t.http.get(STATUS).set(bearer(system)), '"default";q=5;w=60');
    } finally {
      await t.close();
    }
  });
});

describe('rate limits and sessions across two replicas on postgres', () => {
  const SYSTEM_LIMIT = 100;
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let ceo: string;

  beforeAll(async () => {
    const env = {
      SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
      SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
      SYNTHORG_RATE_LIMIT_SYSTEM_PER_MINUTE: String(SYSTEM_LIMIT),
      SYNTHORG_ENGINE_ENABLED: 'false',
    };
    db = await createTestDatabase('postgres');
    a = await startTestApp({ backend: 'postgres', database: db, env });
    b = await startTestApp({ backend: 'postgres', database: db, env });
    ceo = await setupCeo(a); // the first of this minute's ten setup requests
    await until(() => a.app.get(ReplicaLink).isLinked && b.app.get(ReplicaLink).isLinked, 10_000);
  });

  afterAll(async () => {
    await a.close();
    await b.close();
    await db.drop();
  });

  it('should hold the authentication endpoints to exactly 10 a minute across both replicas', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).http.post('/api/v1/auth/setup').send({ username: 'late', password: TEST_PASSWORD }),
      ),
    );
    const limited = answers.filter((res) => res.status === 429 && res.body.error_detail.error_code === 5000);
    // Ten in the minute: the setup of beforeAll and nine of these (answered 409: a CEO exists).
    expect(answers.filter((res) => res.status === 409)).toHaveLength(9);
    expect(limited).toHaveLength(11);
    expect(limited[0]?.headers['ratelimit']).toMatch(/"auth";r=0;t=\d+/);
  });

  it('should hold the general limit within limit + B when requests alternate between the replicas', async () => {
    const system = systemToken();
    let admitted = 0;
    for (let i = 0; i < 150; i++) {
      const pair = await Promise.all([a.http.get(STATUS).set(bearer(system)), b.http.get(STATUS).set(bearer(system))]);
      admitted += pair.filter((res) => res.status === 200).length;
    }
    expect(admitted).toBeGreaterThanOrEqual(SYSTEM_LIMIT);
    expect(admitted).toBeLessThanOrEqual(SYSTEM_LIMIT + unconfirmedAllowance(SYSTEM_LIMIT));
    expectRefusal(await b.http.get(STATUS).set(bearer(system)), `"default";q=${SYSTEM_LIMIT};w=60`);
  });

  it('should refuse a session revoked on one replica on the other within a second', async () => {
    const token = await login(a, 'ceo', TEST_PASSWORD);
    await b.http.get(ME).set(bearer(token)).expect(200); // cached on B
    await b.http.get(ME).set(bearer(token)).expect(200);
    await a.http.post('/api/v1/auth/logout').set(bearer(token)).expect(204);
    const revokedAt = Date.now();
    await until(async () => (await b.http.get(ME).set(bearer(token))).status === 401, 1_000);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
    await b.http.get(ME).set(bearer(ceo)).expect(200); // other sessions stay valid
  });

  it('should bypass the session cache while the link to the other replicas is down', async () => {
    const token = await login(a, 'ceo', TEST_PASSWORD);
    await b.http.get(ME).set(bearer(token)).expect(200); // cached on B
    const admin = new Client({ connectionString: db.env.SYNTHORG_DATABASE_URL });
    await admin.connect();
    try {
      // Every replica's event listener loses its connection: evictions can no longer arrive.
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'synthorg-events'",
      );
      await until(() => !b.app.get(ReplicaLink).isLinked, 5_000);
      // A revocation B cannot hear of (written straight to the table): B must not answer from its cache.
      await admin.query('UPDATE sessions SET revoked_at = now() WHERE id = $1', [sessionIdOf(token)]);
      await b.http.get(ME).set(bearer(token)).expect(401);
      await b.http.get(ME).set(bearer(ceo)).expect(200);
      await until(() => b.app.get(ReplicaLink).isLinked, 10_000);
      await b.http.get(ME).set(bearer(ceo)).expect(200);
      await b.http.get(ME).set(bearer(token)).expect(401);
    } finally {
      await admin.end();
    }
  });
});
