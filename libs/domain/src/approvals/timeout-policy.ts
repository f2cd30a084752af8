import { type RiskLevel, RISK_LEVELS } from '../security/risk';

/** What a pending item's timeout does (spec "Approval timeout policies"). */
export const TIMEOUT_POLICIES = ['wait', 'deny', 'tiered', 'escalation'] as const;
export type TimeoutPolicy = (typeof TIMEOUT_POLICIES)[number];

/** What happens when an item's deadline passes. */
export type TimeoutAction = 'wait' | 'approve' | 'deny' | 'escalate';
const TIMEOUT_ACTIONS: readonly TimeoutAction[] = ['wait', 'approve', 'deny', 'escalate'];

/** One risk tier of the `tiered` policy; a null timeout waits forever. */
export interface TimeoutTier {
  timeoutMinutes: number | null;
  onTimeout: TimeoutAction;
  /** Action types placed in this tier whatever their risk level. */
  actions: string[];
}

/** One human step of the `escalation` policy. */
export interface EscalationStep {
  role: string;
  timeoutMinutes: number;
}

/** The running configuration of the approval timeouts. */
export interface TimeoutPolicyConfig {
  policy: TimeoutPolicy;
  /** The `deny` policy's timeout. */
  denyTimeoutMinutes: number;
  tiers: Partial<Record<RiskLevel, TimeoutTier>>;
  chain: EscalationStep[];
}

/** An item's deadline and what its passing does; `step` is the escalation chain position (-1: none). */
export interface TimeoutPlan {
  expiresAt: Date | null;
  onTimeout: Exclude<TimeoutAction, 'wait'> | null;
  step: number;
  role: string | null;
}

/** What a passed deadline does to a pending item. */
export type TimeoutOutcome =
  { kind: 'expire' } | { kind: 'approve' } | { kind: 'escalate'; plan: TimeoutPlan } | { kind: 'none' };

const NO_DEADLINE: TimeoutPlan = { expiresAt: null, onTimeout: null, step: -1, role: null };

/** The defaults of the reference's illustrative tiers: low approves after 60 min, medium denies after 240, high waits. */
export const DEFAULT_TIERS: TimeoutPolicyConfig['tiers'] = {
  low: { timeoutMinutes: 60, onTimeout: 'approve', actions: [] },
  medium: { timeoutMinutes: 240, onTimeout: 'deny', actions: [] },
  high: { timeoutMinutes: null, onTimeout: 'deny', actions: [] },
  critical: { timeoutMinutes: null, onTimeout: 'deny', actions: [] },
};

/** The default chain: a manager first, then the CEO; denied when both let it pass. */
export const DEFAULT_CHAIN: EscalationStep[] = [
  { role: 'manager', timeoutMinutes: 60 },
  { role: 'ceo', timeoutMinutes: 240 },
];

function after(now: Date, minutes: number): Date {
  return new Date(now.getTime() + minutes * 60_000);
}

function chainPlan(config: TimeoutPolicyConfig, step: number, now: Date): TimeoutPlan | null {
  const entry = config.chain[step];
  return entry ? { expiresAt: after(now, entry.timeoutMinutes), onTimeout: 'escalate', step, role: entry.role } : null;
}

/** The tier an item falls in: one that lists its action type, else the tier of its risk level. */
export function tierOf(config: TimeoutPolicyConfig, riskLevel: RiskLevel, actionType: string): TimeoutTier | null {
  for (const level of RISK_LEVELS) {
    const tier = config.tiers[level];
    if (tier?.actions.includes(actionType)) {
      return tier;
    }
  }
  return config.tiers[riskLevel] ?? null;
}

/**
 * The deadline a new item gets. A TTL given with the item wins and expires it; otherwise the policy
 * decides: `wait` none, `deny` its timeout, `tiered` the item's tier, `escalation` the chain's first step.
 */
