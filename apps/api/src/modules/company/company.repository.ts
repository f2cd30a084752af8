import { Injectable } from '@nestjs/common';
import type { EntityManager, Repository } from 'typeorm';

import { type PageRequest } from '@app/domain';
import { COMPANY_SINGLETON_ID, CompanyEntity, DepartmentEntity, type JsonObject } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user for the company row and its departments. */
@Injectable()
export class CompanyRepository {
  constructor(private readonly database: DatabaseService) {}

  private companies(manager?: EntityManager): Repository<CompanyEntity> {
    return (manager ?? this.database.dataSource.manager).getRepository(CompanyEntity);
  }

  private departments(manager?: EntityManager): Repository<DepartmentEntity> {
    return (manager ?? this.database.dataSource.manager).getRepository(DepartmentEntity);
  }

  findCompany(manager?: EntityManager): Promise<CompanyEntity | null> {
    return this.companies(manager).findOneBy({ id: COMPANY_SINGLETON_ID });
  }

  async saveCompany(company: CompanyEntity, manager?: EntityManager): Promise<void> {
    await this.companies(manager).save(company);
  }

  allDepartments(manager?: EntityManager): Promise<DepartmentEntity[]> {
    return this.departments(manager).find({ order: { position: 'ASC' } });
  }

  async pageDepartments(request: PageRequest): Promise<{ items: DepartmentEntity[]; total: number }> {
    const [items, total] = await this.departments().findAndCount({
      order: { position: 'ASC' },
      skip: request.offset,
      take: request.limit,
    });
    return { items, total };
  }

  findDepartment(key: string, manager?: EntityManager): Promise<DepartmentEntity | null> {
    return this.departments(manager).findOneBy({ nameKey: key });
  }

  async insertDepartments(rows: DepartmentEntity[], manager?: EntityManager): Promise<void> {
    if (rows.length > 0) {
      await this.departments(manager).insert(rows);
    }
  }

  async deleteAllDepartments(manager: EntityManager): Promise<void> {
    await this.departments(manager).createQueryBuilder().delete().execute();
  }

  async nextDepartmentPosition(manager?: EntityManager): Promise<number> {
    const raw = await this.departments(manager)
      .createQueryBuilder('d')
      .select('MAX(d.position)', 'max')
      .getRawOne<{ max: number | string | null }>();
    return raw?.max === null || raw?.max === undefined ? 0 : Number(raw.max) + 1;
  }

  /** Compare-and-set of the ceremony policy: false when someone else wrote the row first. */
  async setCeremonyPolicy(id: string, expectedVersion: number, policy: JsonObject | null): Promise<boolean> {
    const result = await this.departments()
      .createQueryBuilder()
      .update(DepartmentEntity)
      .set({ ceremonyPolicy: policy, version: expectedVersion + 1, updatedAt: new Date() })
      .where('id = :id AND version = :version', { id, version: expectedVersion })
      .execute();
    return (result.affected ?? 0) === 1;
  }
}
