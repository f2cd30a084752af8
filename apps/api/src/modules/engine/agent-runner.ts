import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  AppError,
  completionMetrics,
  ConflictError,
  NotFoundError,
  type OrchestrationReport,
  orchestrationReport,
  planRunOutcome,
  promptRatioTooHigh,
  type ReactLoopResult,
  runReactLoop,
  seedMessages,
  type SeniorityLevel,
  type TaskStatus,
} from '@app/domain';
import type { AgentEntity, TaskEntity } from '@app/persistence';
import { APP_CONFIG, type AppConfig, Correlation, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { ModelRouter, ProviderRegistry } from '../providers';
import { type TaskChanges, TaskLifecycle } from '../tasks';
import { RunPreflight } from './run-preflight';
import { RunRecordsRepository } from './run-records.repository';
import { type RunControl, RunSession } from './run-session';
import { RunSpend } from './run-spend';
import { ToolInvoker } from './tools/tool-invoker';
import { WorkspaceManager } from './workspace/workspace-manager';

/** Who the engine's own transitions are attributed to. */
export const ENGINE_ACTOR = 'engine';

interface Prepared {
  task: TaskEntity;
  agent: AgentEntity;
  provider: string;
  model: string;
  spent: number;
  /** The task had never started before this run: no cost records, no workspace branch yet. */
  firstRun: boolean;
}

/**
 * Runs one assigned task: route a model, pass the ordered pre-flight, claim the task (a
 * compare-and-set, so a duplicate job or another replica loses), run the ReAct loop with the
 * agent's tools in the task's worktree, then apply the outcome (engine.md §4) and record metrics.
 */
@Injectable()
export class AgentRunner {
  private readonly log: Logger;

  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly agents: AgentRoster,
    private readonly registry: ProviderRegistry,
    private readonly router: ModelRouter,
    private readonly preflight: RunPreflight,
    private readonly records: RunRecordsRepository,
    private readonly spend: RunSpend,
    private readonly workspaces: WorkspaceManager,
    private readonly tools: ToolInvoker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.runner');
  }

  /** Runs the task if it is still waiting; answers whether this call executed it. */
  run(taskId: string, owner: string, control: RunControl): Promise<boolean> {
    return Correlation.run({ task_id: taskId }, () => this.runInContext(taskId, owner, control));
  }

  private async runInContext(taskId: string, owner: string, control: RunControl): Promise<boolean> {
    const prepared = await this.prepare(taskId);
    if (!prepared) {
      return false;
    }
    const claimed = await this.claim(prepared.task, owner);
    if (!claimed) {
      return false;
    }
    await Correlation.run({ agent_id: prepared.agent.id }, () => this.execute({ ...prepared, task: claimed }, control));
    return true;
  }

  /** Loads, routes and pre-flights; a refusal blocks the task with its reason. */
  private async prepare(taskId: string): Promise<Prepared | null> {
    // A deleted task has nothing to run; any other read failure is the run's failure, not silence.
    const task = await this.lifecycle.getOrThrow(taskId).catch((error: unknown) => {
      if (error instanceof NotFoundError) {
        return null;
      }
      throw error;
    });
    if (!task || task.status !== 'assigned' || !task.assigneeId) {
      return null;
    }
    const agent = await this.agents.findByRef(task.assigneeId);
    if (!agent || agent.status !== 'active') {
      await this.block(task, `assignee ${task.assignedTo ?? '?'} is not an active agent`);
      return null;
    }
    let provider: string;
    let model: string;
    try {
      const decision = this.router.route({
        agentLevel: agent.level as SeniorityLevel,
        taskType: task.type,
        modelOverride: agent.modelId,
      });
      provider = decision.model.provider;
      model = decision.model.id;
    } catch (error) {
      await this.block(task, `no model for the run: ${(error as Error).message}`);
      return null;
    }
    // Cost records and workspace branches are made only by runs, and a run starts with the claim that
    // sets startedAt: a task that never started has spent nothing, without asking the database.
    const firstRun = task.startedAt === null;
    const spent = firstRun ? 0 : await this.records.taskSpend(task.id);
    const verdict = await this.preflight.run({ task, agent, provider, model, spentOnTask: spent });
    if (!verdict.ok) {
      this.log.warn({ check: verdict.check, code: verdict.code, reason: verdict.reason }, 'engine.preflight.refused');
      await this.block(task, `pre-flight ${verdict.check}: ${verdict.reason}`);
      return null;
    }
    return { task, agent, provider: verdict.provider, model: verdict.model, spent, firstRun };
  }

  private async claim(task: TaskEntity, owner: string): Promise<TaskEntity | null> {
    const now = new Date();
    try {
      return await this.lifecycle.transition(task.id, 'in_progress', {
        by: ENGINE_ACTOR,
        expectedVersion: task.version,
        current: task,
        changes: (row) => ({
          runOwner: owner,
          runHeartbeatAt: now,
          startedAt: row.startedAt ?? now,
          statusReason: null,
        }),
      });
    } catch (error) {
      if (error instanceof ConflictError) {
        this.log.debug({ task_id: task.id }, 'engine.run.claim_lost');
        return null;
      }
      throw error;
    }
  }

  private async execute(prepared: Prepared, control: RunControl): Promise<void> {
    const { task, agent } = prepared;
    const registered = this.registry.get(prepared.provider);
    const startedAt = Date.now();
    this.log.info({ provider: prepared.provider, model: prepared.model }, 'engine.run.started');
    if (!registered) {
      await this.finish(prepared, null, failedLoop(`provider ${prepared.provider} is no longer registered`), startedAt);
      return;
    }
    const allowed = this.allowedTools(agent);
    const session = new RunSession(task, agent, prepared.spent, allowed, control, {
      provider: registered,
      model: prepared.model,
      records: this.records,
      spend: this.spend,
      workspaces: this.workspaces,
      tools: this.tools,
      log: this.log,
      callTimeoutMs: this.config.engine.callTimeoutSeconds * 1000,
      firstRun: prepared.firstRun,
    });
    // A worktree left by an earlier run of this task (a crash, a retry) carries its work forward.
    if (existsSync(this.workspaces.pathOf(task.id))) {
      session.workspace = await this.workspaces.acquire(task.id).catch(() => null);
    }
    let result: ReactLoopResult;
    try {
      result = await runReactLoop(
        seedMessages(agent, task),
        this.tools.definitions(allowed),
        session,
        this.config.engine.maxTurns,
      );
    } catch (error) {
      result = failedLoop((error as Error).message);
    }
    // The run's cost records and tool rows land before its outcome does.
    await session.settle().catch((error: unknown) => {
      if (result.reason !== 'error') {
        result = failedLoop((error as Error).message);
      }
    });
    await this.finish(prepared, session, result, startedAt);
  }

  /** Applies the outcome, merges the worktree on completion, logs and records the run's metrics. */
  private async finish(
    prepared: Prepared,
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
    await this.applySteps(task, plan.steps, reason, detail, plan.retryCount, metric);
  }

  private async applySteps(
    task: TaskEntity,
    steps: readonly TaskStatus[],
    reason: string,
    detail: string | null,
    retryCount: number,
    metric: Promise<void>,
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
            ...(step === 'completed' ? { completedAt: new Date() } : {}),
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
    this.logOrchestration(task, orchestration);
    if (result.reason === 'error') {
      this.log.warn({ err: result.error ?? undefined, detail: result.detail, task_id: task.id }, 'engine.run.failed');
    }
    return metrics;
  }

  /** The orchestration ratio above 0.30 (info), 0.50 (warn) or 0.70 (critical, logged as an error); retries above 0.1. */
  private logOrchestration(task: TaskEntity, report: OrchestrationReport): void {
    const fields = {
      task_id: task.id,
      orchestration_ratio: report.orchestration_ratio,
      alert_level: report.alert_level,
    };
    if (report.alert_level === 'critical') {
      this.log.error(fields, 'engine.run.orchestration_ratio');
    } else if (report.alert_level === 'warn') {
      this.log.warn(fields, 'engine.run.orchestration_ratio');
    } else if (report.alert_level === 'info') {
      this.log.info(fields, 'engine.run.orchestration_ratio');
    }
    if (report.retry_warning) {
      this.log.warn({ task_id: task.id, retry_rate: report.retry_rate }, 'engine.run.retry_rate_high');
    }
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

  /** The agent's `tools.allowed` (empty: every built-in tool) minus `tools.denied`. */
  private allowedTools(agent: AgentEntity): readonly string[] {
    const tools = (agent.settings as { tools?: { allowed?: unknown; denied?: unknown } }).tools;
    const allowed = stringList(tools?.allowed);
    const denied = new Set(stringList(tools?.denied));
    const base = allowed.length > 0 ? allowed : this.tools.definitions().map((d) => d.name);
    return base.filter((name) => !denied.has(name));
  }

  private async block(task: TaskEntity, reason: string): Promise<void> {
    this.log.warn({ task_id: task.id, reason }, 'engine.task.blocked');
    await this.lifecycle
      .transition(task.id, 'blocked', {
        by: ENGINE_ACTOR,
        expectedVersion: task.version,
        changes: () => ({ statusReason: reason }),
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'engine.task.block_failed'));
  }
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
}

function failedLoop(detail: string): ReactLoopResult {
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
