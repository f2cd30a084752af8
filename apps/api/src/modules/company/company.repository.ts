import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import { type PageRequest } from '@app/domain';
import {
  COMPANY_SINGLETON_ID,
  CompanyEntity,
  DepartmentEntity,
  EntityStatements,
  type JsonObject,
  pagedQuery,
} from '@app/persistence';
import { DatabaseService, type Transaction } from '@app/platform';

import { DEPARTMENT_ROW_COLUMNS, type DepartmentRow } from './company.mapper';

/** The only TypeORM user for the company row and its departments. */
@Injectable()
export class CompanyRepository {
  constructor(private readonly database: DatabaseService) {}

  private companies(tx?: Transaction): Repository<CompanyEntity> {
    return this.database.manager(tx).getRepository(CompanyEntity);
  }

  private departments(tx?: Transaction): Repository<DepartmentEntity> {
    return this.database.manager(tx).getRepository(DepartmentEntity);
  }

  findCompany(tx?: Transaction): Promise<CompanyEntity | null> {
    return this.companies(tx).findOneBy({ id: COMPANY_SINGLETON_ID });
  }

  /** The company's currency alone, or null while there is no company. */
  async findCurrency(): Promise<string | null> {
    const row = await this.companies().findOne({
      where: { id: COMPANY_SINGLETON_ID },
      select: { id: true, currency: true },
    });
    return row?.currency ?? null;
  }

  async saveCompany(company: CompanyEntity, tx?: Transaction): Promise<void> {
    await this.companies(tx).save(company);
  }

  allDepartments(tx?: Transaction): Promise<DepartmentEntity[]> {
    return this.departments(tx).find({ order: { position: 'ASC' } });
  }

  /** One page of departments in display order, as raw rows of the response's columns. */
  async pageDepartments(request: PageRequest): Promise<{ items: DepartmentRow[]; total: number }> {
    const { rows, total } = await pagedQuery<DepartmentRow>({
      source: this.database.dataSource,
      table: 'departments',
      columns: DEPARTMENT_ROW_COLUMNS,
      orderBy: ['position ASC'],
      offset: request.offset,
      limit: request.limit,
    });
    return { items: rows, total };
  }

  /** Read on every tool call (autonomy inherited from the department): without the query builder. */
  findDepartment(key: string, tx?: Transaction): Promise<DepartmentEntity | null> {
    return EntityStatements.for(this.database.dataSource, DepartmentEntity).findOne(
      { nameKey: key },
      {},
      this.database.manager(tx),
    );
  }

  async insertDepartments(rows: DepartmentEntity[], tx?: Transaction): Promise<void> {
    if (rows.length > 0) {
      await this.departments(tx).insert(rows);
    }
  }

  async deleteAllDepartments(tx: Transaction): Promise<void> {
    await this.departments(tx).createQueryBuilder().delete().execute();
  }

  async nextDepartmentPosition(tx?: Transaction): Promise<number> {
    const raw = await this.departments(tx)
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

  /** Sets a department's autonomy level (null: inherit the company default), bumping its version. */
  async setAutonomyLevel(id: string, level: string | null): Promise<void> {
    await this.departments()
      .createQueryBuilder()
      .update(DepartmentEntity)
      .set({ autonomyLevel: level, version: () => 'version + 1', updatedAt: new Date() })
      .where('id = :id', { id })
      .execute();
  }
}
