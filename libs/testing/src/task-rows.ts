import type { TaskEntity } from '@app/persistence';

/** A stored task row in state `created`, version 1, for tests that work on the tasks table directly. */
export function taskRow(overrides: Partial<TaskEntity> = {}): TaskEntity {
  const at = new Date('2026-01-01T00:00:00.000Z');
  return {
    id: 'task-1',
    title: 'Write the spec',
    description: 'All of it.',
    type: 'development',
    priority: 'medium',
    project: 'proj-1',
    createdBy: 'alice',
    assignedTo: null,
    assigneeId: null,
    reviewers: [],
    dependencies: [],
    artifactsExpected: [],
    acceptanceCriteria: [],
    estimatedComplexity: 'medium',
    budgetLimit: 0,
    deadline: null,
    maxRetries: 1,
    retryCount: 0,
    status: 'created',
    statusReason: null,
    result: null,
    outputWithheld: false,
    parentTaskId: null,
    delegationChain: [],
    taskStructure: null,
    coordinationTopology: 'auto',
    version: 1,
    runOwner: null,
    runHeartbeatAt: null,
    startedAt: null,
    runStartedAt: null,
    completedAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
