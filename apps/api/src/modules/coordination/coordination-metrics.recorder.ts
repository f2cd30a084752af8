import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  COORDINATION_BASELINE_WINDOW,
  coordinationMetrics,
  duplicateSubtasks,
  type MetricRun,
  orchestrationReport,
  type SubtaskDefinition,
} from '@app/domain';
import type { TaskMetricEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { logOrchestration } from '../engine';
import { RunLedger } from '../run-ledger';
import { SettingsSnapshot } from '../settings';

/** A finished coordination as its figures need it. */
export interface FinishedCoordination {
  readonly parentId: string;
  readonly startedAt: Date;
  /** Tokens of the coordination's own model calls. */
  readonly coordinationTokens: number;
  readonly subtasks: readonly SubtaskDefinition[];
  /** The subtasks created, and the agents they went to. */
  readonly taskIds: readonly string[];
  readonly agentIds: readonly string[];
}

/**
 * A coordination's figures from the run ledger: what its subtasks' runs cost, the orchestration
 * ratio (coordination tokens over all tokens, logged with the spec's thresholds) and, when
 * `coordination.coordination_metrics_enabled` is on, the coordination metrics against the runs
 * before it.
 */
@Injectable()
export class CoordinationMetricsRecorder {
  private readonly log: Logger;

  constructor(
    private readonly ledger: RunLedger,
    private readonly settings: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('coordination');
  }

  /** Logs the figures; answers the subtasks' spend (cost and tokens of all their runs). */
  async record(done: FinishedCoordination): Promise<{ cost: number; tokens: number }> {
    const ids = new Set(done.taskIds);
    const runs =
      ids.size === 0
        ? []
        : (await this.ledger.metricsSince(done.startedAt, [...done.agentIds], null)).filter((m) => ids.has(m.taskId));
    const spend = runs.reduce((sum, m) => ({ tokens: sum.tokens + m.tokensUsed, cost: sum.cost + m.costUsd }), {
      tokens: 0,
      cost: 0,
    });
    const report = orchestrationReport({
      coordinationTokens: done.coordinationTokens,
      totalTokens: done.coordinationTokens + spend.tokens,
      retries: 0,
      attempts: 1,
    });
    this.log.info(
      { task_id: done.parentId, orchestration_ratio: report.orchestration_ratio, subtask_tokens: spend.tokens },
      'coordination.task.metrics',
    );
    logOrchestration(this.log, 'coordination.task', done.parentId, report);
    if (this.settings.value<boolean>('coordination', 'coordination_metrics_enabled')) {
      await this.logCoordinationMetrics(done, runs);
    }
    return spend;
  }

  private async logCoordinationMetrics(done: FinishedCoordination, runs: readonly TaskMetricEntity[]): Promise<void> {
    // Each subtask's newest run (the ledger answers newest first).
    const last = new Map<string, TaskMetricEntity>();
    runs.forEach((m) => last.set(m.taskId, last.get(m.taskId) ?? m));
    const ids = new Set(done.taskIds);
    const before = await this.ledger.metricsSince(
      null,
      undefined,
      COORDINATION_BASELINE_WINDOW + ids.size + runs.length,
    );
    const baseline = before
      .filter((m) => !ids.has(m.taskId) && m.completedAt < done.startedAt)
      .slice(0, COORDINATION_BASELINE_WINDOW);
    const tools = await this.ledger.toolsSince(done.startedAt, [...done.agentIds]);
    const metrics = coordinationMetrics({
      subtaskRuns: [...last.values()].map(metricRun),
      subtasks: done.taskIds.length,
      coordinationTokens: done.coordinationTokens,
      messages: tools.filter((t) => t.taskId !== null && ids.has(t.taskId) && t.toolName === 'send_message').length,
      duplicates: duplicateSubtasks(done.subtasks),
      baseline: baseline.map(metricRun),
    });
    this.log.info({ task_id: done.parentId, ...metrics }, 'coordination.task.coordination_metrics');
  }
}

function metricRun(m: TaskMetricEntity): MetricRun {
  return { turns: m.turnsUsed, tokens: m.tokensUsed, success: m.isSuccess };
}
