import { ReinitialisationHooks } from '@app/platform';
import { testBackends } from '@app/testing';
import { bearer, createCompany, expectError, seedProvider, setupCeo, startTestApp, type TestApp } from '../support';

const HIGH_LIMITS = { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000', SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' };

describe.each(testBackends())('setup completion failures and races on %s', (backend) => {
  let t: TestApp;
  let ceo: string;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    ceo = await setupCeo(t);
    await createCompany(t, ceo, 'solo_founder');
    await seedProvider(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should answer 500 when a reinitialisation step fails and leave setup open for a retry', async () => {
    const unregister = t.app.get(ReinitialisationHooks).register({
      name: 'test.fail',
      order: 50,
      run: () => Promise.reject(new Error('boom: secret detail')),
    });
    try {
      const res = await t.http.post('/api/v1/setup/complete').set(bearer(ceo)).expect(500);
      expectError(res.body, 8000, 'internal');
      expect(res.body.error).not.toMatch(/boom|secret/);
      const status = await t.http.get('/api/v1/setup/status').expect(200);
      expect(status.body.data.needs_setup).toBe(true);
      // Still writable: the wizard is not locked by the failed attempt.
      await t.http
        .put('/api/v1/setup/name-locales')
        .set(bearer(ceo))
        .send({ locales: ['en_US'] })
        .expect(200);
    } finally {
      unregister();
    }
  });

  it('should let exactly one of two concurrent completions win (200 + 409/4010)', async () => {
    const results = await Promise.all([
      t.http.post('/api/v1/setup/complete').set(bearer(ceo)),
      t.http.post('/api/v1/setup/complete').set(bearer(ceo)),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200);
    expect(winner?.body.data.reinitialised).not.toContain('test.fail');
    const loser = results.find((r) => r.status === 409);
    expectError(loser?.body as Record<string, unknown>, 4010, 'conflict');
    const status = await t.http.get('/api/v1/setup/status').expect(200);
    expect(status.body.data.needs_setup).toBe(false);
  });
});

describe('setup completion across replicas on postgres', () => {
  const run = testBackends().includes('postgres') ? it : it.skip;

  run('should let exactly one replica complete setup when both try at once', async () => {
    const a = await startTestApp({ backend: 'postgres', env: HIGH_LIMITS });
    let b: TestApp | undefined;
    try {
      b = await startTestApp({ backend: 'postgres', database: a.db, env: HIGH_LIMITS });
      const ceo = await setupCeo(a);
      await createCompany(a, ceo, 'solo_founder');
      await seedProvider(a);
      // Slow the reinitialisation down on both replicas so the two runs would overlap without the lock.
      for (const app of [a, b]) {
        app.app.get(ReinitialisationHooks).register({
          name: 'test.slow',
          order: 50,
          run: () => new Promise((resolve) => setTimeout(resolve, 150)),
        });
      }
      const results = await Promise.all([
        a.http.post('/api/v1/setup/complete').set(bearer(ceo)),
        b.http.post('/api/v1/setup/complete').set(bearer(ceo)),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const loser = results.find((r) => r.status === 409);
      expectError(loser?.body as Record<string, unknown>, 4010, 'conflict');
      for (const app of [a, b]) {
        const status = await app.http.get('/api/v1/setup/status').expect(200);
        expect(status.body.data.needs_setup).toBe(false);
      }
    } finally {
      // b shares a's database: close it first, without dropping anything; a drops the database.
      await b?.close();
      await a.close();
    }
  });
});
