import { Injectable } from '@nestjs/common';
import { In, MoreThanOrEqual, type Repository } from 'typeorm';

import { HeldRunEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user for held runs; held → released is a compare-and-set on `state`. */
@Injectable()
export class HeldRunsRepository {
  constructor(private readonly database: DatabaseService) {}

  private rows(): Repository<HeldRunEntity> {
    return this.database.dataSource.getRepository(HeldRunEntity);
  }

  /**
   * Holds the task: its held row (a task has one run at a time, so one held row) takes the newer
   * refusal, or a new row is written.
   */
  async hold(row: HeldRunEntity): Promise<void> {
    const { id: _id, taskId, ...changes } = row;
    const result = await this.rows().update({ taskId, state: 'held' }, changes);
    if ((result.affected ?? 0) === 0) {
      await this.rows().insert(row);
    }
  }

  /** The task's held row, if it is held. */
  heldFor(taskId: string): Promise<HeldRunEntity | null> {
    return this.rows().findOneBy({ taskId, state: 'held' });
  }

  /** Held rows, oldest first. */
  held(limit: number): Promise<HeldRunEntity[]> {
    return this.rows().find({ where: { state: 'held' }, order: { heldAt: 'ASC' }, take: limit });
  }

  /** Which of these tasks are held. */
  async heldAmong(taskIds: readonly string[]): Promise<Set<string>> {
    if (taskIds.length === 0) {
      return new Set();
    }
    const rows = await this.rows().find({
      select: { taskId: true },
      where: { taskId: In([...taskIds]), state: 'held' },
    });
    return new Set(rows.map((r) => r.taskId));
  }

  /**
   * held → released (the task queued again) or dropped (the task moved on without it); false when
   * another replica (or an earlier pass) moved it first.
   */
  async release(id: string, at: Date, state: 'released' | 'dropped' = 'released'): Promise<boolean> {
    const result = await this.rows().update({ id, state: 'held' }, { state, releasedAt: at });
    return (result.affected ?? 0) > 0;
  }

  /** Holds written since `since` (null: any time), newest first, at most `cap`, of one agent if given. */
  since(since: Date | null, agentId: string | undefined, cap: number): Promise<HeldRunEntity[]> {
    return this.rows().find({
      where: { ...(since ? { heldAt: MoreThanOrEqual(since) } : {}), ...(agentId ? { agentId } : {}) },
      order: { heldAt: 'DESC' },
      take: cap,
    });
  }
}
