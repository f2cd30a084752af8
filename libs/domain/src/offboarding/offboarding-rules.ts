import { MESSAGE_LIMITS } from '../messages/message-rules';
import { TASK_PRIORITIES, type TaskPriority, type TaskStatus } from '../tasks/task-enums';

/** Why an agent is let go (engine.md §13 FiringReason). */
export const FIRING_REASONS = ['manual', 'performance', 'budget', 'project_completion'] as const;
export type FiringReason = (typeof FIRING_REASONS)[number];

/**
 * The offboarding pipeline's steps, in the order they run. The agent is terminated first so that no
 * work reaches it while its tasks are handed over (the reference terminates last; an assignment made
 * in between would then be left behind). Each step is recorded once done; a restart resumes at the
 * step after the last one recorded.
 */
export const OFFBOARDING_STEPS = [
  /** Status → terminated, the `fired` career event, `agent.fired`. */
  'terminated',
  /** Its assigned and in-progress tasks → interrupted, unassigned, priority raised one step. */
  'tasks_interrupted',
  /** Their runs have stopped (a run stops at its task's move; this waits for it to end). */
  'runs_stopped',
  /** Each interrupted task → assigned to another active agent of the department, when there is one. */
  'tasks_reassigned',
  /** No memory backend exists yet: recorded as skipped, never as done. */
  'memory_archived',
  /** One message to the department's channel (or #all-hands). */
  'team_notified',
  /** The `offboarded` career event, `agent.offboarded`, the record completed. */
  'offboarded',
] as const;
export type OffboardingStep = (typeof OFFBOARDING_STEPS)[number];

/** Where a record stands: `requested` before its first step, else the last step done. */
export type OffboardingProgress = 'requested' | OffboardingStep;
export const OFFBOARDING_PROGRESS: readonly OffboardingProgress[] = ['requested', ...OFFBOARDING_STEPS];

/** How a step ended: done, or skipped because what it needs does not exist. */
export const OFFBOARDING_STEP_OUTCOMES = ['done', 'skipped'] as const;
export type OffboardingStepOutcome = (typeof OFFBOARDING_STEP_OUTCOMES)[number];

/**
 * The statuses a fired agent's tasks are taken from: assigned and in progress (engine.md §13 step 1),
 * and interrupted, where a shutdown leaves a run's task until recovery gives it back to its agent.
 */
export const HANDED_OVER_STATUSES: readonly TaskStatus[] = ['assigned', 'in_progress', 'interrupted'];

export const OFFBOARDING_LIMITS = {
  /** Characters of the request's `details`. */
  detailsMax: 1024,
  /** Tasks named one by one in the team's notice; the rest are counted. */
  noticeTaskLines: 20,
} as const;

/** The step after `progress`, or null when the pipeline has finished. */
export function nextOffboardingStep(progress: OffboardingProgress): OffboardingStep | null {
  const index = OFFBOARDING_PROGRESS.indexOf(progress);
  if (index < 0) {
    throw new RangeError(`unknown offboarding step "${progress}"`);
  }
  return OFFBOARDING_STEPS[index] ?? null;
}

/** Whether `step` has been done by the time a record stands at `progress`. */
export function offboardingStepReached(progress: OffboardingProgress, step: OffboardingStep): boolean {
  return OFFBOARDING_PROGRESS.indexOf(progress) >= OFFBOARDING_PROGRESS.indexOf(step);
}

/** One step up (low → medium → high → critical); critical stays critical. */
export function raisedPriority(priority: TaskPriority): TaskPriority {
  const index = TASK_PRIORITIES.indexOf(priority);
  return index <= 0 ? 'critical' : TASK_PRIORITIES[index - 1];
}

/** An agent as the successor choice needs it. */
export interface SuccessorCandidate {
  readonly id: string;
  readonly name: string;
  readonly department: string;
  readonly status: string;
  readonly position: number;
}

/**
 * Who takes over a task of a fired agent: an active agent of its department other than itself, the
 * one holding the fewest tasks (`loads`, by agent id: what it held before plus what this hand-over
 * gave it), the roster order breaking ties. Null when the department has nobody else.
 */
export function pickSuccessor<C extends SuccessorCandidate>(
  candidates: readonly C[],
  departing: { id: string; department: string },
  loads: ReadonlyMap<string, number>,
): C | null {
  const eligible = candidates.filter(
    (c) => c.id !== departing.id && c.status === 'active' && c.department === departing.department,
  );
  let best: C | null = null;
  for (const candidate of eligible) {
    const load = loads.get(candidate.id) ?? 0;
    const bestLoad = best === null ? Infinity : (loads.get(best.id) ?? 0);
    if (best === null || load < bestLoad || (load === bestLoad && candidate.position < best.position)) {
      best = candidate;
    }
  }
  return best;
}

/**
 * The marker an interrupted task's reason carries: how a resumed pipeline tells the tasks it
 * interrupted itself from tasks someone else moved.
 */
export function offboardingMarker(recordId: string): string {
  return `[offboarding ${recordId}]`;
}

/** Where the team's notice goes when the department has no channel of its own. */
export const COMPANY_CHANNEL = '#all-hands';

/** The topic channel named after a department (`engineering` → `#engineering`, `data analytics` → `#data-analytics`). */
export function departmentChannel(departmentKey: string): string {
  const words = departmentKey
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return words ? `#${words.slice(0, MESSAGE_LIMITS.maxChannelNameChars - 1)}` : COMPANY_CHANNEL;
}

/** One task as the team's notice names it. */
export interface NoticeTask {
  readonly taskId: string;
  readonly title: string;
  readonly toAgent: string | null;
}

/** The message the fired agent's team receives (within a message's size limit). */
export function offboardingNotice(input: {
  agentName: string;
  role: string;
  department: string;
  reason: FiringReason;
  details: string;
  tasks: readonly NoticeTask[];
}): string {
  const lines = [
    `${input.agentName} (${input.role}, ${input.department}) has left the company (reason: ${input.reason.replace('_', ' ')}).`,
  ];
  if (input.details) {
    lines.push(input.details);
  }
  if (input.tasks.length === 0) {
    lines.push('They held no open tasks.');
  } else {
    lines.push(`Their ${input.tasks.length} open task(s) were handed over:`);
    for (const task of input.tasks.slice(0, OFFBOARDING_LIMITS.noticeTaskLines)) {
      const to = task.toAgent === null ? 'unassigned: no other active agent in the department' : `to ${task.toAgent}`;
      lines.push(`- ${task.taskId} "${task.title}" ${to}`);
    }
    const rest = input.tasks.length - OFFBOARDING_LIMITS.noticeTaskLines;
    if (rest > 0) {
      lines.push(`- and ${rest} more`);
    }
  }
  return lines.join('\n').slice(0, MESSAGE_LIMITS.maxContentChars);
}
