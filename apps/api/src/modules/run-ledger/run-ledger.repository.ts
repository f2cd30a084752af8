import { Injectable } from '@nestjs/common';
import { And, In, LessThan, MoreThanOrEqual } from 'typeorm';

import { ACTIVITY_SOURCE_CAP, type OutcomeCounts } from '@app/domain';
import { CostRecordEntity, rawNumber, TaskMetricEntity, ToolInvocationEntity, timeParam } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The columns of a run metric that outcome counts (analytics, reports) read. */
export type RunOutcomeRow = Pick<
  TaskMetricEntity,
  'agentId' | 'taskId' | 'completedAt' | 'isSuccess' | 'durationSeconds' | 'costUsd' | 'qualityScore'
>;

/** The columns of a run metric that judge how an agent's runs went (trust scoring). */
export type RunSummaryRow = Pick<
  TaskMetricEntity,
  'isSuccess' | 'complexity' | 'taskType' | 'qualityScore' | 'costUsd' | 'completedAt'
>;

/**
 * An agent's newest runs completed after a moment, at most `cap` of them, counted: the window is
 * read from the (agent_id, completed_at) index and only two numbers leave the database.
 */
const OUTCOME_COUNTS = `SELECT COUNT(*) AS "runs",
  COALESCE(SUM(CASE WHEN "recent"."is_success" THEN 0 ELSE 1 END), 0) AS "failures"
  FROM (SELECT "is_success" FROM "task_metrics" WHERE "agent_id" = :agentId AND "completed_at" > :after
        ORDER BY "completed_at" DESC LIMIT :cap) "recent"`;

/**
 * The reads of what runs leave behind; the engine writes tool invocations and metrics, the
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

  /** The agent's runs completed since `since`, newest first, at most `cap`, with only the summary's columns. */
  runSummariesSince(agentId: string, since: Date, cap: number): Promise<RunSummaryRow[]> {
    return this.database.dataSource.getRepository(TaskMetricEntity).find({
      select: {
        isSuccess: true,
        complexity: true,
        taskType: true,
        qualityScore: true,
        costUsd: true,
        completedAt: true,
      },
      where: { agentId, completedAt: MoreThanOrEqual(since) },
      order: { completedAt: 'DESC' },
      take: cap,
    });
  }

  /** The agent's newest runs completed after `after` (at most `cap`): how many, and how many failed. */
  async outcomeCounts(agentId: string, after: Date, cap: number): Promise<OutcomeCounts> {
    const ds = this.database.dataSource;
    const postgres = ds.options.type === 'postgres';
    const [sql, params] = ds.driver.escapeQueryWithParameters(OUTCOME_COUNTS, {
      agentId,
      after: timeParam(postgres, after),
      cap,
    });
    const [row] = await ds.query<Array<{ runs: unknown; failures: unknown }>>(sql, params);
    return { runs: rawNumber(row.runs), failures: rawNumber(row.failures) };
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
