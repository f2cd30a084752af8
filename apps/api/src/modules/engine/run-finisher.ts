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
import type { AgentEntity, TaskEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { type TaskChanges, TaskLifecycle } from '../tasks';
import { logOrchestration } from './orchestration-log';
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
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.runner');
  }

  /** Applies the outcome, merges the worktree on completion, logs and records the run's metrics. */
  async finish(
    prepared: FinishingRun,
    session: RunSession | null,
    result: ReactLoopResult,
    startedAt: number,
  ): Promise<void> {
    const { task } = prepared;
    const reason = result.reason;
    let detail = result.detail;
    if (reason === 'completed' && session?.workspace) {
      const merge = await this.workspaces
        .merge(task.id, `Merge ${task.id}: ${task.title}`, session.workspace)
        .catch((error: unknown) => ({ merged: false, sha: null, conflicts: [], error: error as Error }));
      if (!merge.merged) {
        const why = 'error' in merge ? merge.error.message : `merge conflict in ${merge.conflicts.join(', ')}`;
        return this.parkForReview(task, why, result, session, startedAt);
      }
      this.merged.note(task.id, merge.sha);
    } else if (reason === 'completed') {
      this.merged.note(task.id, null); // no workspace: the run wrote nothing
    }
    const totals = this.logMetrics(task, session, result, startedAt);
    const plan = planRunOutcome(reason, task.retryCount, task.maxRetries);
    detail ??= reason === 'completed' ? null : reason;
    // The metric lands before every step but in_review (the way to completed), so whoever sees the
    // run's outcome also sees the metric; in_review goes ahead while it is written.
    const metric =
      plan.recordsMetric && task.assigneeId
        ? this.recordMetric(task, plan.success, totals, startedAt)
        : Promise.resolve();
    // The final answer as the output scan left it (engine RunOutputs): the task's result on completion.
    const answer = { result: result.finalContent, outputWithheld: result.outputWithheld === true };
    await this.applySteps(task, plan.steps, reason, detail, plan.retryCount, metric, answer);
  }

  private async applySteps(
    task: TaskEntity,
    steps: readonly TaskStatus[],
    reason: string,
    detail: string | null,
    retryCount: number,
    metric: Promise<void>,
    answer: { result: string; outputWithheld: boolean },
  ): Promise<void> {
    const release: TaskChanges = { runOwner: null, runHeartbeatAt: null };
    try {
      if (steps.length === 0) {
        await metric;
        // max turns, budget exhausted, parked: the task stays in progress with the reason recorded.
        await this.lifecycle.update(task.id, () => ({ ...release, statusReason: detail ?? reason }), {
          by: ENGINE_ACTOR,
        });
        return;
      }
      // Each step starts from the row the previous one wrote (the run's own claim first); if someone
      // changed the task meanwhile, the lifecycle notices and judges the stored row instead.
      let current = task;
      for (const step of steps) {
        if (step !== 'in_review') {
          await metric;
        }
        current = await this.lifecycle.transition(task.id, step, {
          by: ENGINE_ACTOR,
          current,
          changes: () => ({
            ...release,
            statusReason: step === 'completed' ? null : (detail ?? reason),
            ...(step === 'completed' ? { completedAt: new Date(), ...answer } : {}),
            ...(step === 'assigned' ? { retryCount } : {}),
          }),
        });
      }
    } catch (error) {
      // A human moved the task meanwhile (cancelled it, say): their decision stands.
      const level = error instanceof AppError ? 'warn' : 'error';
      this.log[level]({ err: error, reason }, 'engine.run.outcome_not_applied');
    } finally {
      // The run ends with its metric written (it never rejects), whatever became of the steps.
      await metric;
    }
  }

  private async parkForReview(
    task: TaskEntity,
    why: string,
    result: ReactLoopResult,
    session: RunSession,
    startedAt: number,
  ): Promise<void> {
    this.logMetrics(task, session, result, startedAt);
    this.log.warn({ reason: why }, 'engine.workspace.merge_failed');
    await this.lifecycle
      .transition(task.id, 'in_review', {
        by: ENGINE_ACTOR,
        changes: () => ({ runOwner: null, runHeartbeatAt: null, statusReason: `needs review: ${why}` }),
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'engine.run.outcome_not_applied'));
  }

  private logMetrics(task: TaskEntity, session: RunSession | null, result: ReactLoopResult, startedAt: number) {
    const metrics = completionMetrics({
      turns: result.turns,
      inputTokens: result.inputTokens,
      outputTokens: result.outputTokens,
      cost: session?.spent ?? 0,
      durationSeconds: (Date.now() - startedAt) / 1000,
      promptTokens: session?.promptTokens ?? 0,
    });
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
    if (promptRatioTooHigh(metrics)) {
      this.log.warn({ prompt_token_ratio: metrics.prompt_token_ratio }, 'engine.task.prompt_ratio_high');
    }
    logOrchestration(this.log, 'engine.run', task.id, orchestration);
    if (result.reason === 'error') {
      this.log.warn({ err: result.error ?? undefined, detail: result.detail, task_id: task.id }, 'engine.run.failed');
    }
    return metrics;
  }

  private async recordMetric(
    task: TaskEntity,
    success: boolean,
    metrics: ReturnType<typeof completionMetrics>,
    startedAt: number,
  ): Promise<void> {
    try {
      await this.records.insertMetric({
        id: randomUUID(),
        agentId: task.assigneeId ?? '',
        taskId: task.id,
        taskType: task.type,
        startedAt: new Date(startedAt),
        completedAt: new Date(),
        isSuccess: success,
        durationSeconds: metrics.duration_seconds,
        costUsd: metrics.cost_per_task,
        turnsUsed: metrics.turns_per_task,
        tokensUsed: metrics.tokens_per_task,
        qualityScore: null,
        collaborationScore: null,
        complexity: task.estimatedComplexity,
      });
    } catch (error) {
      this.log.error({ err: error }, 'engine.metric.record_failed');
    }
  }
}
