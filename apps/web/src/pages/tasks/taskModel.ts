import { useQuery } from '@tanstack/react-query';

import { type Schemas, unwrapPage } from '@app/client';
import { ASSIGNEE_REQUIRED, TASK_TRANSITIONS } from '@app/task-rules';

import { api } from '../../app/api';

export type Task = Schemas['Task'];
export type TaskStatus = Task['status'];
export type TaskPriority = Task['priority'];
export type TaskType = Task['type'];
export type Agent = Schemas['AgentConfig'];
export type Project = Schemas['Project'];

/** The board's columns, in the order work moves through them. */
export const STATUSES: readonly TaskStatus[] = [
  'created',
  'assigned',
  'in_progress',
  'in_review',
  'blocked',
  'failed',
  'interrupted',
  'completed',
  'cancelled',
];

export const STATUS_LABELS: Record<TaskStatus, string> = {
  created: 'Created',
  assigned: 'Assigned',
  in_progress: 'In progress',
  in_review: 'In review',
  completed: 'Completed',
  blocked: 'Blocked',
  failed: 'Failed',
  interrupted: 'Interrupted',
  cancelled: 'Cancelled',
};

export const STATUS_COLORS: Record<TaskStatus, string> = {
  created: 'gray',
  assigned: 'blue',
  in_progress: 'indigo',
  in_review: 'violet',
  completed: 'green',
  blocked: 'orange',
  failed: 'red',
  interrupted: 'yellow',
  cancelled: 'dark',
};

/**
 * The task state machine and the assignment rule are the service's own (libs/domain), shared as data
 * so that the console offers exactly the moves the server accepts; the server still decides each one.
 */
export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = TASK_TRANSITIONS;
export { ASSIGNEE_REQUIRED };

export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export const PRIORITIES: readonly TaskPriority[] = ['critical', 'high', 'medium', 'low'];
export const PRIORITY_LABELS: Record<TaskPriority, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

export const TYPES: readonly TaskType[] = [
  'development',
  'design',
  'research',
  'review',
  'meeting',
  'admin',
  'analysis',
];

export function isStatus(value: string | null): value is TaskStatus {
  return value !== null && (STATUSES as readonly string[]).includes(value);
}

/** Every agent and project, for the filters, the pickers and the names beside ids (200 at most each). */
export function useAgents() {
  return useQuery({
    queryKey: ['agents', 'all'],
    queryFn: () => unwrapPage(api.GET('/api/v1/agents', { params: { query: { limit: 200 } } })),
    staleTime: 60_000,
  });
}

export function useProjects() {
  return useQuery({
    queryKey: ['projects', 'all'],
    queryFn: () => unwrapPage(api.GET('/api/v1/projects', { params: { query: { limit: 200 } } })),
    staleTime: 60_000,
  });
}

/** "proj-…" → its name, when the project is known. */
export function projectName(projects: readonly Project[] | undefined, id: string): string {
  return projects?.find((p) => p.id === id)?.name ?? id;
}

/** An agent id (as cost records carry it) → its name, when the agent is known. */
export function agentName(agents: readonly Agent[] | undefined, id: string): string {
  return agents?.find((a) => a.id === id || a.name === id)?.name ?? id;
}
