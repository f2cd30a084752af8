import { Injectable } from '@nestjs/common';
import { And, In, IsNull, LessThan, MoreThanOrEqual, Not } from 'typeorm';

import { ACTIVITY_SOURCE_CAP, type OutcomeCounts, type PerformanceRecord } from '@app/domain';
import {
  CostRecordEntity,
  countNewest,
  type FeedSource,
  newestRows,
  rawBool,
  rawDate,
  rawNumber,
  rawNumberOrNull,
  TaskMetricEntity,
  ToolInvocationEntity,
  timeParam,
} from '@app/persistence';
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
 * An agent's runs completed since a moment, newest first, with the columns a performance summary
 * reads, as raw rows: a summary over 90 days of a busy agent holds thousands of them.
 */
const PERFORMANCE_RECORDS = `SELECT "completed_at", "is_success", "duration_seconds", "cost_usd", "quality_score",
  "collaboration_score", "tokens_used"
  FROM "task_metrics" WHERE "agent_id" = :agentId AND "completed_at" >= :since ORDER BY "completed_at" DESC`;

/** Which rows a feed source holds: those at or after `since` (null: any time), of `agentIds` (absent: every agent). */
export interface FeedScope {
  since: Date | null;
  agentIds?: readonly string[];
}

/** How run metrics are read for a feed: newest by completion, or, for start events alone, by start. */
export type RunsFeedOrder = 'completed' | 'started';

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

  /** The agent's runs completed since `since`, newest first, as a performance summary reads them (raw rows, no entities). */
  async performanceRecordsSince(agentId: string, since: Date): Promise<PerformanceRecord[]> {
    const ds = this.database.dataSource;
    const [sql, params] = ds.driver.escapeQueryWithParameters(PERFORMANCE_RECORDS, {
      agentId,
      since: timeParam(ds.options.type === 'postgres', since),
    });
    const rows = await ds.query<Array<Record<string, unknown>>>(sql, params);
    return rows.map((row) => ({
      completedAt: rawDate(row.completed_at),
      isSuccess: rawBool(row.is_success),
      durationSeconds: rawNumber(row.duration_seconds),
      costUsd: rawNumber(row.cost_usd),
      qualityScore: rawNumberOrNull(row.quality_score),
      collaborationScore: rawNumberOrNull(row.collaboration_score),
      tokensUsed: rawNumber(row.tokens_used),
    }));
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
  /** The feed's newest run metrics (see {@link newestRows}): at most `need` and the rows tied with the last. */
  newestMetrics(scope: FeedScope, need: number, by: RunsFeedOrder): Promise<TaskMetricEntity[]> {
    return newestRows(this.metricsFeed(scope, by), need);
  }

  /**
   * How many run events the feed holds among its newest `cap` runs by completion: their completions,
   * and the starts within the scope's window (a run that started before it shows its completion
   * alone). One statement over the (agent_id, completed_at) or (completed_at) index.
   */
  async countRunEvents({ since, agentIds }: FeedScope, cap: number): Promise<{ completed: number; started: number }> {
    const ds = this.database.dataSource;
    const postgres = ds.options.type === 'postgres';
    const where = [
      ...(since ? ['"completed_at" >= :since'] : []),
      ...(agentIds ? ['"agent_id" IN (:...agentIds)'] : []),
    ];
    const sql =
      `SELECT COUNT(*) AS "completed", ` +
      `COUNT(${since ? 'CASE WHEN "newest"."started_at" >= :since THEN 1 END' : '"newest"."started_at"'}) AS "started" ` +
      `FROM (SELECT "started_at" FROM "task_metrics"${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ` +
      `ORDER BY "completed_at" DESC LIMIT :cap) "newest"`;
    const [query, params] = ds.driver.escapeQueryWithParameters(sql, {
      ...(since ? { since: timeParam(postgres, since) } : {}),
      ...(agentIds ? { agentIds: [...agentIds] } : {}),
      cap,
    });
    const [row] = await ds.query<Array<{ completed: unknown; started: unknown }>>(query, params);
    return { completed: rawNumber(row?.completed ?? 0), started: rawNumber(row?.started ?? 0) };
  }

  newestCosts(scope: FeedScope, need: number): Promise<CostRecordEntity[]> {
    return newestRows(this.timedFeed(CostRecordEntity, scope), need);
  }

  countCosts(scope: FeedScope, cap: number): Promise<number> {
    return countNewest(this.timedFeed(CostRecordEntity, scope), cap);
  }

  newestTools(scope: FeedScope, need: number): Promise<ToolInvocationEntity[]> {
    return newestRows(this.timedFeed(ToolInvocationEntity, scope), need);
  }

  countTools(scope: FeedScope, cap: number): Promise<number> {
    return countNewest(this.timedFeed(ToolInvocationEntity, scope), cap);
  }

  /** Run metrics by completion, or those that started (within the scope) by start. */
  private metricsFeed({ since, agentIds }: FeedScope, by: RunsFeedOrder): FeedSource<TaskMetricEntity> {
    const agents = agentIds ? { agentId: In([...agentIds]) } : {};
    const repository = this.database.dataSource.getRepository(TaskMetricEntity);
    if (by === 'started') {
      return {
        repository,
        newestBy: 'startedAt',
        // A run that started in the window completed in it too: that bound lets the completion index narrow the read.
        where: {
          startedAt: since ? MoreThanOrEqual(since) : Not(IsNull()),
          ...(since ? { completedAt: MoreThanOrEqual(since) } : {}),
          ...agents,
        },
      };
    }
    return {
      repository,
      newestBy: 'completedAt',
      where: { ...(since ? { completedAt: MoreThanOrEqual(since) } : {}), ...agents },
    };
  }

  /** Cost records or tool invocations, by their timestamp. */
  private timedFeed<E extends CostRecordEntity | ToolInvocationEntity>(
    entity: new () => E,
    { since, agentIds }: FeedScope,
  ): FeedSource<E> {
    const where = {
      ...(since ? { timestamp: MoreThanOrEqual(since) } : {}),
      ...(agentIds ? { agentId: In([...agentIds]) } : {}),
    };
    return {
      repository: this.database.dataSource.getRepository(entity),
      newestBy: 'timestamp',
      where: where as FeedSource<E>['where'],
    };
  }
}
