import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import { ParkedRunEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user for parked runs; each state step is a compare-and-set on `state`. */
@Injectable()
export class ParkedRunsRepository {
  constructor(private readonly database: DatabaseService) {}

  private rows(): Repository<ParkedRunEntity> {
    return this.database.dataSource.getRepository(ParkedRunEntity);
  }

  async insert(row: ParkedRunEntity): Promise<void> {
    await this.rows().insert(row);
  }

  find(approvalId: string): Promise<ParkedRunEntity | null> {
    return this.rows().findOneBy({ approvalId });
  }

  async delete(approvalId: string): Promise<void> {
    await this.rows().delete({ approvalId });
  }

  /** parked → decided with the decision; false when it was no longer parked (decided already). */
  async decide(
    approvalId: string,
    decision: Pick<ParkedRunEntity, 'approved' | 'decisionReason' | 'decidedBy' | 'endRun'>,
  ): Promise<boolean> {
    const result = await this.rows()
      .createQueryBuilder()
      .update(ParkedRunEntity)
      .set({ ...decision, state: 'decided', decidedAt: new Date() })
      .where('approval_id = :approvalId AND state = :state', { approvalId, state: 'parked' })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** decided → resumed by `owner`; false when another replica (or an earlier job) took it first. */
  async claim(approvalId: string, owner: string): Promise<boolean> {
    const result = await this.rows()
      .createQueryBuilder()
      .update(ParkedRunEntity)
      .set({ state: 'resumed', resumedBy: owner, resumedAt: new Date() })
      .where('approval_id = :approvalId AND state = :state', { approvalId, state: 'decided' })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Decided runs not resumed yet, oldest decision first. */
  decided(limit: number): Promise<ParkedRunEntity[]> {
    return this.rows().find({ where: { state: 'decided' }, order: { decidedAt: 'ASC' }, take: limit });
  }

  /** The decided run of a task waiting to be resumed, if any. */
  decidedFor(taskId: string): Promise<ParkedRunEntity | null> {
    return this.rows().findOne({ where: { taskId, state: 'decided' }, order: { decidedAt: 'ASC' } });
  }

  /** Runs still parked (their items undecided as far as the engine knows). */
  parked(limit: number): Promise<ParkedRunEntity[]> {
    return this.rows().find({ where: { state: 'parked' }, order: { createdAt: 'ASC' }, take: limit });
  }
}
