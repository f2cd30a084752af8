import { ErrorCode, ValidationError } from '../errors';
import { configError, isPlainObject, ownValue, throwIfProblems, unknownKeysProblem } from './validation';

/** Fixed quota windows, aligned to UTC minute, hour and day boundaries. */
export const QUOTA_WINDOWS = ['minute', 'hour', 'day'] as const;
export type QuotaWindow = (typeof QUOTA_WINDOWS)[number];

export const QUOTA_WINDOW_MS: Readonly<Record<QuotaWindow, number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** A provider's limits per window. Null, 0 or absent: unlimited. */
export interface QuotaLimits {
  requestsPerMinute?: number | null;
  requestsPerHour?: number | null;
  requestsPerDay?: number | null;
  tokensPerMinute?: number | null;
  tokensPerHour?: number | null;
  tokensPerDay?: number | null;
}

/** Quota limits as stored and served (snake_case wire shape, every key present). */
export interface QuotaLimitsJson {
  requests_per_minute: number | null;
  requests_per_hour: number | null;
  requests_per_day: number | null;
  tokens_per_minute: number | null;
  tokens_per_hour: number | null;
  tokens_per_day: number | null;
}

interface LimitField {
  readonly key: keyof QuotaLimits;
  readonly json: keyof QuotaLimitsJson;
  readonly window: QuotaWindow;
  readonly kind: 'requests' | 'tokens';
}

const LIMIT_FIELDS: readonly LimitField[] = [
  { key: 'requestsPerMinute', json: 'requests_per_minute', window: 'minute', kind: 'requests' },
  { key: 'requestsPerHour', json: 'requests_per_hour', window: 'hour', kind: 'requests' },
  { key: 'requestsPerDay', json: 'requests_per_day', window: 'day', kind: 'requests' },
  { key: 'tokensPerMinute', json: 'tokens_per_minute', window: 'minute', kind: 'tokens' },
  { key: 'tokensPerHour', json: 'tokens_per_hour', window: 'hour', kind: 'tokens' },
  { key: 'tokensPerDay', json: 'tokens_per_day', window: 'day', kind: 'tokens' },
];
const JSON_KEYS = LIMIT_FIELDS.map((field) => field.json);

/**
 * Validates the snake_case JSON shape (`requests_per_minute` … `tokens_per_day`). Every value is a
 * non-negative integer or null; missing keys and null mean unlimited. Returns every key, null when unset.
 * @throws ValidationError (2005) listing every offending field, unknown keys included.
 */
export function parseQuotaLimits(raw: unknown): QuotaLimits {
  const limits = emptyLimits();
  if (raw === null || raw === undefined) {
    return limits;
  }
  if (!isPlainObject(raw)) {
    throw configError(['quota limits: must be a JSON object']);
  }
  const problems: string[] = [];
  const unknown = unknownKeysProblem(raw, JSON_KEYS, 'quota limits: ');
  if (unknown !== null) {
    problems.push(unknown);
  }
  for (const field of LIMIT_FIELDS) {
    const value = ownValue(raw, field.json);
    if (value === null || value === undefined) {
      continue;
    }
    if (isLimitValue(value)) {
      limits[field.key] = value;
    } else {
      problems.push(`${field.json}: must be a non-negative integer or null`);
    }
  }
  throwIfProblems(problems);
  return limits;
}

/** The wire shape of the limits (every key present, null when unset). */
export function quotaLimitsToJson(limits: QuotaLimits): QuotaLimitsJson {
  const json = {} as QuotaLimitsJson;
  for (const field of LIMIT_FIELDS) {
    json[field.json] = limits[field.key] ?? null;
  }
  return json;
}

/** A call's usage: one request unless told otherwise, and the tokens it consumed. */
export interface QuotaUsage {
  requests?: number;
  tokens?: number;
}

/** One window of a provider's quota at a given instant. Limits are null when unlimited. */
export interface QuotaWindowSnapshot {
  window: QuotaWindow;
  requestsUsed: number;
  requestLimit: number | null;
  tokensUsed: number;
  tokenLimit: number | null;
  /** Epoch ms at which the window's counters start again from zero. */
  resetsAtMs: number;
}

/** Epoch ms of the UTC boundary at which the window containing `nowMs` started. */
export function windowStartMs(window: QuotaWindow, nowMs: number): number {
  const size = QUOTA_WINDOW_MS[window];
  return Math.floor(nowMs / size) * size;
}

interface WindowCounters {
  startMs: number;
  requests: number;
  tokens: number;
}

interface WindowLimits {
  requests: number | null;
  tokens: number | null;
}

interface ProviderQuota {
  limits: Readonly<Record<QuotaWindow, Readonly<WindowLimits>>>;
  windows: Record<QuotaWindow, WindowCounters>;
}

/**
 * In-memory quota accounting per provider over fixed UTC windows. Time is passed in (epoch ms), so the
 * tracker is deterministic. Memory is bounded: each configured provider holds one counter pair per
 * window, zeroed when the window's boundary passes. Usage of providers that are not configured is not
 * tracked, and a clock that steps back keeps counting into the current window.
 */
export class QuotaTracker {
  private readonly providers = new Map<string, ProviderQuota>();

