import { SENIORITY_LEVELS, type SeniorityLevel } from '../company/enums';
import { configError, isPlainObject, ownValue, throwIfProblems, unknownKeysProblem } from './validation';

/** How the model router picks a model for a call; see `routeModel` for each strategy's cascade. */
export const ROUTING_STRATEGIES = ['manual', 'role_based', 'cost_aware', 'cheapest', 'fastest', 'smart'] as const;
export type RoutingStrategy = (typeof ROUTING_STRATEGIES)[number];
export const DEFAULT_ROUTING_STRATEGY: RoutingStrategy = 'cost_aware';

/** Longest model reference or task type a routing configuration may name. */
export const ROUTING_NAME_MAX_LENGTH = 256;

/**
 * One routing rule. Every condition the rule sets must hold for it to match: a rule with a task
 * type and a role level matches only calls of that task type made by agents of that level.
 */
export interface RoutingRule {
  /** Compared case-insensitively with the request's task type. */
  taskType?: string | null;
  roleLevel?: SeniorityLevel | null;
  /** Model id or alias. */
  preferredModel: string;
  /** Model id or alias tried when the preferred model is not in the catalogue. */
  fallback?: string | null;
}

export interface RoutingConfig {
  strategy: RoutingStrategy;
  /** Tried in order; the first matching rule whose model is in the catalogue wins. */
  rules: RoutingRule[];
  /** Model ids or aliases, the last resort of the `smart` strategy. */
  fallbackChain: string[];
}

/** A routing rule as stored and served (snake_case wire shape). */
export interface RoutingRuleJson {
  task_type: string | null;
  role_level: SeniorityLevel | null;
  preferred_model: string;
  fallback: string | null;
}

/** A routing configuration as stored and served (snake_case wire shape). */
export interface RoutingConfigJson {
  strategy: RoutingStrategy;
  rules: RoutingRuleJson[];
  fallback_chain: string[];
}

const CONFIG_KEYS = ['strategy', 'rules', 'fallback_chain'] as const;
const RULE_KEYS = ['task_type', 'role_level', 'preferred_model', 'fallback'] as const;

/** The configuration used when none is stored: cost-aware routing, no rules, no fallback chain. */
export function defaultRoutingConfig(): RoutingConfig {
  return { strategy: DEFAULT_ROUTING_STRATEGY, rules: [], fallbackChain: [] };
}

/**
 * Validates the snake_case JSON shape `{strategy, rules: [{task_type, role_level, preferred_model,
 * fallback}], fallback_chain}`. Null or missing values take their defaults (`cost_aware`, no rules,
 * empty chain); names are trimmed. A rule needs a task type or a role level (otherwise it could never
 * match). Unknown keys are rejected.
 * @throws ValidationError (2005) listing every offending field.
 */
export function parseRoutingConfig(raw: unknown): RoutingConfig {
  if (raw === null || raw === undefined) {
    return defaultRoutingConfig();
  }
  if (!isPlainObject(raw)) {
    throw configError(['routing config: must be a JSON object']);
  }
  const input = raw;
  const problems: string[] = [];
  const unknown = unknownKeysProblem(input, CONFIG_KEYS, 'routing config: ');
  if (unknown !== null) {
    problems.push(unknown);
  }

  let strategy = DEFAULT_ROUTING_STRATEGY;
  const rawStrategy = ownValue(input, 'strategy');
  if (rawStrategy !== null && rawStrategy !== undefined) {
    if (isRoutingStrategy(rawStrategy)) {
      strategy = rawStrategy;
    } else {
      problems.push(`strategy: must be one of ${ROUTING_STRATEGIES.join(', ')}`);
    }
  }

  const rules: RoutingRule[] = [];
  const rawRules = ownValue(input, 'rules');
  if (rawRules !== null && rawRules !== undefined) {
    if (Array.isArray(rawRules)) {
      rawRules.forEach((rawRule: unknown, index) => {
        const rule = parseRule(rawRule, `rules[${index}]`, problems);
        if (rule !== null) {
          rules.push(rule);
        }
      });
    } else {
      problems.push('rules: must be an array of rules');
    }
  }

  const fallbackChain: string[] = [];
  const rawChain = ownValue(input, 'fallback_chain');
  if (rawChain !== null && rawChain !== undefined) {
    if (Array.isArray(rawChain)) {
      rawChain.forEach((entry: unknown, index) => {
        const name = parseName(entry, `fallback_chain[${index}]`, problems);
        if (name !== null) {
          fallbackChain.push(name);
        }
      });
    } else {
      problems.push('fallback_chain: must be an array of model ids or aliases');
    }
  }

  throwIfProblems(problems);
  return { strategy, rules, fallbackChain };
}

/** The wire shape of a configuration (every key present, null for unset rule fields). */
export function routingConfigToJson(config: RoutingConfig): RoutingConfigJson {
  return {
    strategy: config.strategy,
    rules: config.rules.map((rule) => ({
      task_type: rule.taskType ?? null,
      role_level: rule.roleLevel ?? null,
      preferred_model: rule.preferredModel,
      fallback: rule.fallback ?? null,
    })),
    fallback_chain: [...config.fallbackChain],
  };
}

export function isRoutingStrategy(value: unknown): value is RoutingStrategy {
  return typeof value === 'string' && (ROUTING_STRATEGIES as readonly string[]).includes(value);
}

function parseRule(raw: unknown, field: string, problems: string[]): RoutingRule | null {
  if (!isPlainObject(raw)) {
    problems.push(`${field}: must be an object`);
    return null;
  }
  const before = problems.length;
  const unknown = unknownKeysProblem(raw, RULE_KEYS, `${field}: `);
  if (unknown !== null) {
    problems.push(unknown);
  }
  const taskType = parseOptionalName(ownValue(raw, 'task_type'), `${field}.task_type`, problems);
  const roleLevel = parseRoleLevel(ownValue(raw, 'role_level'), `${field}.role_level`, problems);
  const rawPreferred = ownValue(raw, 'preferred_model');
  let preferredModel: string | null = null;
  if (rawPreferred === null || rawPreferred === undefined) {
    problems.push(`${field}.preferred_model: is required`);
  } else {
    preferredModel = parseName(rawPreferred, `${field}.preferred_model`, problems);
  }
  const fallback = parseOptionalName(ownValue(raw, 'fallback'), `${field}.fallback`, problems);
  if (problems.length > before || preferredModel === null) {
    return null;
  }
  if (taskType === null && roleLevel === null) {
    problems.push(`${field}: needs a task_type or a role_level to match on`);
    return null;
  }
  return { taskType, roleLevel, preferredModel, fallback };
}

function parseRoleLevel(raw: unknown, field: string, problems: string[]): SeniorityLevel | null {
  if (raw === null || raw === undefined) {
    return null;
  }
  if (typeof raw === 'string' && (SENIORITY_LEVELS as readonly string[]).includes(raw)) {
    return raw as SeniorityLevel;
  }
  problems.push(`${field}: must be one of ${SENIORITY_LEVELS.join(', ')}`);
  return null;
}

function parseOptionalName(raw: unknown, field: string, problems: string[]): string | null {
  return raw === null || raw === undefined ? null : parseName(raw, field, problems);
}

function parseName(raw: unknown, field: string, problems: string[]): string | null {
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (value.length === 0 || value.length > ROUTING_NAME_MAX_LENGTH) {
    problems.push(`${field}: must be a non-empty string of at most ${ROUTING_NAME_MAX_LENGTH} characters`);
    return null;
  }
  return value;
}
