import type { TaskStatus } from '@app/domain';
import type { TaskEntity } from '@app/persistence';

import type { TaskDto } from './dto/task.dto';

export function toTaskDto(row: TaskEntity): TaskDto {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    priority: row.priority,
    project: row.project,
    created_by: row.createdBy,
    assigned_to: row.assignedTo,
    reviewers: row.reviewers,
    dependencies: row.dependencies,
    artifacts_expected: row.artifactsExpected,
    acceptance_criteria: row.acceptanceCriteria,
    estimated_complexity: row.estimatedComplexity,
    budget_limit: row.budgetLimit,
    deadline: row.deadline,
    max_retries: row.maxRetries,
    retry_count: row.retryCount,
    status: row.status,
    status_reason: row.statusReason,
    parent_task_id: row.parentTaskId,
    delegation_chain: row.delegationChain,
    task_structure: row.taskStructure,
    coordination_topology: row.coordinationTopology,
    version: row.version,
    started_at: row.startedAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function statusOf(row: TaskEntity): TaskStatus {
  return row.status as TaskStatus;
}