export function planTimeout(
  config: TimeoutPolicyConfig,
  item: { riskLevel: RiskLevel; actionType: string; ttlSeconds: number | null },
  now: Date,
): TimeoutPlan {
  if (item.ttlSeconds !== null) {
    return { expiresAt: new Date(now.getTime() + item.ttlSeconds * 1000), onTimeout: 'deny', step: -1, role: null };
  }
  switch (config.policy) {
    case 'wait':
      return NO_DEADLINE;
    case 'deny':
      return { expiresAt: after(now, config.denyTimeoutMinutes), onTimeout: 'deny', step: -1, role: null };
    case 'tiered': {
      const tier = tierOf(config, item.riskLevel, item.actionType);
      if (!tier || tier.timeoutMinutes === null || tier.onTimeout === 'wait') {
        return NO_DEADLINE;
      }
      return { expiresAt: after(now, tier.timeoutMinutes), onTimeout: tier.onTimeout, step: -1, role: null };
    }
    case 'escalation':
      // An empty chain has nobody to wait for: the item is denied at its first check.
      return chainPlan(config, 0, now) ?? { expiresAt: now, onTimeout: 'deny', step: -1, role: null };
  }
}

/**
 * What a passed deadline does: deny expires the item, approve approves it, escalate moves it to the
 * chain's next step (a tier's escalation enters the chain at its first step) and expires it once the
 * chain is exhausted.
 */
export function timeoutOutcome(
  config: TimeoutPolicyConfig,
  item: { onTimeout: TimeoutAction | null; step: number },
  now: Date,
): TimeoutOutcome {
  switch (item.onTimeout) {
    case 'deny':
      return { kind: 'expire' };
    case 'approve':
      return { kind: 'approve' };
    case 'escalate': {
      const next = chainPlan(config, item.step + 1, now);
      return next ? { kind: 'escalate', plan: next } : { kind: 'expire' };
    }
    case 'wait':
    case null:
      return { kind: 'none' };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveMinutes(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 525_600;
}

/** Reads the `tiers` setting (`{risk: {timeout_minutes, on_timeout, actions[]}}`); throws on a bad shape. */
export function parseTiers(raw: unknown): TimeoutPolicyConfig['tiers'] {
  if (!isObject(raw)) {
    throw new TypeError('tiers must be an object keyed by risk level');
  }
  const tiers: TimeoutPolicyConfig['tiers'] = {};
  for (const [level, value] of Object.entries(raw)) {
    if (!(RISK_LEVELS as readonly string[]).includes(level)) {
      throw new TypeError(`unknown risk level "${level}" in tiers`);
    }
    if (!isObject(value)) {
      throw new TypeError(`tier "${level}" must be an object`);
    }
    const minutes = value.timeout_minutes ?? null;
    if (minutes !== null && !positiveMinutes(minutes)) {
      throw new TypeError(`tier "${level}": timeout_minutes must be a positive number of minutes or null`);
    }
    const onTimeout = value.on_timeout ?? 'deny';
    if (typeof onTimeout !== 'string' || !(TIMEOUT_ACTIONS as readonly string[]).includes(onTimeout)) {
      throw new TypeError(`tier "${level}": on_timeout must be one of ${TIMEOUT_ACTIONS.join(', ')}`);
    }
    const actions: unknown = value.actions ?? [];
    if (!Array.isArray(actions) || !actions.every((a): a is string => typeof a === 'string' && a.length <= 128)) {
      throw new TypeError(`tier "${level}": actions must be a list of action types`);
    }
    tiers[level as RiskLevel] = { timeoutMinutes: minutes, onTimeout: onTimeout as TimeoutAction, actions };
  }
  return tiers;
}

/** Reads the `chain` setting (`[{role, timeout_minutes}]`); throws on a bad shape. */
export function parseChain(raw: unknown): EscalationStep[] {
  if (!Array.isArray(raw) || raw.length > 10) {
    throw new TypeError('the escalation chain must be a list of at most 10 steps');
  }
  return raw.map((step: unknown, index) => {
    if (!isObject(step) || typeof step.role !== 'string' || step.role.length === 0 || step.role.length > 64) {
      throw new TypeError(`chain step ${index}: role must be a non-empty name`);
    }
    if (!positiveMinutes(step.timeout_minutes)) {
      throw new TypeError(`chain step ${index}: timeout_minutes must be a positive number of minutes`);
    }
    return { role: step.role, timeoutMinutes: step.timeout_minutes };
  });
}
