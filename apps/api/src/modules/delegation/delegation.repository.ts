import { Injectable } from '@nestjs/common';
import { MoreThanOrEqual, type FindOptionsWhere, type Repository } from 'typeorm';

import { ACTIVITY_SOURCE_CAP } from '@app/domain';
import { DelegationRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** Pair history read for the loop checks at most: far more than any limit lets through in the window. */
const PAIR_HISTORY_CAP = 1000;

/** The only TypeORM user for delegation records. */
@Injectable()
export class DelegationRepository {
  constructor(private readonly database: DatabaseService) {}

  private records(): Repository<DelegationRecordEntity> {
    return this.database.dataSource.getRepository(DelegationRecordEntity);
  }

  async insert(row: DelegationRecordEntity): Promise<void> {
    await this.records().insert(row);
  }

  /** The two agents' delegations (either way) at or after `since`, oldest first. */
  async pairSince(a: string, b: string, since: Date): Promise<DelegationRecordEntity[]> {
    const rows = await this.records().find({
      where: [
        { delegatorId: a, delegateeId: b, timestamp: MoreThanOrEqual(since) },
        { delegatorId: b, delegateeId: a, timestamp: MoreThanOrEqual(since) },
      ],
      order: { timestamp: 'DESC', id: 'DESC' },
      take: PAIR_HISTORY_CAP,
    });
    return rows.reverse();
  }

  /** Records for the activity feed, newest first and capped: of one agent (either side) or of all. */
  since(since: Date | null, agentId: string | undefined): Promise<DelegationRecordEntity[]> {
    const when: FindOptionsWhere<DelegationRecordEntity> = since === null ? {} : { timestamp: MoreThanOrEqual(since) };
    return this.records().find({
      where:
        agentId === undefined
          ? when
          : [
              { ...when, delegatorId: agentId },
              { ...when, delegateeId: agentId },
            ],
      order: { timestamp: 'DESC', id: 'DESC' },
      take: ACTIVITY_SOURCE_CAP,
    });
  }

  findById(id: string): Promise<DelegationRecordEntity | null> {
    return this.records().findOneBy({ id });
  }
}
