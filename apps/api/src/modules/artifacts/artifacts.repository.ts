import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { ArtifactType, PageRequest } from '@app/domain';
import { ArtifactEntity, pagedQuery, rawNumber } from '@app/persistence';
import { DatabaseService } from '@app/platform';

import { ARTIFACT_ROW_COLUMNS, type ArtifactRow } from './artifacts.mapper';

export interface ArtifactFilter {
  taskId?: string;
  createdBy?: string;
  type?: ArtifactType;
}

/** The content columns an upload sets. */
export type ArtifactContentChange = Pick<ArtifactEntity, 'contentType' | 'sizeBytes' | 'sha256' | 'updatedAt'>;

/** The only TypeORM user for artifacts. */
@Injectable()
export class ArtifactsRepository {
  constructor(private readonly database: DatabaseService) {}

  private rows(): Repository<ArtifactEntity> {
    return this.database.dataSource.getRepository(ArtifactEntity);
  }

  /** One page, oldest first (the id breaking ties), with the filter's total. */
  async page(filter: ArtifactFilter, page: PageRequest): Promise<{ items: ArtifactRow[]; total: number }> {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.taskId !== undefined) {
      where.push('task_id = :taskId');
      params.taskId = filter.taskId;
    }
    if (filter.createdBy !== undefined) {
      where.push('created_by = :createdBy');
      params.createdBy = filter.createdBy;
    }
    if (filter.type !== undefined) {
      where.push('type = :type');
      params.type = filter.type;
    }
    const { rows, total } = await pagedQuery<ArtifactRow>({
      source: this.database.dataSource,
      table: 'artifacts',
      columns: ARTIFACT_ROW_COLUMNS,
      where,
      params,
      orderBy: ['created_at ASC', 'id ASC'],
      offset: page.offset,
      limit: page.limit,
    });
    return { items: rows, total };
  }

  findById(id: string): Promise<ArtifactEntity | null> {
    return this.rows().findOneBy({ id });
  }

  /** The artifacts of a task with one of these paths. */
  findByTaskAndPaths(taskId: string, paths: readonly string[]): Promise<ArtifactEntity[]> {
    return paths.length === 0 ? Promise.resolve([]) : this.rows().findBy(paths.map((path) => ({ taskId, path })));
  }

  async insert(row: ArtifactEntity): Promise<void> {
    await this.rows().insert(row);
  }

  /** Sets the content columns; false when the artifact is gone. */
  async setContent(id: string, change: ArtifactContentChange): Promise<boolean> {
    const result = await this.rows().update({ id }, change);
    return (result.affected ?? 0) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.rows().delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Bytes of content stored over all artifacts. */
  async totalBytes(): Promise<number> {
    const row = await this.rows()
      .createQueryBuilder('a')
      .select('COALESCE(SUM(a.size_bytes), 0)', 'total')
      .getRawOne<{ total: unknown }>();
    return rawNumber(row?.total ?? 0);
  }
}
