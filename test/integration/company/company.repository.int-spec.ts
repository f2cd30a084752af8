import { CompanyEntity, DepartmentEntity } from '@app/persistence';
import { UnitOfWork } from '@app/platform';
import { companyRow, departmentRow, type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { toDepartment, toDepartmentFromRow } from '../../../apps/api/src/modules/company/company.mapper';
import { CompanyRepository } from '../../../apps/api/src/modules/company/company.repository';

describe.each(testBackends())('CompanyRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: CompanyRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new CompanyRepository(store.database);
  });

  beforeEach(() => store.clear(DepartmentEntity, CompanyEntity));

  afterAll(() => store?.close());

  it('should keep one company row, saved over in place', async () => {
    expect(await repo.findCompany()).toBeNull();
    await repo.saveCompany(companyRow({ name: 'Acme Labs' }));

    await repo.saveCompany(companyRow({ name: 'Acme Robotics', budgetMonthly: 250.5, ceremonyStrategy: 'sprint' }));

    expect(await repo.findCompany()).toEqual(
      companyRow({ name: 'Acme Robotics', budgetMonthly: 250.5, ceremonyStrategy: 'sprint' }),
    );
    expect(await store.source.getRepository(CompanyEntity).count()).toBe(1);
  });

  it('should page departments in position order and find one by its key', async () => {
    await repo.insertDepartments([
      departmentRow({ name: 'Design', position: 2 }),
      departmentRow({ name: 'Engineering', position: 0, teams: [{ name: 'core', members: ['Ada'] }] }),
      departmentRow({ name: 'Sales', position: 1, policies: { review: 'two_person' } }),
    ]);

    const page = await repo.pageDepartments({ offset: 0, limit: 2 });

    expect(page.total).toBe(3);
    expect(page.items.map((d) => d.name)).toEqual(['Engineering', 'Sales']);
    expect(page.items.map((row) => toDepartmentFromRow(row, 0))[0].teams).toEqual([{ name: 'core', members: ['Ada'] }]);
    expect((await repo.findDepartment('sales'))?.policies).toEqual({ review: 'two_person' });
    expect(await repo.findDepartment('Sales')).toBeNull();
    expect(await repo.nextDepartmentPosition()).toBe(3);
  });

  it('should map a raw list row to exactly what the stored entity maps to', async () => {
    await repo.insertDepartments([
      departmentRow({ name: 'Engineering', position: 0, budgetPercent: 37.5, autonomyLevel: 'semi' }),
      departmentRow({ name: 'Sales', position: 1, ceremonyPolicy: { strategy: 'kanban' }, head: 'cso' }),
    ]);

    const page = await repo.pageDepartments({ offset: 0, limit: 10 });
    const stored = await Promise.all(['engineering', 'sales'].map((key) => repo.findDepartment(key)));

    expect(JSON.stringify(page.items.map((row) => toDepartmentFromRow(row, 2)))).toBe(
      JSON.stringify(stored.map((row) => toDepartment(row as DepartmentEntity, 2))),
    );
  });

  it('should write a ceremony policy only over the version it was read at', async () => {
    await repo.insertDepartments([departmentRow({ name: 'Engineering' })]);
    const read = await repo.findDepartment('engineering');

    const first = await repo.setCeremonyPolicy(read!.id, read!.version, { strategy: 'kanban' });
    const stale = await repo.setCeremonyPolicy(read!.id, read!.version, { strategy: 'sprint' });

    const saved = await repo.findDepartment('engineering');
    expect([first, stale]).toEqual([true, false]);
    expect(saved?.ceremonyPolicy).toEqual({ strategy: 'kanban' });
    expect(saved?.version).toBe(read!.version + 1);
  });

  it('should empty the departments inside a transaction', async () => {
    await repo.insertDepartments([departmentRow({ name: 'Design' }), departmentRow({ name: 'Sales' })]);

    await new UnitOfWork(store.database).run((tx) => repo.deleteAllDepartments(tx));

    expect(await repo.allDepartments()).toEqual([]);
    expect(await repo.nextDepartmentPosition()).toBe(0);
  });
});
