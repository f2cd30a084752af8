import type { AgentEntity, TaskEntity } from '@app/persistence';

/** What a pre-flight check sees: the task, its assignee, and the model routing chose. */
export interface PreflightContext {
  task: TaskEntity;
  agent: AgentEntity;
  /** Provider and model of the run; a check may swap them (quota fallback). */
  provider: string;
  model: string;
  /** Spent on this task by earlier runs. */
  spentOnTask: number;
}

export type PreflightVerdict =
  { ok: true; provider?: string; model?: string; note?: string } | { ok: false; reason: string; code: number };

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

export type PreflightResult =
  | { ok: true; provider: string; model: string; notes: string[] }
  | { ok: false; check: string; reason: string; code: number };

/** The ordered pipeline. A refusal stops it; a swap of provider or model carries on to later steps. */
export class RunPreflight {
  private readonly checks: PreflightCheck[] = [];

  register(check: PreflightCheck): () => void {
    this.checks.push(check);
    this.checks.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
    return () => {
      const index = this.checks.indexOf(check);
      if (index >= 0) {
        this.checks.splice(index, 1);
      }
    };
  }

  names(): string[] {
    return this.checks.map((c) => c.name);
  }

  async run(initial: PreflightContext): Promise<PreflightResult> {
    const context = { ...initial };
    const notes: string[] = [];
    for (const check of this.checks) {
      const verdict = await check.check(context);
      if (!verdict.ok) {
        return { ok: false, check: check.name, reason: verdict.reason, code: verdict.code };
      }
      context.provider = verdict.provider ?? context.provider;
      context.model = verdict.model ?? context.model;
      if (verdict.note) {
        notes.push(`${check.name}: ${verdict.note}`);
      }
    }
    return { ok: true, provider: context.provider, model: context.model, notes };
  }
}
