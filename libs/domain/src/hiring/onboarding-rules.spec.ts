import {
  checklistComplete,
  isOnboardingTask,
  ONBOARDING_STEPS,
  ONBOARDING_TASK_CREATOR,
  ONBOARDING_TASK_PROJECT,
  type OnboardingStep,
  settleStep,
} from './onboarding-rules';

const running = (): OnboardingStep[] =>
  ONBOARDING_STEPS.map((name, i) => ({
    name,
    state: 'running',
    taskId: `task-${i}`,
    attempts: 1,
    reason: null,
    summary: null,
    completedAt: null,
  }));

describe('onboarding rules', () => {
  const at = new Date('2026-01-01T00:00:00Z');

  it('should settle only the running step of the task and leave the others', () => {
    const next = settleStep(running(), 'task-1', { ok: true, summary: 'Read the projects.' }, at) as OnboardingStep[];
    expect(next.map((s) => s.state)).toEqual(['running', 'done', 'running']);
    expect(next[1]).toMatchObject({ summary: 'Read the projects.', completedAt: at.toISOString() });
  });

  it('should keep the reason of a failed step and answer null for a task of no running step', () => {
    const failed = settleStep(running(), 'task-0', { ok: false, reason: 'blocked' }, at) as OnboardingStep[];
    expect(failed[0]).toMatchObject({ state: 'failed', reason: 'blocked', completedAt: null });
    expect(settleStep(failed, 'task-0', { ok: true, summary: '' }, at)).toBeNull();
    expect(settleStep(running(), 'other', { ok: true, summary: '' }, at)).toBeNull();
  });

  it('should be complete only when every step is done', () => {
    let steps = running();
    for (const step of steps) {
      expect(checklistComplete(steps)).toBe(false);
      steps = settleStep(steps, step.taskId, { ok: true, summary: 'ok' }, at) as OnboardingStep[];
    }
    expect(checklistComplete(steps)).toBe(true);
    expect(checklistComplete([])).toBe(false);
  });

  it('should tell an onboarding task by its project key and creator together', () => {
    expect(isOnboardingTask({ project: ONBOARDING_TASK_PROJECT, createdBy: ONBOARDING_TASK_CREATOR })).toBe(true);
    expect(isOnboardingTask({ project: 'proj-1', createdBy: ONBOARDING_TASK_CREATOR })).toBe(false);
    expect(isOnboardingTask({ project: ONBOARDING_TASK_PROJECT, createdBy: 'ceo' })).toBe(false);
  });
});
