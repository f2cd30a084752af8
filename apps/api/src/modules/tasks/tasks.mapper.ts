import type { TaskStatus } from '@app/domain';
import { rawBool, rawIso, rawIsoOrNull, rawJson, rawNumber, type TaskEntity } from '@app/persistence';

import type { TaskDto } from './dto/task.dto';

/** A task as the API shows it. */
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
    result: row.result,
    output_withheld: row.outputWithheld,
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

/** The task's status, typed. */
export function statusOf(row: TaskEntity): TaskStatus {
  return row.status as TaskStatus;
}

/** The columns of `tasks` a list page reads: what the response shows, nothing of the run state. */
export const TASK_ROW_COLUMNS = [
  'id',
  'title',
  'description',
  'type',
  'priority',
  'project',
  'created_by',
  'assigned_to',
  'reviewers',
  'dependencies',
  'artifacts_expected',
  'acceptance_criteria',
  'estimated_complexity',
  'budget_limit',
  'deadline',
  'max_retries',
  'retry_count',
  'status',
  'status_reason',
  'result',
  'output_withheld',
  'parent_task_id',
  'delegation_chain',
  'task_structure',
  'coordination_topology',
  'version',
  'started_at',
  'completed_at',
  'created_at',
  'updated_at',
] as const;

/** A raw `tasks` row of {@link TASK_ROW_COLUMNS}, as either dialect answers it. */
export type TaskRow = Record<(typeof TASK_ROW_COLUMNS)[number], unknown>;

/** A raw list row as the API shows it: the same shape and values as {@link toTaskDto} of the entity. */
export function toTaskDtoFromRow(row: TaskRow): TaskDto {
  return {
    id: row.id as string,
    title: row.title as string,
    description: row.description as string,
    type: row.type as string,
    priority: row.priority as string,
    project: row.project as string,
    created_by: row.created_by as string,
    assigned_to: row.assigned_to as string | null,
    reviewers: rawJson(row.reviewers),
    dependencies: rawJson(row.dependencies),
    artifacts_expected: rawJson(row.artifacts_expected),
    acceptance_criteria: rawJson(row.acceptance_criteria),
    estimated_complexity: row.estimated_complexity as string,
    budget_limit: rawNumber(row.budget_limit),
    deadline: row.deadline as string | null,
    max_retries: rawNumber(row.max_retries),
    retry_count: rawNumber(row.retry_count),
    status: row.status as string,
    status_reason: row.status_reason as string | null,
    result: row.result as string | null,
    output_withheld: rawBool(row.output_withheld),
    parent_task_id: row.parent_task_id as string | null,
    delegation_chain: rawJson(row.delegation_chain),
    task_structure: row.task_structure as string | null,
    coordination_topology: row.coordination_topology as string,
    version: rawNumber(row.version),
    started_at: rawIsoOrNull(row.started_at),
    completed_at: rawIsoOrNull(row.completed_at),
    created_at: rawIso(row.created_at),
    updated_at: rawIso(row.updated_at),
  };
}
