import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Repository } from 'typeorm';

import { Channel, type PageRequest } from '@app/domain';
import { ApprovalItemEntity, CountCache, pagedQuery, POLLED_PAGE_RETAIN_MS } from '@app/persistence';
import { DatabaseService, EventBus, ServiceMetrics, subscribeTo } from '@app/platform';

import { APPROVAL_ROW_COLUMNS, type ApprovalRow } from './approvals.mapper';

/** The list's filters; each has an index with the list's sort behind it. */
export interface ApprovalFilter {
  status?: string;
  riskLevel?: string;
  actionType?: string;
}

/** Columns a decision or a timeout step may change. */
export type ApprovalChanges = Partial<
  Pick<
    ApprovalItemEntity,
    | 'status'
    | 'decidedBy'
    | 'decisionReason'
    | 'decidedAt'
    | 'expiresAt'
    | 'onTimeout'
    | 'escalationStep'
    | 'assignedRole'
  >
>;

/**
 * The only TypeORM user for approval items. Every change is a compare-and-set on the item still
 * being pending at the version read, so two decisions (or a decision and a timeout) never both apply.
 */
@Injectable()
export class ApprovalsRepository implements OnModuleInit, OnModuleDestroy {
  private readonly counts = new CountCache({ retainMs: POLLED_PAGE_RETAIN_MS });
  private unsubscribe: (() => void) | null = null;
  private stopMeasuring: (() => void) | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly bus: EventBus,
    private readonly metrics: ServiceMetrics,
  ) {}

  onModuleInit(): void {
    // Another replica's writes reach this one's list totals through the bus.
    this.unsubscribe = subscribeTo(this.bus, Channel.Approvals, () => this.counts.invalidate());
    this.stopMeasuring = this.metrics.onScrape('approvals.pending', async () => {
      if (this.database.state === 'ready') {
        this.metrics.approvalsPending.set(await this.rows().count({ where: { status: 'pending' } }));
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.stopMeasuring?.();
  }

  private rows(): Repository<ApprovalItemEntity> {
    return this.database.dataSource.getRepository(ApprovalItemEntity);
  }

  /** One page in list order (oldest first, the id breaking ties), and the total. */
  async page(filter: ApprovalFilter, request: PageRequest): Promise<{ rows: ApprovalRow[]; total: number }> {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.status) {
      where.push('status = :status');
      params.status = filter.status;
    }
    if (filter.riskLevel) {
      where.push('risk_level = :riskLevel');
      params.riskLevel = filter.riskLevel;
    }
    if (filter.actionType) {
      where.push('action_type = :actionType');
      params.actionType = filter.actionType;
    }
    return pagedQuery<ApprovalRow>({
      source: this.database.dataSource,
      table: 'approval_items',
      columns: APPROVAL_ROW_COLUMNS,
      where,
      params,
      orderBy: ['created_at ASC', 'id ASC'],
      offset: request.offset,
      limit: request.limit,
      counts: this.counts,
    });
  }

  findById(id: string): Promise<ApprovalItemEntity | null> {
    return this.rows().findOneBy({ id });
  }

  async insert(row: ApprovalItemEntity): Promise<void> {
    await this.rows().insert(row);
    this.counts.invalidate();
  }

  /** Applies the changes if the item is still pending at `base.version`; the new row, or null. */
  async changePending(base: ApprovalItemEntity, changes: ApprovalChanges): Promise<ApprovalItemEntity | null> {
    const result = await this.rows()
      .createQueryBuilder()
      .update(ApprovalItemEntity)
      .set({ ...changes, version: () => 'version + 1' })
      .where('id = :id AND version = :version AND status = :pending', {
        id: base.id,
        version: base.version,
        pending: 'pending',
      })
      .execute();
    if (!result.affected) {
      return null;
    }
    this.counts.invalidate();
    if (changes.status !== undefined && changes.status !== 'pending' && changes.decidedAt) {
      const seconds = (changes.decidedAt.getTime() - base.createdAt.getTime()) / 1000;
      this.metrics.approvalDecision.observe({ decision: changes.status }, Math.max(0, seconds));
    }
    return { ...base, ...changes, version: base.version + 1 };
  }

  /** Pending items whose deadline has passed, earliest first. */
  overdue(now: Date, limit: number): Promise<ApprovalItemEntity[]> {
    return this.rows()
      .createQueryBuilder('a')
      .where('a.status = :pending AND a.expires_at IS NOT NULL AND a.expires_at <= :now', { pending: 'pending', now })
      .orderBy('a.expires_at', 'ASC')
      .take(limit)
      .getMany();
  }
}
