import { ProviderCallEntity, ProviderEntity, SettingEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, providerRow, testBackends } from '@app/testing';

import {
  type NewProviderCall,
  ProvidersRepository,
} from '../../../apps/api/src/modules/providers/providers.repository';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

function call(overrides: Partial<NewProviderCall> = {}): NewProviderCall {
  return {
    provider: 'alpha',
    model: 'medium-model',
    kind: 'chat',
    startedAt: minutesAgo(10),
    latencyMs: 100,
    success: true,
    errorCode: null,
    inputTokens: 10,
    outputTokens: 5,
    cost: 0.01,
    ...overrides,
  };
}

describe.each(testBackends())('ProvidersRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: ProvidersRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new ProvidersRepository(store.database);
  });

  beforeEach(() => store.clear(ProviderCallEntity, ProviderEntity, SettingEntity));

  afterAll(() => store?.close());

  it('should read a provider back whole and page providers by name', async () => {
    const beta = providerRow({
      name: 'beta',
      quota: { requests_per_minute: 60 },
      secrets: 'sealed',
      secretsKeyId: 'k1',
    });
    await repo.insert(beta);
    await repo.insert(providerRow({ name: 'alpha' }));
    await repo.insert(providerRow({ name: 'gamma' }));

    const page = await repo.page(1, 5);

    expect(await repo.findByName('beta')).toEqual(beta);
    expect(page).toMatchObject({ total: 3, items: [{ name: 'beta' }, { name: 'gamma' }] });
    expect(await repo.count()).toBe(3);
  });

  it('should update a provider only over the version it was read at', async () => {
    await repo.insert(providerRow({ name: 'alpha' }));

    const first = await repo.update(providerRow({ name: 'alpha', baseUrl: 'http://127.0.0.1:2', version: 2 }), 1);
    const stale = await repo.update(providerRow({ name: 'alpha', baseUrl: 'http://127.0.0.1:3', version: 2 }), 1);

    expect([first, stale]).toEqual([true, false]);
    expect(await repo.findByName('alpha')).toMatchObject({ baseUrl: 'http://127.0.0.1:2', version: 2 });
  });

  it('should answer whether a delete removed anything', async () => {
    await repo.insert(providerRow({ name: 'alpha' }));

    expect(await repo.delete('alpha')).toBe(true);
    expect(await repo.delete('alpha')).toBe(false);
  });

  it("should store a batch of calls in one write and sum one provider's calls inside the window", async () => {
    await repo.recordCalls([
      call({ startedAt: minutesAgo(30), latencyMs: 200, inputTokens: 100, outputTokens: 50, cost: 0.5 }),
      call({ startedAt: minutesAgo(5), latencyMs: 300, success: false, errorCode: 7001, cost: 0 }),
      call({ startedAt: minutesAgo(60 * 25), latencyMs: 999 }),
    ]);
    await repo.recordCalls([call({ provider: 'beta', startedAt: minutesAgo(1) })]);

    const stats = await repo.callStats('alpha', minutesAgo(60 * 24));
    const since = await repo.callsSince(minutesAgo(60));

    expect(stats).toEqual({
      calls: 2,
      errors: 1,
      totalLatencyMs: 500,
      totalTokens: 165,
      totalCost: 0.5,
      lastCallAt: minutesAgo(5),
    });
    expect(since.map((c) => c.provider).sort()).toEqual(['alpha', 'alpha', 'beta']);
  });
});
