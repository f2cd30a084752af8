import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  AppError,
  completionMetrics,
  orchestrationReport,
  planRunOutcome,
  promptRatioTooHigh,
  type ReactLoopResult,
  type TaskStatus,
} from '@app/domain';
import type { AgentEntity, TaskEntity, TaskMetricEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime, ServiceMetrics } from '@app/platform';

import { statusOf, type TaskChanges, TaskLifecycle } from '../tasks';
import { logOrchestration } from './orchestration-log';
import { RunMemory } from './run-memory';
import { RunRecordsRepository } from './run-records.repository';
import type { RunSession } from './run-session';
import { MergedFiles } from './workspace/merged-files';
import { WorkspaceManager } from './workspace/workspace-manager';

/** Who the engine's own transitions are attributed to. */
export const ENGINE_ACTOR = 'engine';

/** A run as its outcome needs it. */
export interface FinishingRun {
  task: TaskEntity;
  agent: AgentEntity;
}

/**
 * Applies a finished run's outcome (engine.md §4): merges the worktree on completion, moves the
 * task, logs the run's metrics and records its performance metric.
 */
@Injectable()
export class RunFinisher {
  private readonly log: Logger;

  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly records: RunRecordsRepository,
    private readonly workspaces: WorkspaceManager,
    private readonly merged: MergedFiles,
    private readonly memory: RunMemory,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    private readonly metrics: ServiceMetrics,
  ) {
    this.log = logging.forName('engine.runner');
  }

  /**
   * Applies the outcome, merges the worktree on completion, logs and records the run's metrics.
   *
   * The run's own rows (its cost records, tool invocations) land before its outcome does, and a cost
   * record that could not be written fails the run. The metric row is written meanwhile, as the
   * outcome will be if they land, and replaced in the rare case they do not; either way the metric
   * the outcome deserves is stored before the outcome, so whoever sees the outcome sees its metric.
   * The outcome's steps (in_review then completed; failed then assigned) are one write. Answers the
   * status that write stored, or null when the outcome was not applied (someone moved the task).
   */
  async finish(
    prepared: FinishingRun,
    session: RunSession | null,
    loopResult: ReactLoopResult,
    startedAt: number,
  ): Promise<TaskStatus | null> {
    const { task } = prepared;
    const settled = session ? session.settle().then(noError, asError) : Promise.resolve(null);
    let result = loopResult;
    if (result.reason === 'completed' && session?.workspace) {
      // Only the work of a run that stands is merged.
      result = standing(result, await settled);
      if (result.reason === 'completed') {
        // The merge removes the worktree before the outcome is written, on purpose: every replica
        // tidies the worktree of a task it sees completed (the directory is shared), so removing it
        // after the outcome would race their clean-up against this one.
        const merge = await this.workspaces
          .merge(task.id, `Merge ${task.id}: ${task.title}`, session.workspace)
          .catch((error: unknown) => ({ merged: false, sha: null, conflicts: [], error: error as Error }));
        if (!merge.merged) {
          const why = 'error' in merge ? merge.error.message : `merge conflict in ${merge.conflicts.join(', ')}`;
          return this.parkForReview(task, why, result, session, startedAt);
        }
        this.merged.note(task.id, merge.sha);
      }
    }
    let metric = this.recordMetric(task, session, result, startedAt);
    const final = standing(result, await settled);
    if (final !== result) {
      // A cost record failed after the metric was begun: the run fails, and its metric says so.
      await this.records.deleteMetric((await metric)?.id ?? null).catch((error: unknown) => {
        this.log.error({ err: error }, 'engine.metric.record_failed');
      });
      result = final;
      metric = this.recordMetric(task, session, result, startedAt);
    }
    if (result.reason === 'completed' && !session?.workspace) {
      this.merged.note(task.id, null); // no workspace: the run wrote nothing
    }
    this.logMetrics(task, session, result, startedAt);
    const plan = planRunOutcome(result.reason, task.retryCount, task.maxRetries);
    const detail = result.detail ?? (result.reason === 'completed' ? null : result.reason);
    // The final answer as the output scan left it (engine RunOutputs): the task's result on completion.
    const answer = { result: result.finalContent, outputWithheld: result.outputWithheld === true };
    await metric;
    const stored = await this.applySteps(task, plan.steps, result.reason, detail, plan.retryCount, answer);
    if (stored !== null && result.reason !== 'parked') {
      this.memory.remember({
        agent: prepared.agent,
        task,
        reason: result.reason,
        finalContent: result.finalContent,
        detail,
      });
    }
    return stored;
  }

  private async applySteps(
    task: TaskEntity,
    steps: readonly TaskStatus[],
    reason: string,
    detail: string | null,
    retryCount: number,
    answer: { result: string; outputWithheld: boolean },
  ): Promise<TaskStatus | null> {
    const release: TaskChanges = { runOwner: null, runHeartbeatAt: null };
    try {
      if (steps.length === 0) {
        // max turns, budget exhausted, parked: the task stays in progress with the reason recorded.
        const saved = await this.lifecycle.update(task.id, () => ({ ...release, statusReason: detail ?? reason }), {
          by: ENGINE_ACTOR,
        });
        return statusOf(saved);
      }
      // One write from the run's own claim; if someone changed the task meanwhile, the lifecycle
      // notices and judges the stored row instead.
      const saved = await this.lifecycle.transitionThrough(task.id, steps, {
        by: ENGINE_ACTOR,
        current: task,
        changes: (_row, step) => ({
          ...release,
          statusReason: step === 'completed' ? null : (detail ?? reason),
          ...(step === 'completed' ? { completedAt: new Date(), ...answer } : {}),
          ...(step === 'assigned' ? { retryCount } : {}),
        }),
      });
      return statusOf(saved);
    } catch (error) {
      // A human moved the task meanwhile (cancelled it, say): their decision stands.
      const level = error instanceof AppError ? 'warn' : 'error';
      this.log[level]({ err: error, reason }, 'engine.run.outcome_not_applied');
      return null;
    }
  }

  private async parkForReview(
    task: TaskEntity,
    why: string,
    result: ReactLoopResult,
    session: RunSession,
    startedAt: number,
  ): Promise<TaskStatus | null> {
    this.logMetrics(task, session, result, startedAt);
    this.log.warn({ reason: why }, 'engine.workspace.merge_failed');
    return this.lifecycle
      .transition(task.id, 'in_review', {
        by: ENGINE_ACTOR,
        changes: () => ({ runOwner: null, runHeartbeatAt: null, statusReason: `needs review: ${why}` }),
      })
      .then(statusOf, (error: unknown) => {
        this.log.warn({ err: error }, 'engine.run.outcome_not_applied');
        return null;
      });
  }

  private logMetrics(task: TaskEntity, session: RunSession | null, result: ReactLoopResult, startedAt: number) {
    const metrics = runMetrics(session, result, startedAt);
    const orchestration = orchestrationReport({
      coordinationTokens: session?.coordinationTokens ?? 0,
      totalTokens: metrics.tokens_per_task,
      retries: task.retryCount,
      attempts: task.retryCount + 1,
    });
    const fields = {
      ...metrics,
      orchestration_ratio: orchestration.orchestration_ratio,
      retry_rate: orchestration.retry_rate,
      termination_reason: result.reason,
      detail: result.detail,
    };
    this.log.info(fields, 'engine.task.metrics');
    this.metrics.runs.inc({ outcome: result.reason });
    this.metrics.runDuration.observe({ outcome: result.reason }, metrics.duration_seconds);
    if (promptRatioTooHigh(metrics)) {
      this.log.warn({ prompt_token_ratio: metrics.prompt_token_ratio }, 'engine.task.prompt_ratio_high');
    }
    logOrchestration(this.log, 'engine.run', task.id, orchestration);
    if (result.reason === 'error') {
      this.log.warn({ err: result.error ?? undefined, detail: result.detail, task_id: task.id }, 'engine.run.failed');
    }
    return metrics;
  }

  /**
   * Writes the metric of a run whose outcome records one; answers the row written, or null (none is
   * due, or it could not be written: that is logged, and the run's outcome goes ahead).
   */
  private async recordMetric(
    task: TaskEntity,
    session: RunSession | null,
    result: ReactLoopResult,
    startedAt: number,
  ): Promise<TaskMetricEntity | null> {
    const plan = planRunOutcome(result.reason, task.retryCount, task.maxRetries);
    if (!plan.recordsMetric || !task.assigneeId) {
      return null;
    }
    const metrics = runMetrics(session, result, startedAt);
    const row: TaskMetricEntity = {
      id: randomUUID(),
      agentId: task.assigneeId,
      taskId: task.id,
      taskType: task.type,
      startedAt: new Date(startedAt),
      completedAt: new Date(),
      isSuccess: plan.success,
      durationSeconds: metrics.duration_seconds,
      costUsd: metrics.cost_per_task,
      turnsUsed: metrics.turns_per_task,
      tokensUsed: metrics.tokens_per_task,
      qualityScore: null,
      collaborationScore: null,
      complexity: task.estimatedComplexity,
    };
    try {
      await this.records.insertMetric(row);
      return row;
    } catch (error) {
      this.log.error({ err: error }, 'engine.metric.record_failed');
      return null;
    }
  }
}

/** The run's completion metrics (engine.md §4) as of now. */
function runMetrics(session: RunSession | null, result: ReactLoopResult, startedAt: number) {
  return completionMetrics({
    turns: result.turns,
    inputTokens: result.inputTokens,
    outputTokens: result.outputTokens,
    cost: session?.spent ?? 0,
    durationSeconds: (Date.now() - startedAt) / 1000,
    promptTokens: session?.promptTokens ?? 0,
  });
}

const noError = (): null => null;
const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** The run's result once its rows are in: a failed cost record fails a run that had not failed already. */
function standing(result: ReactLoopResult, failure: Error | null): ReactLoopResult {
  return failure && result.reason !== 'error' ? failedLoop(failure.message) : result;
}

/** The result of a run that failed outside the loop (no call made, a row not written). */
export function failedLoop(detail: string): ReactLoopResult {
  return {
    reason: 'error',
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
    finalContent: '',
    truncated: false,
    detail,
    error: null,
    messages: [],
  };
}
