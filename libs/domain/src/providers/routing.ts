import type { ModelTier, SeniorityLevel } from '../company/enums';
import { pickModelForTier } from '../company/model-matching';
import { AppError, assertNever, ErrorCode, NotFoundError, ValidationError } from '../errors';
import type { RoutingConfig, RoutingRule, RoutingStrategy } from './routing-config';
import {
  cheapestOf,
  compareByCost,
  totalCostPer1k,
  type CandidateSelector,
  type RoutableModel,
} from './routing-selectors';

export interface RoutingRequest {
  agentLevel?: SeniorityLevel | null;
  taskType?: string | null;
  /** Model id or alias chosen explicitly for the call (manual and smart routing). */
  modelOverride?: string | null;
  /** Budget left for the call, compared with a model's cost of 1k input plus 1k output tokens. Null: no limit. */
  remainingBudget?: number | null;
}

export interface RoutingDecision {
  model: RoutableModel;
  /** The strategy the configuration named (`cheapest` is reported as such, though it routes as `cost_aware`). */
  strategyUsed: RoutingStrategy;
  /** One short sentence saying which step chose the model. */
  reason: string;
  /** Model ids or aliases the cascade named but found in no provider's catalogue, in the order tried. */
  fallbacksTried: string[];
}

const SENIORITY_TIERS: Readonly<Record<SeniorityLevel, ModelTier>> = {
  junior: 'small',
  mid: 'medium',
  senior: 'medium',
  lead: 'large',
  principal: 'large',
  director: 'large',
  vp: 'large',
  c_suite: 'large',
};

/** The model tier an agent of the given seniority gets by default. */
export function tierForSeniority(level: SeniorityLevel): ModelTier {
  return SENIORITY_TIERS[level];
}

/**
 * Picks the model for one call. A model reference matches a model by id or alias; when several
 * providers offer a match, `selector` chooses among all of them. Steps that name no model (tier
 * default, cheapest, fastest) first choose a model id, then hand that id's variants (those within
 * budget, for the budgeted steps) to the selector. Per strategy:
 *
 * - `manual`: the request's model override, which must be set and known.
 * - `role_based`: rules matching the agent's level, else the default of the level's tier
 *   (see tierForSeniority; medium when the level is unknown).
 * - `cost_aware` and its alias `cheapest`: rules matching the task type, else the cheapest model
 *   within budget.
 * - `fastest`: rules matching the task type, else the lowest estimated latency within budget among
 *   models with latency data (the cheapest within budget when no model has any).
 * - `smart`: override → task-type rules → role rules → seniority default (when the level is known)
 *   → cheapest within budget → the first model of the fallback chain found in the catalogue.
 *
 * A matching rule whose preferred model is missing tries its fallback, then the next matching rule,
 * then the rest of the cascade. A model is within budget when no budget is given or its cost of 1k
 * input plus 1k output tokens does not exceed it.
 *
 * @throws ValidationError RoutingUnresolved (2015) on an empty catalogue or manual routing without override.
 * @throws NotFoundError ModelNotFound (3011) when the manual override names no known model.
 * @throws AppError BudgetExhausted (6000) when the cascade ends because no model fits the budget.
 */
export function routeModel(
  models: readonly RoutableModel[],
  config: RoutingConfig,
  request: RoutingRequest,
  selector: CandidateSelector,
): RoutingDecision {
  if (models.length === 0) {
    throw new ValidationError(
      'cannot route the call: no provider has any model registered',
      ErrorCode.RoutingUnresolved,
    );
  }
  const cascade = new Cascade(models, selector, request.remainingBudget ?? null);
  const pick = pickFor(config, request, cascade);
  return {
    model: pick.model,
    strategyUsed: config.strategy,
    reason: pick.reason,
    fallbacksTried: cascade.fallbacksTried,
  };
}

interface Pick {
  model: RoutableModel;
  reason: string;
}

