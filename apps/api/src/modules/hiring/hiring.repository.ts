import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { HiringStatus, PageRequest } from '@app/domain';
import { HiringRequestEntity } from '@app/persistence';
import { DatabaseService, type Transaction } from '@app/platform';

/** The columns a compare-and-set write of a request may change. */
export type HiringRequestChanges = Partial<
  Pick<
    HiringRequestEntity,
    'status' | 'selectedCandidateId' | 'approvalId' | 'decidedBy' | 'decisionReason' | 'agentId'
  >
>;

/**
 * The only TypeORM user for hiring requests. Every change is a compare-and-set on the request's
 * version (and, where given, its status), so two decisions or two instantiations never both apply.
 */
@Injectable()
export class HiringRepository {
  constructor(private readonly database: DatabaseService) {}

  private rows(): Repository<HiringRequestEntity> {
    return this.database.dataSource.getRepository(HiringRequestEntity);
  }

  /** One page, oldest first (the id breaking ties), and the total; the status and created-at index serves it. */
  async page(
    status: HiringStatus | undefined,
    request: PageRequest,
  ): Promise<{ rows: HiringRequestEntity[]; total: number }> {
    const [rows, total] = await this.rows().findAndCount({
      where: status ? { status } : {},
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: request.offset,
      take: request.limit,
    });
    return { rows, total };
  }

  findById(id: string): Promise<HiringRequestEntity | null> {
    return this.rows().findOneBy({ id });
  }

  findByApproval(approvalId: string): Promise<HiringRequestEntity | null> {
    return this.rows().findOneBy({ approvalId });
  }

  /** Pending requests waiting on an approval item (the startup reconciliation reads them). */
  pendingWithApproval(limit: number): Promise<HiringRequestEntity[]> {
    return this.rows()
      .createQueryBuilder('h')
      .where('h.status = :pending AND h.approval_id IS NOT NULL', { pending: 'pending' })
      .orderBy('h.created_at', 'ASC')
      .take(limit)
      .getMany();
  }

  async insert(row: HiringRequestEntity): Promise<void> {
    await this.rows().insert(row);
  }

  /** Applies the changes if the request is still at `base.version`; the new row, or null. */
  async update(
    base: HiringRequestEntity,
    changes: HiringRequestChanges,
    tx?: Transaction,
  ): Promise<HiringRequestEntity | null> {
    const updatedAt = new Date();
    const result = await this.database
      .manager(tx)
      .getRepository(HiringRequestEntity)
      .update({ id: base.id, version: base.version }, { ...changes, version: base.version + 1, updatedAt });
    if (!result.affected) {
      return null;
    }
    return { ...base, ...changes, version: base.version + 1, updatedAt };
  }
}
