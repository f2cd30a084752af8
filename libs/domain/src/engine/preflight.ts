/**
 * The task as a pre-flight check sees it: the columns a check may judge (budget, kind, ownership).
 * The engine passes its full task row, which has all of them.
 */
export interface PreflightTask {
  readonly id: string;
  readonly title: string;
  readonly type: string;
  readonly priority: string;
  readonly project: string;
  readonly assigneeId: string | null;
  readonly budgetLimit: number;
  readonly estimatedComplexity: string;
  readonly retryCount: number;
  readonly maxRetries: number;
  readonly parentTaskId: string | null;
}

/** The assignee as a pre-flight check sees it: who it is, where it sits, what it may spend. */
export interface PreflightAgent {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly department: string;
  readonly level: string;
  readonly status: string;
  readonly autonomyLevel: string | null;
  readonly budgetLimitMonthly: number | null;
  readonly modelProvider: string | null;
  readonly modelId: string | null;
}

/** What a pre-flight check sees: the task, its assignee, and the model routing chose. */
export interface PreflightContext {
  task: PreflightTask;
  agent: PreflightAgent;
  /** Provider and model of the run; a check may swap them (quota fallback). */
  provider: string;
  model: string;
  /** Spent on this task by earlier runs. */
  spentOnTask: number;
}

/** A check's answer: go ahead (optionally on another provider or model), or refuse with a code. */
export type PreflightVerdict =
  | { ok: true; provider?: string; model?: string; note?: string }
  | {
      ok: false;
      reason: string;
      code: number;
      /**
       * A spend limit that refused (`task`, `monthly`, `department`, `agent_daily`): the engine holds
       * the task until that limit lets a call through again, instead of blocking it for a person.
       */
      spendLimit?: string;
    };

/**
 * One step of the ordered pre-flight that runs before a task's run starts. The engine registers the
 * task budget and provider quota steps; the budget and security modules add theirs (company hard
 * stop, daily limits, risk budget, policy) with their own `order`.
 */
export interface PreflightCheck {
  readonly name: string;
  /** Lower runs first. Built-ins: 100 task budget, 500 provider quota and degradation. */
  readonly order: number;
  check(context: PreflightContext): Promise<PreflightVerdict>;
}

/** The pipeline's answer: the provider and model to run on, or the first refusal. */
export type PreflightResult =
  | { ok: true; provider: string; model: string; notes: string[] }
  | { ok: false; check: string; reason: string; code: number; spendLimit?: string };
