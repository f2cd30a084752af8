import type { TaskComplexity, TaskStatus, TaskStructure } from '../tasks/task-enums';
import { TASK_COMPLEXITIES } from '../tasks/task-enums';

/** The pipeline's phases, in order, as they are reported (engine.md §5). */
export const COORDINATION_PHASES = [
  'decompose',
  'route',
  'resolve_topology',
  'validate',
  'dispatch',
  'rollup',
  'update_parent',
] as const;
export type CoordinationPhase = (typeof COORDINATION_PHASES)[number];

/** Phases whose failure aborts the run (the API answers 400 naming the phase). */
export const ABORTING_PHASES: readonly CoordinationPhase[] = ['decompose', 'route', 'validate'];

/** Limits of a coordination request and of a decomposition. */
export const COORDINATION_LIMITS = {
  maxSubtasks: 50,
  defaultMaxSubtasks: 10,
  maxAgentNames: 50,
  maxConcurrencyPerWave: 50,
  defaultMaxDepth: 3,
  titleMax: 256,
  descriptionMax: 4096,
  subtaskIdMax: 64,
} as const;

/** One subtask as a decomposition proposes it; `dependencies` name other subtasks' ids. */
export interface SubtaskDefinition {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly dependencies: readonly string[];
  readonly estimatedComplexity: TaskComplexity;
  readonly requiredSkills: readonly string[];
  readonly requiredRole: string | null;
  /** The agent a manual assignment names; ignored by the scoring strategies. */
  readonly assignedTo: string | null;
}

/** Why a decomposition was refused; the message names the offending subtask or field. */
export class DecompositionError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, field: string, max: number, required: boolean): string | null {
  if (value === undefined || value === null || value === '') {
    if (required) {
      throw new DecompositionError(`${field} is required`);
    }
    return null;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new DecompositionError(`${field} must be a non-blank string`);
  }
  const trimmed = value.trim();
  if (trimmed.length > max) {
    throw new DecompositionError(`${field} is longer than ${max} characters`);
  }
  return trimmed;
}

function strings(value: unknown, field: string): string[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new DecompositionError(`${field} must be an array of strings`);
  }
  return [...new Set((value as string[]).map((v) => v.trim()).filter((v) => v !== ''))];
}

function complexity(value: unknown, field: string): TaskComplexity {
  if (value === undefined || value === null) {
    return 'medium';
  }
  const found = TASK_COMPLEXITIES.find((c) => c === value);
  if (!found) {
    throw new DecompositionError(`${field} must be one of ${TASK_COMPLEXITIES.join(', ')}`);
  }
  return found;
}

/**
 * Reads a decomposition as a model returned it (`{subtasks: [...]}` or a bare array) into checked
 * subtask definitions, then checks the graph: 1..maxSubtasks subtasks, unique ids, no dependency on
 * an unknown subtask or on itself, no cycle.
 */
export function parseDecomposition(raw: unknown, maxSubtasks: number): SubtaskDefinition[] {
  const list = Array.isArray(raw) ? raw : isRecord(raw) ? raw.subtasks : undefined;
  if (!Array.isArray(list)) {
    throw new DecompositionError('the decomposition has no "subtasks" array');
  }
  if (list.length === 0) {
    throw new DecompositionError('the decomposition has no subtasks');
  }
  if (list.length > maxSubtasks) {
    throw new DecompositionError(`the decomposition has ${list.length} subtasks; at most ${maxSubtasks} are allowed`);
  }
  const subtasks = list.map((item, index): SubtaskDefinition => {
    const at = `subtasks[${index}]`;
    if (!isRecord(item)) {
      throw new DecompositionError(`${at} is not an object`);
    }
    return {
      id: text(item.id, `${at}.id`, COORDINATION_LIMITS.subtaskIdMax, true) as string,
      title: text(item.title, `${at}.title`, COORDINATION_LIMITS.titleMax, true) as string,
      description:
        text(item.description, `${at}.description`, COORDINATION_LIMITS.descriptionMax, false) ??
        (text(item.title, `${at}.title`, COORDINATION_LIMITS.titleMax, true) as string),
      dependencies: strings(item.dependencies, `${at}.dependencies`),
      estimatedComplexity: complexity(item.estimated_complexity, `${at}.estimated_complexity`),
      requiredSkills: strings(item.required_skills, `${at}.required_skills`),
      requiredRole: text(item.required_role, `${at}.required_role`, 100, false),
      assignedTo: text(item.assigned_to, `${at}.assigned_to`, 256, false),
    };
  });
  validateDag(subtasks);
  return subtasks;
}

