import type { SeniorityLevel } from '../company/enums';
import type { TaskComplexity, TaskStructure, CoordinationTopology } from '../tasks/task-enums';
import type { SubtaskDefinition } from './coordination-plan';

/** The assignment strategies (engine.md §5); role_based is the default. */
export const ASSIGNMENT_STRATEGIES = [
  'manual',
  'role_based',
  'load_balanced',
  'cost_optimized',
  'hierarchical',
  'auction',
] as const;
export type AssignmentStrategy = (typeof ASSIGNMENT_STRATEGIES)[number];

export const ROUTING_DEFAULTS = { minScore: 0.1, maxConcurrentTasksPerAgent: 5 } as const;

/** Score weights: primary skills, secondary skills, role, seniority against complexity. */
const WEIGHTS = { primary: 0.4, secondary: 0.2, role: 0.2, seniority: 0.2 } as const;

const ALIGNMENT: Readonly<Record<SeniorityLevel, readonly TaskComplexity[]>> = {
  junior: ['simple'],
  mid: ['simple', 'medium'],
  senior: ['medium', 'complex'],
  lead: ['complex', 'epic'],
  principal: ['complex', 'epic'],
  director: ['epic'],
  vp: ['epic'],
  c_suite: ['epic'],
};

const SENIORITY_ORDER: readonly SeniorityLevel[] = [
  'junior',
  'mid',
  'senior',
  'lead',
  'principal',
  'director',
  'vp',
  'c_suite',
];

/** An agent as routing sees it. */
export interface RoutingCandidate {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly department: string;
  readonly level: SeniorityLevel;
  readonly primarySkills: readonly string[];
  readonly secondarySkills: readonly string[];
  /** Price per 1k tokens (input + output) of the agent's model; null when unknown. */
  readonly costPer1k: number | null;
  /** Tasks the agent holds now (assigned, in progress, in review). */
  readonly load: number;
}

export interface ScoredCandidate {
  readonly candidate: RoutingCandidate;
  readonly score: number;
  readonly matchedSkills: string[];
}

const norm = (s: string): string => s.trim().toLowerCase();

/**
 * The routing score in [0, 1]: the share of required skills among the agent's primary skills (0.4)
 * and secondary skills (0.2), the role (0.2), and whether the agent's seniority suits the
 * complexity (0.2). Without required skills the skill parts count as met by any agent.
 */
export function routingScore(
  candidate: RoutingCandidate,
  subtask: Pick<SubtaskDefinition, 'requiredSkills' | 'requiredRole' | 'estimatedComplexity'>,
): ScoredCandidate {
  const required = subtask.requiredSkills.map(norm);
  const primary = new Set(candidate.primarySkills.map(norm));
  const secondary = new Set(candidate.secondarySkills.map(norm));
  const inPrimary = required.filter((skill) => primary.has(skill));
  const inSecondary = required.filter((skill) => secondary.has(skill) && !primary.has(skill));
  const share = (n: number): number => (required.length === 0 ? 1 : n / required.length);
  const role = subtask.requiredRole === null ? 1 : norm(subtask.requiredRole) === norm(candidate.role) ? 1 : 0;
  const aligned = ALIGNMENT[candidate.level]?.includes(subtask.estimatedComplexity) ? 1 : 0;
  const score =
    WEIGHTS.primary * share(inPrimary.length) +
    WEIGHTS.secondary * share(inSecondary.length) +
    WEIGHTS.role * role +
    WEIGHTS.seniority * aligned;
  return { candidate, score: Math.round(score * 1e4) / 1e4, matchedSkills: [...inPrimary, ...inSecondary] };
}

export interface AssignmentOptions {
  readonly strategy: AssignmentStrategy;
  readonly minScore: number;
  readonly maxConcurrentTasksPerAgent: number;
  /** The department of whoever owns the parent task (hierarchical prefers it); null when none. */
  readonly parentDepartment?: string | null;
}

export type Assignment =
  | { ok: true; selected: ScoredCandidate; alternatives: ScoredCandidate[]; reason: string }
  | { ok: false; reason: string };

function seniorityRank(level: SeniorityLevel): number {
  return SENIORITY_ORDER.indexOf(level);
}

/** Orders: higher first for `key`, the roster order (stable sort) breaking ties. */
function best(list: ScoredCandidate[], ...keys: ((s: ScoredCandidate) => number)[]): ScoredCandidate[] {
  return [...list].sort((a, b) => {
    for (const key of keys) {
      const d = key(b) - key(a);
      if (d !== 0) {
        return d;
      }
    }
    return 0;
  });
}

