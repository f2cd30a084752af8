import { Injectable } from '@nestjs/common';
import { IsNull, type Repository } from 'typeorm';

import { OffboardingRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The columns a compare-and-set write of a record may change. */
export type OffboardingChanges = Partial<
  Omit<OffboardingRecordEntity, 'id' | 'agentId' | 'version' | 'startedAt' | 'updatedAt'>
>;

/**
 * The only TypeORM user for offboarding records. One record per agent (a unique agent id); every
 * change is a compare-and-set on the record's version, so two processes resuming the same pipeline
 * never both record a step.
 */
@Injectable()
export class OffboardingRepository {
  constructor(private readonly database: DatabaseService) {}

  private rows(): Repository<OffboardingRecordEntity> {
    return this.database.dataSource.getRepository(OffboardingRecordEntity);
  }

  findById(id: string): Promise<OffboardingRecordEntity | null> {
    return this.rows().findOneBy({ id });
  }

  findByAgent(agentId: string): Promise<OffboardingRecordEntity | null> {
    return this.rows().findOneBy({ agentId });
  }

  /** Stores a new record; false when the agent has one already (a concurrent fire got there first). */
  async insert(row: OffboardingRecordEntity): Promise<boolean> {
    try {
      await this.rows().insert(row);
      return true;
    } catch (error) {
      if (await this.findByAgent(row.agentId)) {
        return false;
      }
      throw error;
    }
  }

  /** Applies the changes if the record is still at `base.version`; the new row, or null when another writer was first. */
  async update(base: OffboardingRecordEntity, changes: OffboardingChanges): Promise<OffboardingRecordEntity | null> {
    const updatedAt = new Date();
    const result = await this.rows().update(
      { id: base.id, version: base.version },
      { ...changes, version: base.version + 1, updatedAt },
    );
    if (!result.affected) {
      return null;
    }
    return { ...base, ...changes, version: base.version + 1, updatedAt };
  }

  /** Records whose pipeline has not finished, oldest first (the completed-at index). */
  unfinished(limit: number): Promise<OffboardingRecordEntity[]> {
    return this.rows().find({ where: { completedAt: IsNull() }, order: { startedAt: 'ASC', id: 'ASC' }, take: limit });
  }
}
