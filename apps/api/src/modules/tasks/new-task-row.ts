import { newTaskId, TASK_DEFAULTS } from '@app/domain';
import type { TaskEntity } from '@app/persistence';

/** What a new task must be given; everything else starts at its default. */
export type NewTask = Pick<TaskEntity, 'title' | 'description' | 'type' | 'project' | 'createdBy'> &
  Partial<
    Pick<
      TaskEntity,
      | 'id'
      | 'priority'
      | 'reviewers'
      | 'dependencies'
      | 'acceptanceCriteria'
      | 'estimatedComplexity'
      | 'budgetLimit'
      | 'deadline'
      | 'maxRetries'
      | 'parentTaskId'
      | 'delegationChain'
      | 'coordinationTopology'
    >
  >;

/**
 * The row of a task about to be created (status `created`, unassigned, no run): the one place that
 * knows every column's starting value, for the API, delegation and coordination alike. Hand it to
 * `TaskLifecycle.create`.
 */
export function newTaskRow(task: NewTask, now = new Date()): TaskEntity {
  return {
    id: task.id ?? newTaskId(),
    title: task.title,
    description: task.description,
    type: task.type,
    priority: task.priority ?? TASK_DEFAULTS.priority,
    project: task.project,
    createdBy: task.createdBy,
    assignedTo: null,
    assigneeId: null,
    reviewers: task.reviewers ?? [],
    dependencies: task.dependencies ?? [],
    artifactsExpected: [],
    acceptanceCriteria: task.acceptanceCriteria ?? [],
    estimatedComplexity: task.estimatedComplexity ?? TASK_DEFAULTS.complexity,
    budgetLimit: task.budgetLimit ?? TASK_DEFAULTS.budgetLimit,
    deadline: task.deadline ?? null,
    maxRetries: task.maxRetries ?? TASK_DEFAULTS.maxRetries,
    retryCount: 0,
    status: 'created',
    statusReason: null,
    result: null,
    outputWithheld: false,
    parentTaskId: task.parentTaskId ?? null,
    delegationChain: task.delegationChain ?? [],
    taskStructure: null,
    coordinationTopology: task.coordinationTopology ?? TASK_DEFAULTS.coordinationTopology,
    version: 1,
    runOwner: null,
    runHeartbeatAt: null,
    startedAt: null,
    runStartedAt: null,
    completedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}