/**
 * Chooses an agent for a subtask. Agents at `maxConcurrentTasksPerAgent` are skipped. `manual`
 * takes the agent the subtask names (and fails without one); the scoring strategies consider agents
 * scoring at least `minScore` and pick: role_based the best score; load_balanced the lightest load;
 * cost_optimized the cheapest model; hierarchical the parent's department, then the most senior;
 * auction the best bid (score discounted by load). Ties fall to the better score, then roster order.
 */
export function assignSubtask(
  subtask: Pick<SubtaskDefinition, 'id' | 'requiredSkills' | 'requiredRole' | 'estimatedComplexity' | 'assignedTo'>,
  candidates: readonly RoutingCandidate[],
  options: AssignmentOptions,
): Assignment {
  const free = candidates.filter((c) => c.load < options.maxConcurrentTasksPerAgent);
  if (options.strategy === 'manual') {
    if (subtask.assignedTo === null) {
      return { ok: false, reason: `subtask "${subtask.id}" names no agent (manual assignment)` };
    }
    const named = candidates.find((c) => norm(c.name) === norm(subtask.assignedTo as string));
    if (!named) {
      return { ok: false, reason: `subtask "${subtask.id}" names unknown agent "${subtask.assignedTo}"` };
    }
    if (!free.includes(named)) {
      return { ok: false, reason: `agent "${named.name}" already holds ${named.load} tasks` };
    }
    return { ok: true, selected: routingScore(named, subtask), alternatives: [], reason: 'named by the decomposition' };
  }
  const eligible = free.map((c) => routingScore(c, subtask)).filter((s) => s.score >= options.minScore);
  if (eligible.length === 0) {
    return {
      ok: false,
      reason:
        free.length === 0
          ? `every candidate already holds ${options.maxConcurrentTasksPerAgent} tasks`
          : `no candidate scores at least ${options.minScore}`,
    };
  }
  const score = (s: ScoredCandidate): number => s.score;
  let ranked: ScoredCandidate[];
  switch (options.strategy) {
    case 'role_based':
      ranked = best(eligible, score);
      break;
    case 'load_balanced':
      ranked = best(eligible, (s) => -s.candidate.load, score);
      break;
    case 'cost_optimized':
      ranked = best(eligible, (s) => -(s.candidate.costPer1k ?? Number.MAX_SAFE_INTEGER), score);
      break;
    case 'hierarchical':
      ranked = best(
        eligible,
        (s) => (options.parentDepartment && s.candidate.department === options.parentDepartment ? 1 : 0),
        (s) => seniorityRank(s.candidate.level),
        score,
      );
      break;
    case 'auction':
      ranked = best(eligible, (s) => s.score * (1 - s.candidate.load / options.maxConcurrentTasksPerAgent), score);
      break;
  }
  const [selected, ...alternatives] = ranked;
  return { ok: true, selected, alternatives, reason: `${options.strategy}: score ${selected.score}` };
}

/** Topologies a request or setting may name; the settings spell sas out as single_agent_sequential. */
export function parseTopology(value: string): CoordinationTopology {
  if (value === 'single_agent_sequential') {
    return 'sas';
  }
  return (
    (['sas', 'centralized', 'decentralized', 'context_dependent', 'auto'] as const).find((t) => t === value) ?? 'auto'
  );
}

/** `auto` resolved by the structure: sequential → sas, parallel → centralized, mixed → context_dependent. */
export function resolveTopology(
  requested: CoordinationTopology,
  structure: TaskStructure,
): Exclude<CoordinationTopology, 'auto'> {
  if (requested !== 'auto') {
    return requested;
  }
  switch (structure) {
    case 'sequential':
      return 'sas';
    case 'parallel':
      return 'centralized';
    case 'mixed':
      return 'context_dependent';
  }
}

/** How a dispatcher runs waves and whether it needs each subtask in a worktree of its own. */
export interface DispatchPlan {
  /** sas runs one subtask at a time in dependency order; the others run the DAG's waves. */
  readonly sequential: boolean;
  readonly isolation: 'never' | 'optional' | 'required' | 'multi_subtask_waves';
}

export function dispatchPlanOf(topology: Exclude<CoordinationTopology, 'auto'>): DispatchPlan {
  switch (topology) {
    case 'sas':
      return { sequential: true, isolation: 'never' };
    case 'centralized':
      return { sequential: false, isolation: 'optional' };
    case 'decentralized':
      return { sequential: false, isolation: 'required' };
    case 'context_dependent':
      return { sequential: false, isolation: 'multi_subtask_waves' };
  }
}
