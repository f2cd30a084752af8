import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { PageRequest } from '@app/domain';
import { AuditEntryEntity, pagedQuery } from '@app/persistence';
import { DatabaseService } from '@app/platform';

import { AUDIT_ROW_COLUMNS, type AuditRow } from './audit.mapper';

/** The action of the checkpoint row a retention prune leaves behind. */
export const PRUNE_ACTION = 'audit.pruned';

/** The list's filters. */
export interface AuditFilter {
  actor?: string;
  action?: string;
  since?: Date;
  until?: Date;
}

/**
 * The only TypeORM user for the audit trail. Rows are only ever inserted: the primary key on `seq`
 * makes an append a compare-and-set on the chain's tail (a concurrent append gets a key conflict).
 */
@Injectable()
export class AuditRepository {
  constructor(private readonly database: DatabaseService) {}

  private rows(): Repository<AuditEntryEntity> {
    return this.database.dataSource.getRepository(AuditEntryEntity);
  }

  /** The chain's last row, if any. */
  tail(): Promise<AuditEntryEntity | null> {
    return this.rows().findOne({ where: {}, order: { seq: 'DESC' } });
  }

  /** Inserts the row; false when another writer took its `seq` first. */
  async append(row: AuditEntryEntity): Promise<boolean> {
    try {
      await this.rows().insert(row);
      return true;
    } catch (error) {
      if (await this.rows().existsBy({ seq: row.seq })) {
        return false;
      }
      throw error;
    }
  }

  /** The last row written before `cutoff`, if any. */
  lastBefore(cutoff: Date): Promise<AuditEntryEntity | null> {
    return this.rows().createQueryBuilder('a').where('a.at < :cutoff', { cutoff }).orderBy('a.seq', 'DESC').getOne();
  }

  /** Deletes the rows up to and including `seq` (retention); answers how many went. */
  async deleteThrough(seq: number): Promise<number> {
    const result = await this.rows()
      .createQueryBuilder()
      .delete()
      .from(AuditEntryEntity)
      .where('seq <= :seq', { seq })
      .execute();
    return result.affected ?? 0;
  }

  /** The checkpoint written when the rows through `seq` were pruned, if any. */
  async checkpointThrough(seq: number): Promise<{ hash: string } | null> {
    const rows = await this.rows().find({ where: { action: PRUNE_ACTION }, order: { seq: 'DESC' }, take: 50 });
    const found = rows.find((row) => row.details.through_seq === seq);
    return found ? { hash: String(found.details.through_hash) } : null;
  }

  /** Rows in chain order after `afterSeq`, at most `limit`. */
  after(afterSeq: number, limit: number): Promise<AuditEntryEntity[]> {
    return this.rows()
      .createQueryBuilder('a')
      .where('a.seq > :afterSeq', { afterSeq })
      .orderBy('a.seq', 'ASC')
      .take(limit)
      .getMany();
  }

  /** One page, newest first. */
  page(filter: AuditFilter, request: PageRequest): Promise<{ rows: AuditRow[]; total: number }> {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.actor) {
      where.push('actor = :actor');
      params.actor = filter.actor;
    }
    if (filter.action) {
      where.push('action = :action');
      params.action = filter.action;
    }
    if (filter.since) {
      where.push('at >= :since');
      params.since = filter.since;
    }
    if (filter.until) {
      where.push('at <= :until');
      params.until = filter.until;
    }
    return pagedQuery<AuditRow>({
      source: this.database.dataSource,
      table: 'audit_entries',
      columns: AUDIT_ROW_COLUMNS,
      where,
      params,
      orderBy: ['at DESC', 'seq DESC'],
      offset: request.offset,
      limit: request.limit,
    });
  }
}
