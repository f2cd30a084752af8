import { AgentEntity, AgentLifecycleEventEntity, SettingEntity, UserEntity } from '@app/persistence';
import {
  agentEventRow,
  agentRow,
  type MigratedDatabase,
  openMigratedDatabase,
  testBackends,
  userRow,
} from '@app/testing';

import { NAME_LOCALES, SETUP_COMPLETE, SetupRepository } from '../../../apps/api/src/modules/setup/setup.repository';

describe.each(testBackends())('SetupRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: SetupRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new SetupRepository(store.database);
  });

  beforeEach(() => store.clear(AgentLifecycleEventEntity, AgentEntity, SettingEntity, UserEntity));

  afterAll(() => store?.close());

  it('should answer null for an unwritten setting and the last value written otherwise', async () => {
    expect(await repo.read(SETUP_COMPLETE)).toBeNull();

    await repo.write(SETUP_COMPLETE, 'false');
    await repo.write(NAME_LOCALES, '["en","fr"]');
    await repo.write(SETUP_COMPLETE, 'true');

    expect(await repo.read(SETUP_COMPLETE)).toBe('true');
    expect(await repo.read(NAME_LOCALES)).toBe('["en","fr"]');
    expect(await store.source.getRepository(SettingEntity).count()).toBe(2);
  });

  it('should drop a setting written in a transaction that rolls back', async () => {
    const failed = store.source.transaction(async (manager) => {
      await repo.write(SETUP_COMPLETE, 'true', manager);
      throw new Error('abort');
    });

    await expect(failed).rejects.toThrow('abort');
    expect(await repo.read(SETUP_COMPLETE)).toBeNull();
  });

  it('should count only the accounts of the asked role', async () => {
    await store.source
      .getRepository(UserEntity)
      .insert([
        userRow({ username: 'ceo', role: 'ceo' }),
        userRow({ username: 'obs-1' }),
        userRow({ username: 'obs-2' }),
      ]);

    expect(await repo.countUsersWithRole('ceo')).toBe(1);
    expect(await repo.countUsersWithRole('observer')).toBe(2);
    expect(await repo.countUsersWithRole('manager')).toBe(0);
  });

  it('should clear the roster and its career log, leaving settings alone', async () => {
    await store.source.getRepository(AgentEntity).insert([agentRow({ name: 'Ada' }), agentRow({ name: 'Grace' })]);
    await store.source.getRepository(AgentLifecycleEventEntity).insert([agentEventRow({ agentId: 'agent-ada' })]);
    await repo.write(NAME_LOCALES, '["en"]');

    await store.source.transaction((manager) => repo.clearRoster(manager));

    expect(await store.source.getRepository(AgentEntity).count()).toBe(0);
    expect(await store.source.getRepository(AgentLifecycleEventEntity).count()).toBe(0);
    expect(await repo.read(NAME_LOCALES)).toBe('["en"]');
  });
});
