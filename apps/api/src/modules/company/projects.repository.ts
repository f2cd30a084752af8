import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { PageRequest } from '@app/domain';
import { EntityStatements, pagedQuery, ProjectEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The columns of `projects` a list page reads: what the response shows. */
export const PROJECT_ROW_COLUMNS = [
  'id',
  'name',
  'description',
  'team',
  'lead',
  'task_ids',
  'deadline',
  'budget',
  'status',
  'created_at',
  'updated_at',
] as const;

/** A raw `projects` row of {@link PROJECT_ROW_COLUMNS}, as either dialect answers it. */
export type ProjectRow = Record<(typeof PROJECT_ROW_COLUMNS)[number], unknown>;

/** The only TypeORM user for projects. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly database: DatabaseService) {}

  private get repo(): Repository<ProjectEntity> {
    return this.database.dataSource.getRepository(ProjectEntity);
  }

  async page(
    filter: { status?: string; lead?: string },
    request: PageRequest,
  ): Promise<{ items: ProjectRow[]; total: number }> {
    const where: string[] = [];
    if (filter.status) {
      where.push('status = :status');
    }
    if (filter.lead) {
      where.push('lead = :lead');
    }
    const { rows, total } = await pagedQuery<ProjectRow>({
      source: this.database.dataSource,
      table: 'projects',
      columns: PROJECT_ROW_COLUMNS,
      where,
      params: { ...(filter.status ? { status: filter.status } : {}), ...(filter.lead ? { lead: filter.lead } : {}) },
      orderBy: ['created_at ASC', 'id ASC'],
      offset: request.offset,
      limit: request.limit,
    });
    return { items: rows, total };
  }

  /** Read on every task create: without the query builder (see EntityStatements). */
  findById(id: string): Promise<ProjectEntity | null> {
    return EntityStatements.for(this.database.dataSource, ProjectEntity).findOne({ id });
  }

  findByName(key: string): Promise<ProjectEntity | null> {
    return this.repo.findOneBy({ nameKey: key });
  }

  async insert(row: ProjectEntity): Promise<void> {
    await this.repo.insert(row);
  }
}
