import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { PageRequest } from '@app/domain';
import { pagedQuery, ReportEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

import { REPORT_ROW_COLUMNS, type ReportRow } from './reports.mapper';

/** The only TypeORM user for reports. */
@Injectable()
export class ReportsRepository {
  constructor(private readonly database: DatabaseService) {}

  private get rows(): Repository<ReportEntity> {
    return this.database.dataSource.getRepository(ReportEntity);
  }

  /** One page of list rows (no content), newest first, the id breaking ties, and the total. */
  async page(request: PageRequest): Promise<{ items: ReportRow[]; total: number }> {
    const { rows, total } = await pagedQuery<ReportRow>({
      source: this.database.dataSource,
      table: 'reports',
      columns: REPORT_ROW_COLUMNS,
      orderBy: ['generated_at DESC', 'id DESC'],
      offset: request.offset,
      limit: request.limit,
    });
    return { items: rows, total };
  }

  findById(id: string): Promise<ReportEntity | null> {
    return this.rows.findOneBy({ id });
  }

  async insert(row: ReportEntity): Promise<void> {
    await this.rows.insert(row);
  }

  /** Whether the scheduled report of that key is stored already. */
  async hasScheduled(scheduleKey: string): Promise<boolean> {
    return (await this.rows.countBy({ scheduleKey })) > 0;
  }
}
