import { Injectable } from '@nestjs/common';
import { MoreThanOrEqual, type Repository } from 'typeorm';

import { AutonomyDowngradeEntity, SecurityRecordEntity } from '@app/persistence';
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

  async insertRecord(row: SecurityRecordEntity, tx?: Transaction): Promise<void> {
    await this.records(tx).insert(row);
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

  findDowngrade(agentId: string, tx?: Transaction): Promise<AutonomyDowngradeEntity | null> {
    return this.downgrades(tx).findOneBy({ agentId });
  }

  async saveDowngrade(row: AutonomyDowngradeEntity, tx?: Transaction): Promise<void> {
    await this.downgrades(tx).save(row);
  }

  async deleteDowngrade(agentId: string, tx?: Transaction): Promise<void> {
    await this.downgrades(tx).delete({ agentId });
  }
}
