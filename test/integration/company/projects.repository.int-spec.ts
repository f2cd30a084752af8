import { ProjectEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, projectRow, testBackends } from '@app/testing';

import { ProjectsRepository } from '../../../apps/api/src/modules/company/projects.repository';

const at = (day: number) => new Date(Date.UTC(2026, 0, day));

describe.each(testBackends())('ProjectsRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: ProjectsRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new ProjectsRepository(store.database);
  });

  beforeEach(() => store.clear(ProjectEntity));

  afterAll(() => store?.close());

  it('should read a project back by id and by name key', async () => {
    const apollo = projectRow({ name: 'Apollo', team: ['Ada', 'Grace'], taskIds: ['task-1'], deadline: '2026-06-30' });
    await repo.insert(apollo);

    expect(await repo.findById(apollo.id)).toEqual(apollo);
    expect(await repo.findByName('apollo')).toEqual(apollo);
    expect(await repo.findByName('gemini')).toBeNull();
  });

  it('should refuse a second project whose name key is taken', async () => {
    await repo.insert(projectRow({ name: 'Apollo' }));

    await expect(repo.insert(projectRow({ id: 'proj-other', name: 'APOLLO' }))).rejects.toThrow();
  });

  it('should page projects oldest first, filtered by status and lead', async () => {
    await repo.insert(projectRow({ name: 'Gemini', status: 'active', lead: 'Ada', createdAt: at(3) }));
    await repo.insert(projectRow({ name: 'Apollo', status: 'active', lead: 'Ada', createdAt: at(1) }));
    await repo.insert(projectRow({ name: 'Mercury', status: 'completed', lead: 'Ada', createdAt: at(2) }));
    await repo.insert(projectRow({ name: 'Artemis', status: 'active', lead: 'Grace', createdAt: at(4) }));

    const all = await repo.page({}, { offset: 0, limit: 10 });
    const adaActive = await repo.page({ status: 'active', lead: 'Ada' }, { offset: 0, limit: 10 });
    const second = await repo.page({ status: 'active' }, { offset: 1, limit: 1 });

    expect(all.items.map((p) => p.name)).toEqual(['Apollo', 'Mercury', 'Gemini', 'Artemis']);
    expect(adaActive).toMatchObject({ total: 2, items: [{ name: 'Apollo' }, { name: 'Gemini' }] });
    expect(second).toMatchObject({ total: 3, items: [{ name: 'Gemini' }] });
  });
});
