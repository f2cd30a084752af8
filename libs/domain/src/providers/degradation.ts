import { assertNever, QuotaExhaustedError } from '../errors';
import type { QuotaTracker } from './quota';
import {
  configError,
  isIntegerInRange,
  isPlainObject,
  ownValue,
  throwIfProblems,
  unknownKeysProblem,
} from './validation';

/**
 * What task assignment does, before the call, when the provider it would use is out of quota:
 * `alert` refuses, `fallback` moves to the first listed provider with capacity, `queue` waits for
 * the quota to reset (up to a bound).
 */
export const DEGRADATION_STRATEGIES = ['alert', 'fallback', 'queue'] as const;
export type DegradationStrategy = (typeof DEGRADATION_STRATEGIES)[number];

export const DEFAULT_DEGRADATION_STRATEGY: DegradationStrategy = 'alert';
export const DEFAULT_QUEUE_MAX_WAIT_SECONDS = 300;
export const QUEUE_MAX_WAIT_SECONDS_MIN = 1;
export const QUEUE_MAX_WAIT_SECONDS_MAX = 3600;

export interface DegradationConfig {
  strategy: DegradationStrategy;
  /** Providers tried in order by the `fallback` strategy. */
  fallbackProviders: string[];
  /** Longest wait the `queue` strategy accepts, 1..3600. */
  queueMaxWaitSeconds: number;
}

/** A degradation configuration as stored and served (snake_case wire shape). */
export interface DegradationConfigJson {
  strategy: DegradationStrategy;
  fallback_providers: string[];
  queue_max_wait_seconds: number;
}

const CONFIG_KEYS = ['strategy', 'fallback_providers', 'queue_max_wait_seconds'] as const;

/** Longest provider name a fallback list may hold. */
export const PROVIDER_NAME_MAX_LENGTH = 128;

export function defaultDegradationConfig(): DegradationConfig {
  return {
    strategy: DEFAULT_DEGRADATION_STRATEGY,
    fallbackProviders: [],
    queueMaxWaitSeconds: DEFAULT_QUEUE_MAX_WAIT_SECONDS,
  };
}

/**
 * Validates the snake_case JSON shape `{strategy, fallback_providers, queue_max_wait_seconds}`.
 * Null or missing values take the defaults (alert, [], 300). Provider names are trimmed and
 * repeated names dropped (first occurrence kept). Unknown keys are rejected.
 * @throws ValidationError (2005) listing every offending field.
 */
export function parseDegradationConfig(raw: unknown): DegradationConfig {
  const config = defaultDegradationConfig();
  if (raw === null || raw === undefined) {
    return config;
  }
  if (!isPlainObject(raw)) {
    throw configError(['degradation config: must be a JSON object']);
  }
  const problems: string[] = [];
  const unknown = unknownKeysProblem(raw, CONFIG_KEYS, 'degradation config: ');
  if (unknown !== null) {
    problems.push(unknown);
  }

  const strategy = ownValue(raw, 'strategy');
  if (strategy !== null && strategy !== undefined) {
    if (typeof strategy === 'string' && (DEGRADATION_STRATEGIES as readonly string[]).includes(strategy)) {
      config.strategy = strategy as DegradationStrategy;
    } else {
      problems.push(`strategy: must be one of ${DEGRADATION_STRATEGIES.join(', ')}`);
    }
  }

  const providers = ownValue(raw, 'fallback_providers');
  if (providers !== null && providers !== undefined) {
    if (Array.isArray(providers)) {
      providers.forEach((entry: unknown, index) => {
        const name = typeof entry === 'string' ? entry.trim() : '';
        if (name.length === 0 || name.length > PROVIDER_NAME_MAX_LENGTH) {
          problems.push(
            `fallback_providers[${index}]: must be a non-empty string of at most ${PROVIDER_NAME_MAX_LENGTH} characters`,
          );
        } else if (!config.fallbackProviders.includes(name)) {
          config.fallbackProviders.push(name);
        }
      });
    } else {
      problems.push('fallback_providers: must be an array of provider names');
    }
  }

  const maxWait = ownValue(raw, 'queue_max_wait_seconds');
  if (maxWait !== null && maxWait !== undefined) {
    if (isIntegerInRange(maxWait, QUEUE_MAX_WAIT_SECONDS_MIN, QUEUE_MAX_WAIT_SECONDS_MAX)) {
      config.queueMaxWaitSeconds = maxWait;
    } else {
      problems.push(
        `queue_max_wait_seconds: must be an integer between ${QUEUE_MAX_WAIT_SECONDS_MIN} and ${QUEUE_MAX_WAIT_SECONDS_MAX}`,
      );
    }
  }

  throwIfProblems(problems);
  return config;
}

export function degradationToJson(config: DegradationConfig): DegradationConfigJson {
  return {
    strategy: config.strategy,
    fallback_providers: [...config.fallbackProviders],
    queue_max_wait_seconds: config.queueMaxWaitSeconds,
  };
}

/** What degradation needs to know of the quotas, at the current instant. */
export interface QuotaView {
  hasCapacity(provider: string): boolean;
  /** Epoch ms of the soonest reset of the provider's exhausted windows; null when none is exhausted. */
  nextResetMs(provider: string): number | null;
}

/**
 * A QuotaView over a tracker that reads the clock on every question (so it stays right across a
 * wait), for calls of about `estimatedTokens` tokens.
 */
