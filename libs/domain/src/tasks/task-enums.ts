/** The nine task states of the interface. Only `completed` and `cancelled` are terminal. */
export const TASK_STATUSES = [
  'created',
  'assigned',
  'in_progress',
  'in_review',
  'completed',
  'blocked',
  'failed',
  'interrupted',
  'cancelled',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_TYPES = ['development', 'design', 'research', 'review', 'meeting', 'admin', 'analysis'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

export const TASK_COMPLEXITIES = ['simple', 'medium', 'complex', 'epic'] as const;
export type TaskComplexity = (typeof TASK_COMPLEXITIES)[number];

export const TASK_STRUCTURES = ['sequential', 'parallel', 'mixed'] as const;
export type TaskStructure = (typeof TASK_STRUCTURES)[number];

export const COORDINATION_TOPOLOGIES = ['sas', 'centralized', 'decentralized', 'context_dependent', 'auto'] as const;
export type CoordinationTopology = (typeof COORDINATION_TOPOLOGIES)[number];

export const ARTIFACT_TYPES = ['code', 'tests', 'documentation'] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];

/** Field limits of the task request bodies. */
export const TASK_LIMITS = {
  titleMax: 256,
  descriptionMax: 4096,
  reasonMax: 4096,
  filterMax: 256,
  nameMax: 256,
} as const;

export const TASK_DEFAULTS = {
  priority: 'medium' as TaskPriority,
  complexity: 'medium' as TaskComplexity,
  budgetLimit: 0,
  maxRetries: 1,
  coordinationTopology: 'auto' as CoordinationTopology,
} as const;
