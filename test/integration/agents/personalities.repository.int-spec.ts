import { PersonalityPresetEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { PersonalitiesRepository } from '../../../apps/api/src/modules/agents/personalities.repository';

const AT = new Date('2020-01-01T00:00:00.000Z');

function preset(name: string, openness: number): PersonalityPresetEntity {
  return { name, personality: { traits: ['calm'], big_five: { openness } }, createdAt: AT, updatedAt: AT };
}

describe.each(testBackends())('PersonalitiesRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: PersonalitiesRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new PersonalitiesRepository(store.database);
  });

  beforeEach(() => store.clear(PersonalityPresetEntity));

  afterAll(() => store?.close());

  it('should list custom presets by name with their JSON intact', async () => {
    await repo.insert(preset('zen_master', 0.2));
    await repo.insert(preset('bold_explorer', 0.95));

    const all = await repo.all();

    expect(all.map((p) => p.name)).toEqual(['bold_explorer', 'zen_master']);
    expect(all[0]).toEqual(preset('bold_explorer', 0.95));
  });

  it('should refuse a second preset under a name already taken', async () => {
    await repo.insert(preset('zen_master', 0.2));

    await expect(repo.insert(preset('zen_master', 0.5))).rejects.toThrow();
    expect((await repo.find('zen_master'))?.personality).toEqual(preset('zen_master', 0.2).personality);
  });

  it('should replace the personality on update and answer the stored update time', async () => {
    await repo.insert(preset('zen_master', 0.2));

    const updatedAt = await repo.update('zen_master', { traits: ['focused'] });

    const saved = await repo.find('zen_master');
    expect(saved?.personality).toEqual({ traits: ['focused'] });
    expect(saved?.updatedAt).toEqual(updatedAt);
    expect(saved?.createdAt).toEqual(AT);
  });

  it('should answer whether a delete removed anything', async () => {
    await repo.insert(preset('zen_master', 0.2));

    expect(await repo.delete('zen_master')).toBe(true);
    expect(await repo.delete('zen_master')).toBe(false);
    expect(await repo.find('zen_master')).toBeNull();
  });
});
