import type { DataSource } from 'typeorm';

import { createDataSource, IdempotencyKeyEntity, runMigrations } from '@app/persistence';
import {
  type DatabaseService,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  IdempotencyKeyRepository,
} from '@app/platform';
import { createTestDatabase, type TestDatabase, testBackends } from '@app/testing';

const T0 = new Date('2026-05-01T10:00:00.000Z');
const later = (ms: number): Date => new Date(T0.getTime() + ms);

describe.each(testBackends())('IdempotencyKeyRepository on %s', (backend) => {
  let db: TestDatabase;
  let source: DataSource;
  let keys: IdempotencyKeyRepository;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    source = await createDataSource(db.settings).initialize();
    await runMigrations(source);
    keys = new IdempotencyKeyRepository({ dataSource: source } as DatabaseService);
  });

  afterAll(async () => {
    await source?.destroy();
    await db?.drop();
  });

  it('should let exactly one of several concurrent claims win', async () => {
    const claims = await Promise.all(Array.from({ length: 8 }, () => keys.claim('race', 'fp', T0)));
    expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.state === 'in_flight')).toHaveLength(7);
  });

  it('should report the stored answer once the holder completes', async () => {
    const claim = await keys.claim('done', 'fp', T0);
    if (claim.state !== 'claimed') {
      throw new Error('expected the first claim to win');
    }
    expect(await keys.complete('done', claim.claimToken, 201, '{"kind":"body","body":{"ok":true}}')).toBe(true);
    expect(await keys.claim('done', 'other', later(1000))).toEqual({
      state: 'completed',
      fingerprint: 'fp',
      statusCode: 201,
      response: '{"kind":"body","body":{"ok":true}}',
    });
  });

  it('should not let a request that lost its claim complete or release the key', async () => {
    const first = await keys.claim('lease', 'fp', T0);
    const taken = await keys.claim('lease', 'fp2', later(IDEMPOTENCY_LEASE_MS + 1));
    expect(taken.state).toBe('claimed');
    if (first.state !== 'claimed' || taken.state !== 'claimed') {
      throw new Error('expected both claims to win in turn');
    }
    expect(await keys.complete('lease', first.claimToken, 201, '{}')).toBe(false);
    await keys.release('lease', first.claimToken);
    expect(await keys.claim('lease', 'fp2', later(IDEMPOTENCY_LEASE_MS + 2))).toEqual({
      state: 'in_flight',
      fingerprint: 'fp2',
    });
  });

  it('should free a released key for the next claim', async () => {
    const claim = await keys.claim('released', 'fp', T0);
    if (claim.state !== 'claimed') {
      throw new Error('expected the first claim to win');
    }
    await keys.release('released', claim.claimToken);
    expect((await keys.claim('released', 'fp', T0)).state).toBe('claimed');
  });

  it('should ignore an expired answer and purge expired rows', async () => {
    const claim = await keys.claim('old', 'fp', T0);
    if (claim.state !== 'claimed') {
      throw new Error('expected the first claim to win');
    }
    await keys.complete('old', claim.claimToken, 200, '{}');
    expect((await keys.claim('old', 'new-fp', later(IDEMPOTENCY_TTL_MS))).state).toBe('claimed');
    const stale = await keys.claim('stale', 'fp', T0);
    expect(stale.state).toBe('claimed');
    const purged = await keys.purgeExpired(later(IDEMPOTENCY_TTL_MS + 1));
    expect(purged).toBeGreaterThan(0);
    const left = (await source.getRepository(IdempotencyKeyEntity).findBy({})).map((row) => row.id);
    // Rows claimed at T0 are gone; the ones claimed later (the retaken 'old' and 'lease') stay.
    expect(left).toContain('old');
    expect(left).not.toContain('stale');
    expect(left).not.toContain('race');
  });
});