/** Unique ids, known dependencies, no self-dependency and no cycle; throws DecompositionError. */
export function validateDag(subtasks: readonly Pick<SubtaskDefinition, 'id' | 'dependencies'>[]): void {
  const ids = new Set<string>();
  for (const subtask of subtasks) {
    if (ids.has(subtask.id)) {
      throw new DecompositionError(`subtask id "${subtask.id}" is used twice`);
    }
    ids.add(subtask.id);
  }
  for (const subtask of subtasks) {
    for (const dependency of subtask.dependencies) {
      if (dependency === subtask.id) {
        throw new DecompositionError(`subtask "${subtask.id}" depends on itself`);
      }
      if (!ids.has(dependency)) {
        throw new DecompositionError(`subtask "${subtask.id}" depends on unknown subtask "${dependency}"`);
      }
    }
  }
  const cycle = findCycle(subtasks);
  if (cycle) {
    throw new DecompositionError(`the dependencies form a cycle: ${cycle.join(' -> ')}`);
  }
}

/** A dependency cycle as a path (first id repeated at the end), or null. */
function findCycle(subtasks: readonly Pick<SubtaskDefinition, 'id' | 'dependencies'>[]): string[] | null {
  const deps = new Map(subtasks.map((s) => [s.id, s.dependencies]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') {
      return null;
    }
    if (state.get(id) === 'open') {
      return [...path.slice(path.indexOf(id)), id];
    }
    state.set(id, 'open');
    path.push(id);
    for (const next of deps.get(id) ?? []) {
      const found = visit(next);
      if (found) {
        return found;
      }
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const subtask of subtasks) {
    const found = visit(subtask.id);
    if (found) {
      return found;
    }
  }
  return null;
}

/**
 * The DAG's waves: each subtask in the first wave after all of its dependencies, in the order the
 * decomposition listed them. Assumes a validated DAG.
 */
export function computeWaves<T extends Pick<SubtaskDefinition, 'id' | 'dependencies'>>(subtasks: readonly T[]): T[][] {
  const level = new Map<string, number>();
  const byId = new Map(subtasks.map((s) => [s.id, s]));
  const levelOf = (subtask: T): number => {
    const known = level.get(subtask.id);
    if (known !== undefined) {
      return known;
    }
    const value = subtask.dependencies.reduce((max, dep) => Math.max(max, levelOf(byId.get(dep) as T) + 1), 0);
    level.set(subtask.id, value);
    return value;
  };
  const waves: T[][] = [];
  for (const subtask of subtasks) {
    const index = levelOf(subtask);
    (waves[index] ??= []).push(subtask);
  }
  return waves;
}

/** Waves cut to at most `limit` subtasks each (null: no limit), keeping their order. */
export function limitWaves<T>(waves: readonly T[][], limit: number | null): T[][] {
  if (limit === null || limit < 1) {
    return waves.map((wave) => [...wave]);
  }
  return waves.flatMap((wave) => {
    const parts: T[][] = [];
    for (let start = 0; start < wave.length; start += limit) {
      parts.push(wave.slice(start, start + limit));
    }
    return parts;
  });
}

/**
 * The structure a decomposition has: sequential when every wave holds one subtask, parallel when
 * there is one wave (more than one subtask), mixed otherwise.
 */
export function classifyStructure(waves: readonly unknown[][]): TaskStructure {
  if (waves.every((wave) => wave.length === 1)) {
    return 'sequential';
  }
  return waves.length === 1 ? 'parallel' : 'mixed';
}

/**
 * The parent's status from its subtasks' (engine.md §5), rules checked in order: none → created;
 * all completed → completed; all cancelled → cancelled; any failed → failed; any in progress → in
 * progress; any blocked → blocked; only completed and cancelled → cancelled; otherwise in progress.
 */
export function rollupStatus(statuses: readonly TaskStatus[]): TaskStatus {
  if (statuses.length === 0) {
    return 'created';
  }
  const all = (status: TaskStatus): boolean => statuses.every((s) => s === status);
  const any = (status: TaskStatus): boolean => statuses.includes(status);
  if (all('completed')) {
    return 'completed';
  }
  if (all('cancelled')) {
    return 'cancelled';
  }
  if (any('failed')) {
    return 'failed';
  }
  if (any('in_progress')) {
    return 'in_progress';
  }
  if (any('blocked')) {
    return 'blocked';
  }
  if (statuses.every((s) => s === 'completed' || s === 'cancelled')) {
    return 'cancelled';
  }
  return 'in_progress';
}

/**
 * The moves that take a parent the coordination holds in progress to its rolled-up status; null
 * when the state machine has no such path from in progress (created).
 */
export function parentSteps(target: TaskStatus): TaskStatus[] | null {
  switch (target) {
    case 'completed':
      return ['in_review', 'completed'];
    case 'in_progress':
      return [];
    case 'failed':
    case 'cancelled':
    case 'blocked':
    case 'interrupted':
    case 'in_review':
      return [target];
    case 'created':
    case 'assigned':
      return null;
  }
}

/** Whether a subtask in this status will move no further without a person or a retry (a wave waits for it). */
export function subtaskSettled(status: TaskStatus, retryCount: number, maxRetries: number): boolean {
  switch (status) {
    case 'completed':
    case 'cancelled':
    case 'blocked':
      return true;
    case 'failed':
      return retryCount >= maxRetries;
    case 'created':
    case 'assigned':
    case 'in_progress':
    case 'in_review':
    case 'interrupted':
      return false;
  }
}
