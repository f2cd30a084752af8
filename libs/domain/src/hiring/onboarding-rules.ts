/** The onboarding checklist (engine.md §13), in the order the steps are listed. */
export const ONBOARDING_STEPS = ['company_context', 'project_briefing', 'team_introductions'] as const;
export type OnboardingStepName = (typeof ONBOARDING_STEPS)[number];

/** running: its task waits or runs; done: the run completed; failed: the run failed or was blocked. */
export const ONBOARDING_STEP_STATES = ['running', 'done', 'failed'] as const;
export type OnboardingStepState = (typeof ONBOARDING_STEP_STATES)[number];

/**
 * Onboarding tasks carry this project key and creator. No task the API creates can: the API stores
 * a project's id (`proj-…`), never this literal, so the engine tells an onboarding task by the pair.
 */
export const ONBOARDING_TASK_PROJECT = 'onboarding';
export const ONBOARDING_TASK_CREATOR = 'onboarding';

/** Whether the task is one of an onboarding checklist's: an `onboarding` agent may run it. */
export function isOnboardingTask(task: { project: string; createdBy: string }): boolean {
  return task.project === ONBOARDING_TASK_PROJECT && task.createdBy === ONBOARDING_TASK_CREATOR;
}

/** One checklist step as stored. */
export interface OnboardingStep {
  name: OnboardingStepName;
  state: OnboardingStepState;
  /** The task that runs the step (a retry gives it a new one). */
  taskId: string;
  attempts: number;
  /** Why it failed; null otherwise. */
  reason: string | null;
  /** The agent's own summary when done (cut to 500 characters). */
  summary: string | null;
  completedAt: string | null;
}

/** The checklist after a task of a step ended: the step done or failed; other steps unchanged. */
export function settleStep(
  steps: readonly OnboardingStep[],
  taskId: string,
  outcome: { ok: true; summary: string } | { ok: false; reason: string },
  at: Date,
): OnboardingStep[] | null {
  const index = steps.findIndex((step) => step.taskId === taskId && step.state === 'running');
  if (index < 0) {
    return null;
  }
  const next = steps.map((step) => ({ ...step }));
  next[index] = outcome.ok
    ? {
        ...next[index],
        state: 'done',
        reason: null,
        summary: outcome.summary.slice(0, 500),
        completedAt: at.toISOString(),
      }
    : { ...next[index], state: 'failed', reason: outcome.reason.slice(0, 1000), summary: null, completedAt: null };
  return next;
}

/** Every step done: the agent becomes active. */
export function checklistComplete(steps: readonly OnboardingStep[]): boolean {
  return steps.length > 0 && steps.every((step) => step.state === 'done');
}
