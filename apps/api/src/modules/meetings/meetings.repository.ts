import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { PageRequest } from '@app/domain';
import { MeetingEntity, pagedQuery } from '@app/persistence';
import { DatabaseService } from '@app/platform';

import { MEETING_ROW_COLUMNS, meetingFromRow } from './meetings.mapper';

export interface MeetingFilter {
  status?: string;
  meetingType?: string;
}

/** The columns a finished meeting sets. */
export type MeetingEnd = Pick<MeetingEntity, 'status' | 'minutes' | 'errorMessage' | 'updatedAt'>;

/** The only TypeORM user for meetings. */
@Injectable()
export class MeetingsRepository {
  constructor(private readonly database: DatabaseService) {}

  private rows(): Repository<MeetingEntity> {
    return this.database.dataSource.getRepository(MeetingEntity);
  }

  /** One page, oldest first (the id breaking ties), with the filter's total. */
  async page(filter: MeetingFilter, page: PageRequest): Promise<{ items: MeetingEntity[]; total: number }> {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.status !== undefined) {
      where.push('status = :status');
      params.status = filter.status;
    }
    if (filter.meetingType !== undefined) {
      where.push('meeting_type_name = :meetingType');
      params.meetingType = filter.meetingType;
    }
    const { rows, total } = await pagedQuery<Record<(typeof MEETING_ROW_COLUMNS)[number], unknown>>({
      source: this.database.dataSource,
      table: 'meetings',
      columns: MEETING_ROW_COLUMNS,
      where,
      params,
      orderBy: ['created_at ASC', 'id ASC'],
      offset: page.offset,
      limit: page.limit,
    });
    return { items: rows.map(meetingFromRow), total };
  }

  findById(id: string): Promise<MeetingEntity | null> {
    return this.rows().findOneBy({ id });
  }

  /** When a meeting of this type last started; null when none ever did. */
  async lastStartOf(meetingTypeName: string): Promise<Date | null> {
    const row = await this.rows().findOne({
      where: { meetingTypeName },
      order: { createdAt: 'DESC', id: 'DESC' },
      select: { id: true, createdAt: true },
    });
    return row?.createdAt ?? null;
  }

  async insert(row: MeetingEntity): Promise<void> {
    await this.rows().insert(row);
  }

  async finish(id: string, end: MeetingEnd): Promise<void> {
    await this.rows().update({ id }, end);
  }
}
