import { Injectable } from '@nestjs/common';
import { And, In, LessThan, MoreThanOrEqual } from 'typeorm';

import { ACTIVITY_SOURCE_CAP } from '@app/domain';
import { CostRecordEntity, TaskMetricEntity, ToolInvocationEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The columns of a run metric that outcome counts (analytics, reports) read. */
export type RunOutcomeRow = Pick<
  TaskMetricEntity,
  'agentId' | 'taskId' | 'completedAt' | 'isSuccess' | 'durationSeconds' | 'costUsd' | 'qualityScore'
>;

/**
 * The TypeORM reads of what runs leave behind; the engine writes tool invocations and metrics, the
 * budget module the cost records.
 */
@Injectable()
export class RunLedgerRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Newest first; `cap` bounds feed reads, null reads everything (aggregates must see every row). */
  metricsSince(
    since: Date | null,
    agentIds?: readonly string[],
    cap: number | null = ACTIVITY_SOURCE_CAP,
  ): Promise<TaskMetricEntity[]> {
    return this.database.dataSource.getRepository(TaskMetricEntity).find({
      where: {
        ...(since ? { completedAt: MoreThanOrEqual(since) } : {}),
        ...(agentIds ? { agentId: In([...agentIds]) } : {}),
      },
      order: { completedAt: 'DESC' },
      ...(cap === null ? {} : { take: cap }),
    });
  }

  /** The run metrics completed in [from, to), oldest first, with only the columns outcome counts need. */
  outcomesBetween(from: Date, to: Date): Promise<RunOutcomeRow[]> {
    return this.database.dataSource.getRepository(TaskMetricEntity).find({
      select: {
        agentId: true,
        taskId: true,
        completedAt: true,
        isSuccess: true,
        durationSeconds: true,
        costUsd: true,
        qualityScore: true,
      },
      where: { completedAt: And(MoreThanOrEqual(from), LessThan(to)) },
      order: { completedAt: 'ASC' },
    });
  }

  /** Newest first; `cap` as for metricsSince. */
  costsSince(
    since: Date | null,
    agentIds?: readonly string[],
    cap: number | null = ACTIVITY_SOURCE_CAP,
  ): Promise<CostRecordEntity[]> {
    return this.database.dataSource.getRepository(CostRecordEntity).find({
      where: {
        ...(since ? { timestamp: MoreThanOrEqual(since) } : {}),
        ...(agentIds ? { agentId: In([...agentIds]) } : {}),
      },
      order: { timestamp: 'DESC' },
      ...(cap === null ? {} : { take: cap }),
    });
  }

  /** Newest first, capped like a feed source. */
  toolsSince(since: Date | null, agentIds?: readonly string[]): Promise<ToolInvocationEntity[]> {
    return this.database.dataSource.getRepository(ToolInvocationEntity).find({
      where: {
        ...(since ? { timestamp: MoreThanOrEqual(since) } : {}),
        ...(agentIds ? { agentId: In([...agentIds]) } : {}),
      },
      order: { timestamp: 'DESC' },
      take: ACTIVITY_SOURCE_CAP,
    });
  }
}