  /**
   * Sets (or replaces) the provider's limits; counters of a reconfigured provider are kept.
   * @throws ValidationError (2005) when a limit is not a non-negative integer.
   */
  configure(provider: string, limits: QuotaLimits): void {
    const problems: string[] = [];
    for (const field of LIMIT_FIELDS) {
      const value = limits[field.key];
      if (value !== null && value !== undefined && !isLimitValue(value)) {
        problems.push(`${field.json}: must be a non-negative integer or null`);
      }
    }
    throwIfProblems(problems);
    const windowLimits: Record<QuotaWindow, WindowLimits> = {
      minute: { requests: null, tokens: null },
      hour: { requests: null, tokens: null },
      day: { requests: null, tokens: null },
    };
    for (const field of LIMIT_FIELDS) {
      const value = limits[field.key] ?? null;
      // 0 means unlimited, like null.
      windowLimits[field.window][field.kind] = value === 0 ? null : value;
    }
    const existing = this.providers.get(provider);
    this.providers.set(provider, {
      limits: windowLimits,
      windows: existing?.windows ?? {
        minute: freshCounters(),
        hour: freshCounters(),
        day: freshCounters(),
      },
    });
  }

  /** Forgets the provider's limits and counters; answers whether it was configured. */
  remove(provider: string): boolean {
    return this.providers.delete(provider);
  }

  isConfigured(provider: string): boolean {
    return this.providers.has(provider);
  }

  /**
   * Counts a call (one request by default) against every window. Ignored for providers that are not configured.
   * @throws ValidationError when a count is not a non-negative integer or the time is not finite.
   */
  record(provider: string, usage: QuotaUsage, nowMs: number): void {
    const requests = usage.requests ?? 1;
    const tokens = usage.tokens ?? 0;
    assertTime(nowMs);
    assertCount('requests', requests);
    assertCount('tokens', tokens);
    const quota = this.providers.get(provider);
    if (quota === undefined) {
      return;
    }
    for (const window of QUOTA_WINDOWS) {
      const counters = current(quota, window, nowMs);
      counters.requests += requests;
      counters.tokens += tokens;
    }
  }

  /**
   * Whether one more request of about `estimatedTokens` tokens fits every window. True for providers
   * that are not configured or have no limits.
   */
  hasCapacity(provider: string, nowMs: number, estimatedTokens = 0): boolean {
    assertTime(nowMs);
    assertCount('estimatedTokens', estimatedTokens);
    const quota = this.providers.get(provider);
    return quota === undefined || QUOTA_WINDOWS.every((window) => !isExhausted(quota, window, nowMs, estimatedTokens));
  }

  /** Every window's usage and limits at `nowMs`; empty for a provider that is not configured. */
  snapshot(provider: string, nowMs: number): QuotaWindowSnapshot[] {
    assertTime(nowMs);
    const quota = this.providers.get(provider);
    if (quota === undefined) {
      return [];
    }
    return QUOTA_WINDOWS.map((window) => {
      const counters = current(quota, window, nowMs);
      return {
        window,
        requestsUsed: counters.requests,
        requestLimit: quota.limits[window].requests,
        tokensUsed: counters.tokens,
        tokenLimit: quota.limits[window].tokens,
        resetsAtMs: counters.startMs + QUOTA_WINDOW_MS[window],
      };
    });
  }

  /**
   * The soonest reset among the windows that have no room for one more request of about
   * `estimatedTokens` tokens; null when the provider has capacity (or is not configured).
   */
  nextResetMs(provider: string, nowMs: number, estimatedTokens = 0): number | null {
    assertTime(nowMs);
    assertCount('estimatedTokens', estimatedTokens);
    const quota = this.providers.get(provider);
    if (quota === undefined) {
      return null;
    }
    let soonest: number | null = null;
    for (const window of QUOTA_WINDOWS) {
      if (isExhausted(quota, window, nowMs, estimatedTokens)) {
        const resetsAt = current(quota, window, nowMs).startMs + QUOTA_WINDOW_MS[window];
        soonest = soonest === null ? resetsAt : Math.min(soonest, resetsAt);
      }
    }
    return soonest;
  }
}

function emptyLimits(): QuotaLimits {
  return {
    requestsPerMinute: null,
    requestsPerHour: null,
    requestsPerDay: null,
    tokensPerMinute: null,
    tokensPerHour: null,
    tokensPerDay: null,
  };
}

function isLimitValue(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ValidationError(`${name}: must be a non-negative integer`, ErrorCode.ValidationError);
  }
}

function assertTime(nowMs: number): void {
  if (!Number.isFinite(nowMs)) {
    throw new ValidationError('nowMs: must be a finite epoch time in milliseconds', ErrorCode.ValidationError);
  }
}

function freshCounters(): WindowCounters {
  return { startMs: Number.NEGATIVE_INFINITY, requests: 0, tokens: 0 };
}

/** The window's counters at `nowMs`, zeroed first when a later window has begun. */
function current(quota: ProviderQuota, window: QuotaWindow, nowMs: number): WindowCounters {
  const counters = quota.windows[window];
  const start = windowStartMs(window, nowMs);
  if (start > counters.startMs) {
    counters.startMs = start;
    counters.requests = 0;
    counters.tokens = 0;
  }
  return counters;
}

/** Whether the window has no room for one more request of `estimatedTokens` tokens. */
function isExhausted(quota: ProviderQuota, window: QuotaWindow, nowMs: number, estimatedTokens: number): boolean {
  const { requests: requestLimit, tokens: tokenLimit } = quota.limits[window];
  if (requestLimit === null && tokenLimit === null) {
    return false;
  }
  const counters = current(quota, window, nowMs);
  const requestsFull = requestLimit !== null && counters.requests + 1 > requestLimit;
  const tokensFull =
    tokenLimit !== null && (counters.tokens >= tokenLimit || counters.tokens + estimatedTokens > tokenLimit);
  return requestsFull || tokensFull;
}
