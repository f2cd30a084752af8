import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { PageRequest } from '@app/domain';
import { ProjectEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

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
  ): Promise<{ items: ProjectEntity[]; total: number }> {
    const [items, total] = await this.repo.findAndCount({
      where: { ...(filter.status ? { status: filter.status } : {}), ...(filter.lead ? { lead: filter.lead } : {}) },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: request.offset,
      take: request.limit,
    });
    return { items, total };
  }

  findById(id: string): Promise<ProjectEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByName(key: string): Promise<ProjectEntity | null> {
    return this.repo.findOneBy({ nameKey: key });
  }

  async insert(row: ProjectEntity): Promise<void> {
    await this.repo.insert(row);
  }
}