export function trackerQuotaView(tracker: QuotaTracker, clock: { now(): number }, estimatedTokens = 0): QuotaView {
  return {
    hasCapacity: (provider) => tracker.hasCapacity(provider, clock.now(), estimatedTokens),
    nextResetMs: (provider) => tracker.nextResetMs(provider, clock.now(), estimatedTokens),
  };
}

/** Go ahead on `provider`; `fallbackFrom` names the exhausted provider it replaces, if any. */
export interface ProceedDecision {
  action: 'proceed';
  provider: string;
  fallbackFrom: string | null;
}

/** Wait `waitMs` for the provider's quota to reset, then decide again. */
export interface WaitDecision {
  action: 'wait';
  provider: string;
  waitMs: number;
}

export type DegradationDecision = ProceedDecision | WaitDecision;

/**
 * The pre-flight decision for a call on `provider`: proceed when it has capacity, otherwise apply
 * the configured strategy.
 * @throws QuotaExhaustedError (6004) when the strategy cannot get a call through: `alert` always;
 *   `fallback` when no listed provider has capacity; `queue` when no reset is known or the reset is
 *   further away than `queueMaxWaitSeconds`. Its retry-after is the time to the soonest known reset.
 */
export function decideDegradation(
  provider: string,
  config: DegradationConfig,
  quota: QuotaView,
  nowMs: number,
): DegradationDecision {
  if (quota.hasCapacity(provider)) {
    return { action: 'proceed', provider, fallbackFrom: null };
  }
  const strategy = config.strategy;
  switch (strategy) {
    case 'alert':
      throw exhausted(`provider '${provider}' is out of quota`, soonestReset([provider], quota), nowMs);
    case 'fallback': {
      const fallbacks = config.fallbackProviders.filter((name) => name !== provider);
      const replacement = fallbacks.find((name) => quota.hasCapacity(name));
      if (replacement !== undefined) {
        return { action: 'proceed', provider: replacement, fallbackFrom: provider };
      }
      const detail =
        fallbacks.length === 0
          ? 'no fallback provider is configured'
          : `no fallback provider has capacity (tried ${fallbacks.join(', ')})`;
      throw exhausted(
        `provider '${provider}' is out of quota and ${detail}`,
        soonestReset([provider, ...fallbacks], quota),
        nowMs,
      );
    }
    case 'queue': {
      const resetAt = quota.nextResetMs(provider);
      if (resetAt === null) {
        throw exhausted(`provider '${provider}' is out of quota and no reset time is known`, null, nowMs);
      }
      const waitMs = Math.max(0, resetAt - nowMs);
      if (waitMs > config.queueMaxWaitSeconds * 1000) {
        throw exhausted(
          `provider '${provider}' is out of quota for ${Math.ceil(waitMs / 1000)} s, longer than the ${config.queueMaxWaitSeconds} s queue limit`,
          resetAt,
          nowMs,
        );
      }
      return { action: 'wait', provider, waitMs };
    }
    default:
      return assertNever(strategy);
  }
}

export interface DegradationClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface DegradationOutcome {
  /** The provider to call. */
  provider: string;
  /** Time spent waiting for a reset (measured on the clock), 0 when the call went ahead at once. */
  waitedMs: number;
  /** The exhausted provider a fallback replaced, null when none was. */
  fallbackFrom: string | null;
}

/**
 * Decides, performs the `queue` wait if asked, and then decides once more: a provider still out of
 * quota after the wait fails the call rather than waiting again.
 * @throws QuotaExhaustedError (6004) as decideDegradation does, or when the quota is still exhausted after the wait.
 */
export async function applyDegradation(
  provider: string,
  config: DegradationConfig,
  quota: QuotaView,
  clock: DegradationClock,
): Promise<DegradationOutcome> {
  const first = decideDegradation(provider, config, quota, clock.now());
  if (first.action === 'proceed') {
    return { provider: first.provider, waitedMs: 0, fallbackFrom: first.fallbackFrom };
  }
  const startedAt = clock.now();
  await clock.sleep(first.waitMs);
  const resumedAt = clock.now();
  const waitedMs = Math.max(0, resumedAt - startedAt);
  const second = decideDegradation(provider, config, quota, resumedAt);
  if (second.action === 'wait') {
    throw exhausted(
      `provider '${provider}' is still out of quota after waiting ${Math.round(waitedMs)} ms`,
      resumedAt + second.waitMs,
      resumedAt,
    );
  }
  return { provider: second.provider, waitedMs, fallbackFrom: second.fallbackFrom };
}

function soonestReset(providers: readonly string[], quota: QuotaView): number | null {
  let soonest: number | null = null;
  for (const name of providers) {
    const resetAt = quota.nextResetMs(name);
    if (resetAt !== null && (soonest === null || resetAt < soonest)) {
      soonest = resetAt;
    }
  }
  return soonest;
}

/** A QuotaExhaustedError whose retry-after counts whole seconds (at least 1) to `resetAt`, when known. */
function exhausted(message: string, resetAt: number | null, nowMs: number): QuotaExhaustedError {
  const retryAfterSec = resetAt === null ? null : Math.max(1, Math.ceil((resetAt - nowMs) / 1000));
  return new QuotaExhaustedError(message, retryAfterSec);
}
