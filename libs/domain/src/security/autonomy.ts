import { AUTONOMY_LEVELS, type AutonomyLevel, DEFAULT_AUTONOMY_LEVEL } from '../company/enums';
import { ACTION_TYPES, type ActionType, expandActionTypes } from './action-types';

/** What one autonomy level lets an agent do alone and what it must hand to a person. */
export interface AutonomyPreset {
  readonly level: AutonomyLevel;
  readonly description: string;
  /** Actions approved without a person (the rule engine's detectors still run on them). */
  readonly autoApprove: readonly ActionType[];
  /** Actions that always go to a person: an ALLOW on them becomes ESCALATE. */
  readonly humanApproval: readonly ActionType[];
  /** Whether the security agent reviews the agent's calls at this level. */
  readonly securityAgent: boolean;
}

function preset(
  level: AutonomyLevel,
  description: string,
  autoApprove: readonly string[],
  humanApproval: readonly string[],
): AutonomyPreset {
  return {
    level,
    description,
    autoApprove: expandActionTypes(autoApprove, `autonomy.${level}.auto_approve`),
    humanApproval: expandActionTypes(humanApproval, `autonomy.${level}.human_approval`),
    // The security agent runs at every level but full; under locked it runs for the audit log.
    securityAgent: level !== 'full',
  };
}

/** The four presets, as the interface lists them. */
export const AUTONOMY_PRESETS: Readonly<Record<AutonomyLevel, AutonomyPreset>> = {
  full: preset('full', 'Acts alone on everything', ACTION_TYPES, []),
  semi: preset(
    'semi',
    'Acts alone on code, tests, docs and internal messages; a person approves deploys, external messages, overspending and hiring',
    ['code', 'test', 'docs', 'comms:internal'],
    ['deploy', 'comms:external', 'budget:exceed', 'org:hire'],
  ),
  supervised: preset(
    'supervised',
    'Acts alone on writing code and internal messages; a person approves architecture, new code, deploys and pushes',
    ['code:write', 'comms:internal'],
    ['arch', 'code:create', 'deploy', 'vcs:push'],
  ),
  locked: preset('locked', 'A person approves every action', [], ACTION_TYPES),
};

/**
 * Whether the level sends the action to a person. Under `locked` every action does, unknown ones
 * included: the strictest level must not have a gap for an action the catalogue lacks.
 */
export function requiresHumanApproval(level: AutonomyLevel, action: string): boolean {
  if (level === 'locked') {
    return true;
  }
  return (AUTONOMY_PRESETS[level].humanApproval as readonly string[]).includes(action);
}

/** Whether the level approves the action without a person. */
export function isAutoApproved(level: AutonomyLevel, action: string): boolean {
  return (AUTONOMY_PRESETS[level].autoApprove as readonly string[]).includes(action);
}

/** 0 for `full` up to 3 for `locked`: a higher rank is a stricter level. */
export function autonomyStrictness(level: AutonomyLevel): number {
  return AUTONOMY_LEVELS.indexOf(level);
}

/** True when moving from `from` to `to` gives the agent more autonomy (only people may do that). */
export function isAutonomyRaise(from: AutonomyLevel, to: AutonomyLevel): boolean {
  return autonomyStrictness(to) < autonomyStrictness(from);
}

/** The stricter of two levels. */
export function stricterAutonomy(a: AutonomyLevel, b: AutonomyLevel): AutonomyLevel {
  return autonomyStrictness(a) >= autonomyStrictness(b) ? a : b;
}

/** One level down (`full` → `semi` → `supervised` → `locked`); `locked` stays `locked`. */
export function lowerAutonomyOneLevel(level: AutonomyLevel): AutonomyLevel {
  return AUTONOMY_LEVELS[Math.min(autonomyStrictness(level) + 1, AUTONOMY_LEVELS.length - 1)] ?? 'locked';
}

/** The agent's own level, else its department's, else the company default, else `semi`. */
export function resolveAutonomy(
  agentLevel: AutonomyLevel | null,
  departmentLevel: AutonomyLevel | null,
  companyLevel: AutonomyLevel | null,
): { level: AutonomyLevel; source: 'agent' | 'department' | 'company' | 'default' } {
  if (agentLevel !== null) {
    return { level: agentLevel, source: 'agent' };
  }
  if (departmentLevel !== null) {
    return { level: departmentLevel, source: 'department' };
  }
  if (companyLevel !== null) {
    return { level: companyLevel, source: 'company' };
  }
  return { level: DEFAULT_AUTONOMY_LEVEL, source: 'default' };
}

/** Why the service lowered an agent's autonomy on its own; recovery is always a person's write. */
export const AUTONOMY_DOWNGRADE_REASONS = ['high_error_rate', 'budget_exhausted', 'security_incident'] as const;
export type AutonomyDowngradeReason = (typeof AUTONOMY_DOWNGRADE_REASONS)[number];

/**
 * The level an automatic downgrade leads to: one level down on a high error rate, `supervised` on an
 * exhausted budget, `locked` on a security incident. A downgrade never loosens: an agent already
 * stricter than the target keeps its level.
 */
export function downgradeTarget(current: AutonomyLevel, reason: AutonomyDowngradeReason): AutonomyLevel {
  switch (reason) {
    case 'high_error_rate':
      return lowerAutonomyOneLevel(current);
    case 'budget_exhausted':
      return stricterAutonomy(current, 'supervised');
    case 'security_incident':
      return 'locked';
  }
}
