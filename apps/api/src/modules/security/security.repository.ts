import { Injectable } from '@nestjs/common';
import { IsNull, MoreThanOrEqual, type Repository } from 'typeorm';

import { AgentTrustEntity, AutonomyDowngradeEntity, EntityStatements, SecurityRecordEntity } from '@app/persistence';
import { DatabaseService, type Transaction } from '@app/platform';

/** The only TypeORM user of the security tables; a `tx` joins the caller's unit of work. */
@Injectable()
export class SecurityRepository {
  constructor(private readonly database: DatabaseService) {}

  private records(tx?: Transaction): Repository<SecurityRecordEntity> {
    return this.database.manager(tx).getRepository(SecurityRecordEntity);
  }

  private downgrades(tx?: Transaction): Repository<AutonomyDowngradeEntity> {
    return this.database.manager(tx).getRepository(AutonomyDowngradeEntity);
  }

  private trusts(tx?: Transaction): Repository<AgentTrustEntity> {
    return this.database.manager(tx).getRepository(AgentTrustEntity);
  }

  /** One per tool call: written without the query builder (see EntityStatements). */
  async insertRecord(row: SecurityRecordEntity, tx?: Transaction): Promise<void> {
    await EntityStatements.for(this.database.dataSource, SecurityRecordEntity).insert(row, this.database.manager(tx));
  }

  /** An agent's records, newest first (bounded). */
  recordsOfAgent(agentId: string, limit: number, tx?: Transaction): Promise<SecurityRecordEntity[]> {
    return this.records(tx).find({ where: { agentId }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** How many tool calls of the agent were refused (enforced deny) since the instant. */
  countDenials(agentId: string, since: Date, tx?: Transaction): Promise<number> {
    return this.records(tx).countBy({
      agentId,
      kind: 'tool_call',
      enforced: 'deny',
      createdAt: MoreThanOrEqual(since),
    });
  }

  /** Read on every tool call (the autonomy level): without the query builder (see EntityStatements). */
  findDowngrade(agentId: string, tx?: Transaction): Promise<AutonomyDowngradeEntity | null> {
    return EntityStatements.for(this.database.dataSource, AutonomyDowngradeEntity).findOne(
      { agentId },
      {},
      this.database.manager(tx),
    );
  }

  async saveDowngrade(row: AutonomyDowngradeEntity, tx?: Transaction): Promise<void> {
    await this.downgrades(tx).save(row);
  }

  async deleteDowngrade(agentId: string, tx?: Transaction): Promise<void> {
    await this.downgrades(tx).delete({ agentId });
  }

  /** When the agent's newest record of the kind was written, or null: one entry of the (agent, kind) index. */
  async lastRecordAt(agentId: string, kind: string, tx?: Transaction): Promise<Date | null> {
    // Read after every run (the error-rate rule): without the query builder (see EntityStatements).
    const row = await EntityStatements.for(this.database.dataSource, SecurityRecordEntity).findOne(
      { agentId, kind },
      {
        select: ['createdAt'],
        orderBy: [
          ['createdAt', 'DESC'],
          ['id', 'DESC'],
        ],
      },
      this.database.manager(tx),
    );
    return row?.createdAt ?? null;
  }

  /** The agent's records of one kind, newest first (bounded). */
  recordsOfKind(agentId: string, kind: string, limit: number, tx?: Transaction): Promise<SecurityRecordEntity[]> {
    return this.records(tx).find({
      where: { agentId, kind },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  findTrust(agentId: string, tx?: Transaction): Promise<AgentTrustEntity | null> {
    return this.trusts(tx).findOneBy({ agentId });
  }

  findTrustByApproval(approvalId: string, tx?: Transaction): Promise<AgentTrustEntity | null> {
    return this.trusts(tx).findOneBy({ pendingApprovalId: approvalId });
  }

  /**
   * Writes the trust row, but never its pending promotion: that moves only by compare-and-set
   * (`claimPending`, `takePending`), so concurrent evaluations cannot file or lose one twice.
   */
  async saveTrust(row: AgentTrustEntity, tx?: Transaction): Promise<void> {
    const { pendingLevel: _level, pendingApprovalId: _approval, ...rest } = row;
    await this.trusts(tx).upsert(rest, ['agentId']);
  }

  /** Marks a promotion pending under an approval id if none is: true when this caller won. */
  async claimPending(agentId: string, level: string, approvalId: string, tx?: Transaction): Promise<boolean> {
    const result = await this.trusts(tx).update(
      { agentId, pendingApprovalId: IsNull() },
      { pendingLevel: level, pendingApprovalId: approvalId },
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Clears a pending promotion if it is still the one named: a compare-and-set, so of two replicas
   * acting on the same decision only one applies it.
   */
  async takePending(agentId: string, approvalId: string, tx?: Transaction): Promise<boolean> {
    const result = await this.trusts(tx).update(
      { agentId, pendingApprovalId: approvalId },
      { pendingApprovalId: null, pendingLevel: null },
    );
    return (result.affected ?? 0) > 0;
  }
}