function pickFor(config: RoutingConfig, request: RoutingRequest, cascade: Cascade): Pick {
  const strategy = config.strategy;
  switch (strategy) {
    case 'manual':
      return manualPick(request, cascade);
    case 'role_based':
      return (
        cascade.fromRules(roleRules(config.rules, request, true), 'role') ??
        cascade.seniorityDefault(request.agentLevel ?? null)
      );
    case 'cost_aware':
    case 'cheapest':
      return cascade.fromRules(taskRules(config.rules, request), 'task-type') ?? cascade.cheapestOrThrow();
    case 'fastest':
      return cascade.fromRules(taskRules(config.rules, request), 'task-type') ?? cascade.fastestOrThrow();
    case 'smart':
      return smartPick(config, request, cascade);
    default:
      return assertNever(strategy);
  }
}

function manualPick(request: RoutingRequest, cascade: Cascade): Pick {
  const ref = cleanName(request.modelOverride);
  if (ref === null) {
    throw new ValidationError(
      'manual routing needs a model override, and the request names none',
      ErrorCode.RoutingUnresolved,
    );
  }
  const model = cascade.resolve(ref);
  if (model === null) {
    throw new NotFoundError(`model '${ref}' is not offered by any registered provider`, ErrorCode.ModelNotFound);
  }
  return { model, reason: `manual override → ${model.id}` };
}

function smartPick(config: RoutingConfig, request: RoutingRequest, cascade: Cascade): Pick {
  const override = cleanName(request.modelOverride);
  if (override !== null) {
    const model = cascade.resolve(override);
    if (model !== null) {
      return { model, reason: `model override → ${model.id}` };
    }
  }
  const level = request.agentLevel ?? null;
  const pick =
    cascade.fromRules(taskRules(config.rules, request), 'task-type') ??
    // Rules that also name a task type were already tried as task-type rules.
    cascade.fromRules(roleRules(config.rules, request, false), 'role') ??
    (level === null ? null : cascade.seniorityDefault(level)) ??
    cascade.cheapestWithinBudget();
  if (pick !== null) {
    return pick;
  }
  for (const ref of config.fallbackChain) {
    const model = cascade.resolve(ref);
    if (model !== null) {
      return { model, reason: `fallback chain → ${model.id}` };
    }
  }
  throw cascade.budgetExhausted();
}

/** Rules naming the request's task type (case-insensitive) whose role level, if any, is the agent's. */
function taskRules(rules: readonly RoutingRule[], request: RoutingRequest): RoutingRule[] {
  const taskType = taskKey(request.taskType);
  if (taskType === null) {
    return [];
  }
  return rules.filter(
    (rule) =>
      taskKey(rule.taskType) === taskType &&
      ((rule.roleLevel ?? null) === null || rule.roleLevel === request.agentLevel),
  );
}

/**
 * Rules naming the agent's level. With `withTaskType`, rules that also name a task type are kept
 * when it is the request's; without, only rules naming no task type are returned.
 */
function roleRules(rules: readonly RoutingRule[], request: RoutingRequest, withTaskType: boolean): RoutingRule[] {
  const level = request.agentLevel ?? null;
  if (level === null) {
    return [];
  }
  const taskType = taskKey(request.taskType);
  return rules.filter((rule) => {
    if (rule.roleLevel !== level) {
      return false;
    }
    const ruleTask = taskKey(rule.taskType);
    return ruleTask === null || (withTaskType && ruleTask === taskType);
  });
}

function taskKey(value: string | null | undefined): string | null {
  const name = cleanName(value);
  return name === null ? null : name.toLowerCase();
}

function cleanName(value: string | null | undefined): string | null {
  const name = value?.trim() ?? '';
  return name.length === 0 ? null : name;
}

/** The steps of the cascades over one catalogue, recording the named models found missing. */
class Cascade {
  readonly fallbacksTried: string[] = [];

  constructor(
    private readonly models: readonly RoutableModel[],
    private readonly selector: CandidateSelector,
    private readonly budget: number | null,
  ) {}

