import { ErrorCode, ValidationError } from '../errors';
import { CEREMONY_STRATEGIES, type AutonomyLevel, type SeniorityLevel } from './enums';

/** Juniors (interns included) may never run with full autonomy. */
export function assertAutonomyAllowed(level: SeniorityLevel, autonomy: AutonomyLevel | null): void {
  if (autonomy === 'full' && level === 'junior') {
    throw new ValidationError(
      'autonomy_level: junior agents cannot be given full autonomy',
      ErrorCode.SeniorityAutonomyViolation,
    );
  }
}

/** Agent names are path parameters (/agents/{agent_name}), so they share the 128-character path limit. */
export const AGENT_NAME_MAX_LENGTH = 128;

/** Lookup key of case-insensitive names (agents, departments, projects). */
export function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

export const PROJECT_STATUSES = ['planning', 'active', 'on_hold', 'completed', 'cancelled'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const INITIAL_PROJECT_STATUS: ProjectStatus = 'planning';

export function parseProjectStatus(raw: string): ProjectStatus {
  const value = raw.trim().toLowerCase();
  if (!(PROJECT_STATUSES as readonly string[]).includes(value)) {
    throw new ValidationError(
      `status: must be one of ${PROJECT_STATUSES.join(', ')}`,
      ErrorCode.RequestValidationError,
    );
  }
  return value as ProjectStatus;
}

export const VELOCITY_CALCULATORS = [
  'task_driven',
  'calendar',
  'multi_dimensional',
  'budget',
  'points_per_sprint',
] as const;

const CEREMONY_KEYS = ['strategy', 'strategy_config', 'velocity_calculator', 'auto_transition', 'transition_threshold'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates a department ceremony policy (every key optional) and returns it with null values
 * removed, which is how it is stored: a null key means "inherit" and needs no entry.
 */
export function normalizeCeremonyPolicy(input: unknown): Record<string, unknown> {
  if (!isPlainObject(input)) {
    throw new ValidationError('ceremony policy: must be a JSON object', ErrorCode.RequestValidationError);
  }
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!CEREMONY_KEYS.includes(key)) {
      problems.push(`${key}: unknown ceremony policy field (allowed: ${CEREMONY_KEYS.join(', ')})`);
      continue;
    }
    if (value === null || value === undefined) {
      continue;
    }
    switch (key) {
      case 'strategy':
        if (!(CEREMONY_STRATEGIES as readonly unknown[]).includes(value)) {
          problems.push(`strategy: must be one of ${CEREMONY_STRATEGIES.join(', ')}`);
        }
        break;
      case 'velocity_calculator':
        if (!(VELOCITY_CALCULATORS as readonly unknown[]).includes(value)) {
          problems.push(`velocity_calculator: must be one of ${VELOCITY_CALCULATORS.join(', ')}`);
        }
        break;
      case 'auto_transition':
        if (typeof value !== 'boolean') {
          problems.push('auto_transition: must be a boolean');
        }
        break;
      case 'transition_threshold':
        if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1) {
          problems.push('transition_threshold: must be a number greater than 0 and at most 1');
        }
        break;
      case 'strategy_config':
        if (!isPlainObject(value)) {
          problems.push('strategy_config: must be a JSON object');
        }
        break;
    }
    out[key] = value;
  }
  if (problems.length > 0) {
    throw new ValidationError(problems.join('; '), ErrorCode.RequestValidationError);
  }
  return out;
}

/** The calculator a strategy uses when the policy does not name one. */
export function defaultVelocityCalculator(strategy: string): (typeof VELOCITY_CALCULATORS)[number] {
  switch (strategy) {
    case 'task_driven':
    case 'throughput_adaptive':
      return 'task_driven';
    case 'calendar':
      return 'calendar';
    case 'hybrid':
      return 'multi_dimensional';
    case 'budget_driven':
      return 'budget';
    default:
      return 'points_per_sprint';
  }
}
