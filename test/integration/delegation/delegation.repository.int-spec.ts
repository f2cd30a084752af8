import { DelegationRecordEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { DelegationRepository } from '../../../apps/api/src/modules/delegation/delegation.repository';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function record(id: string, from: string, to: string, atSeconds: number): DelegationRecordEntity {
  return {
    id,
    delegatorId: from,
    delegatorName: from.toUpperCase(),
    delegateeId: to,
    delegateeName: to.toUpperCase(),
    originalTaskId: 'task-parent',
    delegatedTaskId: `task-${id}`,
    title: `Work ${id}`,
    fingerprint: `fp-${id}`,
    refinement: '',
    timestamp: new Date(T0 + atSeconds * 1000),
  };
}

describe.each(testBackends())('DelegationRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: DelegationRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new DelegationRepository(store.database);
  });

  beforeEach(() => store.clear(DelegationRecordEntity));

  afterAll(() => store?.close());

  it('should read a pair in both directions since a time, oldest first, and no other pair', async () => {
    await repo.insert(record('d-1', 'a', 'b', 0));
    await repo.insert(record('d-2', 'b', 'a', 10));
    await repo.insert(record('d-3', 'a', 'c', 20));
    await repo.insert(record('d-4', 'a', 'b', 30));
    const pair = await repo.pairSince('b', 'a', new Date(T0 + 5_000));
    expect(pair.map((r) => r.id)).toEqual(['d-2', 'd-4']);
    expect(pair[1]).toEqual(record('d-4', 'a', 'b', 30));
  });

  it("should read the feed newest first, all of it or one agent's either side", async () => {
    await repo.insert(record('d-1', 'a', 'b', 0));
    await repo.insert(record('d-2', 'b', 'c', 10));
    await repo.insert(record('d-3', 'c', 'd', 20));
    expect((await repo.since(null, undefined)).map((r) => r.id)).toEqual(['d-3', 'd-2', 'd-1']);
    expect((await repo.since(null, 'b')).map((r) => r.id)).toEqual(['d-2', 'd-1']);
    expect((await repo.since(new Date(T0 + 10_000), 'b')).map((r) => r.id)).toEqual(['d-2']);
    expect(await repo.findById('d-2')).toEqual(record('d-2', 'b', 'c', 10));
  });
});