  /** The selected variant of the model `ref` names (id or alias), or null (recorded) when none does. */
  resolve(ref: string): RoutableModel | null {
    const name = ref.trim();
    const candidates = this.models.filter((model) => model.id === name || model.alias === name);
    if (candidates.length === 0) {
      if (name.length > 0 && !this.fallbacksTried.includes(name)) {
        this.fallbacksTried.push(name);
      }
      return null;
    }
    return this.selector.select(candidates);
  }

  /** The first matching rule whose preferred model, or else its fallback, is in the catalogue. */
  fromRules(rules: readonly RoutingRule[], kind: 'task-type' | 'role'): Pick | null {
    for (const rule of rules) {
      const key = kind === 'task-type' ? rule.taskType : rule.roleLevel;
      const preferred = this.resolve(rule.preferredModel);
      if (preferred !== null) {
        return { model: preferred, reason: `${kind} rule '${key}' → ${preferred.id}` };
      }
      const fallback = cleanName(rule.fallback);
      const model = fallback === null ? null : this.resolve(fallback);
      if (model !== null) {
        return { model, reason: `${kind} rule '${key}' fallback → ${model.id}` };
      }
    }
    return null;
  }

  /** The default model of the level's tier (medium without a level), by pickModelForTier's rule. */
  seniorityDefault(level: SeniorityLevel | null): Pick {
    const tier = level === null ? 'medium' : tierForSeniority(level);
    // Rank distinct models, each at its cheapest variant, so that a model many providers offer
    // takes one place in the price order; the selector then chooses among its variants.
    const representatives = new Map<string, RoutableModel>();
    for (const model of [...this.models].sort(compareByCost)) {
      if (!representatives.has(model.id)) {
        representatives.set(model.id, model);
      }
    }
    const picked = pickModelForTier([...representatives.values()], tier);
    const model = this.selectVariants(this.models, picked?.id ?? this.models[0].id);
    const reason =
      level === null
        ? `no agent level: ${tier}-tier default → ${model.id}`
        : `seniority default for '${level}' (${tier} tier) → ${model.id}`;
    return { model, reason };
  }

  /** The cheapest model within budget (its variants left to the selector), or null when none fits. */
  cheapestWithinBudget(prefix = ''): Pick | null {
    const within = this.models.filter((model) => this.fits(model));
    if (within.length === 0) {
      return null;
    }
    const model = this.selectVariants(within, cheapestOf(within).id);
    const what = this.budget === null ? 'cheapest model' : 'cheapest model within budget';
    return { model, reason: `${prefix}${what} → ${model.id}` };
  }

  cheapestOrThrow(prefix = ''): Pick {
    const pick = this.cheapestWithinBudget(prefix);
    if (pick === null) {
      throw this.budgetExhausted();
    }
    return pick;
  }

  /** The lowest estimated latency within budget; the cheapest within budget when no model has latency data. */
  fastestOrThrow(): Pick {
    const timed = this.models.filter((model) => latencyOf(model) !== null);
    if (timed.length === 0) {
      return this.cheapestOrThrow('no latency data: ');
    }
    const within = timed.filter((model) => this.fits(model));
    if (within.length === 0) {
      throw this.budgetExhausted();
    }
    const fastest = [...within].sort((a, b) => (latencyOf(a) ?? 0) - (latencyOf(b) ?? 0) || compareByCost(a, b))[0];
    const model = this.selectVariants(within, fastest.id);
    const what = this.budget === null ? 'fastest model' : 'fastest model within budget';
    return { model, reason: `${what} (${latencyOf(model)} ms) → ${model.id}` };
  }

  budgetExhausted(): AppError {
    return new AppError(
      ErrorCode.BudgetExhausted,
      `no model fits the remaining budget of ${this.budget} per 1k input + 1k output tokens`,
    );
  }

  private fits(model: RoutableModel): boolean {
    return this.budget === null || totalCostPer1k(model) <= this.budget;
  }

  private selectVariants(pool: readonly RoutableModel[], id: string): RoutableModel {
    return this.selector.select(pool.filter((model) => model.id === id));
  }
}

function latencyOf(model: RoutableModel): number | null {
  const latency = model.estimatedLatencyMs;
  return latency !== null && Number.isFinite(latency) ? latency : null;
}
