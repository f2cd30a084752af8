import { Injectable } from '@nestjs/common';

import type { OutcomeCounts, PerformanceRecord } from '@app/domain';
import type { CostRecordEntity, TaskMetricEntity, ToolInvocationEntity } from '@app/persistence';

import {
  type FeedScope,
  RunLedgerRepository,
  type RunOutcomeRow,
  type RunsFeedOrder,
  type RunSummaryRow,
} from './run-ledger.repository';

/**
 * The read side of what agent runs leave behind: run metrics, model-call costs and tool calls. The
 * engine writes these tables; every other module (agents, company, and later budget, analytics and
 * reports) reads them here.
 */
@Injectable()
export class RunLedger {
  constructor(private readonly records: RunLedgerRepository) {}

  /** Run metrics completed since `since`, newest first; `cap` null reads every row (aggregates). */
  metricsSince(since: Date | null, agentIds?: readonly string[], cap?: number | null): Promise<TaskMetricEntity[]> {
    return this.records.metricsSince(since, agentIds, cap);
  }

  /** The agent's runs completed since `since`, newest first, at most `cap`: success, size, type, quality, cost. */
  runSummariesSince(agentId: string, since: Date, cap: number): Promise<RunSummaryRow[]> {
    return this.records.runSummariesSince(agentId, since, cap);
  }

  /** The agent's runs completed since `since`, newest first, with what a performance summary reads. */
  performanceRecordsSince(agentId: string, since: Date): Promise<PerformanceRecord[]> {
    return this.records.performanceRecordsSince(agentId, since);
  }

  /** The agent's newest runs completed after `after` (at most `cap`): how many, and how many failed. */
  outcomeCounts(agentId: string, after: Date, cap: number): Promise<OutcomeCounts> {
    return this.records.outcomeCounts(agentId, after, cap);
  }

  /** Runs finished in [from, to), oldest first: who ran which task, success, duration, cost, quality. */
  outcomesBetween(from: Date, to: Date): Promise<RunOutcomeRow[]> {
    return this.records.outcomesBetween(from, to);
  }

  /** Cost records since `since`, newest first; `cap` null reads every row (aggregates). */
  costsSince(since: Date | null, agentIds?: readonly string[], cap?: number | null): Promise<CostRecordEntity[]> {
    return this.records.costsSince(since, agentIds, cap);
  }

  /** Tool invocations since `since`, newest first, capped like an activity source. */
  toolsSince(since: Date | null, agentIds?: readonly string[]): Promise<ToolInvocationEntity[]> {
    return this.records.toolsSince(since, agentIds);
  }
  /**
   * A feed's newest run metrics, cost records or tool invocations: at most `need` (and the rows tied
   * with the last), newest first; and how many the feed holds, counting at most `cap` (its newest).
   * Run metrics are newest by completion, or by start for a feed of start events alone.
   */
  newestMetrics(scope: FeedScope, need: number, by: RunsFeedOrder): Promise<TaskMetricEntity[]> {
    return this.records.newestMetrics(scope, need, by);
  }

  /** The feed's run events among its newest `cap` runs by completion: completions, and starts in the window. */
  countRunEvents(scope: FeedScope, cap: number): Promise<{ completed: number; started: number }> {
    return this.records.countRunEvents(scope, cap);
  }

  newestCosts(scope: FeedScope, need: number): Promise<CostRecordEntity[]> {
    return this.records.newestCosts(scope, need);
  }

  countCosts(scope: FeedScope, cap: number): Promise<number> {
    return this.records.countCosts(scope, cap);
  }

  newestTools(scope: FeedScope, need: number): Promise<ToolInvocationEntity[]> {
    return this.records.newestTools(scope, need);
  }

  countTools(scope: FeedScope, cap: number): Promise<number> {
    return this.records.countTools(scope, cap);
  }
}
