import { Injectable } from '@nestjs/common';
import { IsNull, Not, type Repository } from 'typeorm';

import { LevelChangeEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user of `level_changes`. */
@Injectable()
export class LevelChangesRepository {
  constructor(private readonly database: DatabaseService) {}

  private get changes(): Repository<LevelChangeEntity> {
    return this.database.dataSource.getRepository(LevelChangeEntity);
  }

  /**
   * Stores a change; a pending one only while the agent has no other pending change (the unique
   * pending key): false when another came first.
   */
  async insert(change: LevelChangeEntity): Promise<boolean> {
    await this.changes.createQueryBuilder().insert().values(change).orIgnore().execute();
    // The id is new: the row is there only when this insert wrote it.
    return (await this.changes.findOneBy({ id: change.id })) !== null;
  }

  findById(id: string): Promise<LevelChangeEntity | null> {
    return this.changes.findOneBy({ id });
  }

  findByApproval(approvalId: string): Promise<LevelChangeEntity | null> {
    return this.changes.findOneBy({ approvalId });
  }

  /** The agent's pending change, if any. */
  pendingOf(agentId: string): Promise<LevelChangeEntity | null> {
    return this.changes.findOneBy({ pendingKey: agentId });
  }

  /** When the agent's level last changed through this module, or null. */
  async lastAppliedAt(agentId: string): Promise<Date | null> {
    const row = await this.changes.findOne({
      select: { appliedAt: true },
      where: { agentId, appliedAt: Not(IsNull()) },
      order: { appliedAt: 'DESC' },
    });
    return row?.appliedAt ?? null;
  }

  /**
   * Compare-and-set from pending: settles the change (applied, rejected or dropped) and frees the
   * agent's pending key. False when it was settled already (another replica, a repeated event).
   */
  async settlePending(id: string, changes: Partial<LevelChangeEntity>): Promise<boolean> {
    const result = await this.changes
      .createQueryBuilder()
      .update(LevelChangeEntity)
      .set({ ...changes, pendingKey: null })
      .where('id = :id AND status = :pending', { id, pending: 'pending' })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Pending changes, oldest first (at most `limit`). */
  allPending(limit: number): Promise<LevelChangeEntity[]> {
    return this.changes.find({ where: { status: 'pending' }, order: { createdAt: 'ASC' }, take: limit });
  }

  /** The agent's changes, newest first (at most `limit`). */
  ofAgent(agentId: string, limit: number): Promise<LevelChangeEntity[]> {
    return this.changes.find({ where: { agentId }, order: { createdAt: 'DESC' }, take: limit });
  }
}
