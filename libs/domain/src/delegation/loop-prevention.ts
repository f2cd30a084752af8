import { createHash } from 'node:crypto';

import { ErrorCode } from '../errors';

/** The loop-prevention checks, in the order they run; the first that refuses names the refusal. */
export const LOOP_CHECKS = ['ancestry', 'depth', 'dedup', 'rate_limit', 'circuit_breaker'] as const;
export type LoopCheck = (typeof LOOP_CHECKS)[number];

/** The limits of the loop-prevention checks (the `coordination` settings). Ancestry is always on. */
export interface LoopPreventionConfig {
  /** Delegations a task may be away from its root: the delegation chain's length after this hop. */
  readonly maxDelegationDepth: number;
  /** The same work (title and description) to the same delegatee is refused within this window. */
  readonly dedupWindowSeconds: number;
  /** Delegations between two agents, either way, within any 60 seconds... */
  readonly maxPerPairPerMinute: number;
  /** ...plus this many more as a burst. */
  readonly burstAllowance: number;
  /** Bounces (a delegation against the pair's previous direction) that open the pair's breaker. */
  readonly bounceThreshold: number;
  /** How long an open breaker refuses the pair; a pair quiet this long also forgets its bounces. */
  readonly cooldownSeconds: number;
}

export const DEFAULT_LOOP_PREVENTION: LoopPreventionConfig = {
  maxDelegationDepth: 5,
  dedupWindowSeconds: 60,
  maxPerPairPerMinute: 10,
  burstAllowance: 3,
  bounceThreshold: 3,
  cooldownSeconds: 300,
};

const RATE_WINDOW_MS = 60_000;

/** A delegation already made, as the checks need it: who to whom (agent ids), what and when. */
export interface DelegationHistoryEntry {
  readonly delegatorId: string;
  readonly delegateeId: string;
  readonly fingerprint: string;
  readonly at: Date;
}

/** The delegation being asked for. */
export interface DelegationAttempt {
  readonly delegatorId: string;
  readonly delegatorName: string;
  readonly delegateeId: string;
  readonly delegateeName: string;
  /** The original task's delegation chain (agent names, root first). */
  readonly chain: readonly string[];
  /** delegationFingerprint of the subtask's title and description. */
  readonly fingerprint: string;
}

export type LoopVerdict =
  | { readonly allowed: true; readonly chain: string[] }
  | {
      readonly allowed: false;
      readonly check: LoopCheck;
      readonly code: ErrorCode;
      readonly message: string;
      /** Seconds until the same delegation could pass (time-based checks only). */
      readonly retryAfterSeconds: number | null;
    };

/** How the dedup check recognises the same work: title and description, trimmed, spaces collapsed, case folded. */
export function delegationFingerprint(title: string, description: string): string {
  const norm = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  return createHash('sha256')
    .update(`${norm(title)}\n${norm(description)}`)
    .digest('hex');
}

/** How far back the checks look: the longest window any of them needs. */
export function loopHistorySince(now: Date, config: LoopPreventionConfig): Date {
  const breakerMs = config.cooldownSeconds * 1000 * (config.bounceThreshold + 1);
  const lookback = Math.max(config.dedupWindowSeconds * 1000, RATE_WINDOW_MS, breakerMs);
  return new Date(now.getTime() - lookback);
}

/**
 * Runs the checks in order (ancestry, depth, dedup, per-pair rate, circuit breaker) against the
 * pair's recent delegations (both directions, any order). On success it answers the subtask's
 * delegation chain: the original chain with the delegator appended.
 */
export function checkDelegationLoop(
  attempt: DelegationAttempt,
  history: readonly DelegationHistoryEntry[],
  config: LoopPreventionConfig,
  now: Date,
): LoopVerdict {
  const chain = [...attempt.chain, attempt.delegatorName];
  const key = (name: string) => name.trim().toLowerCase();
  if (chain.some((name) => key(name) === key(attempt.delegateeName))) {
    return refuse(
      'ancestry',
      ErrorCode.DelegationAncestryLoop,
      `${attempt.delegateeName} is already in the delegation chain (${chain.join(' → ')}): delegating to it would loop`,
    );
  }
  if (chain.length > config.maxDelegationDepth) {
    return refuse(
      'depth',
      ErrorCode.DelegationDepthExceeded,
      `the delegation chain would reach depth ${chain.length}, over the limit of ${config.maxDelegationDepth}`,
    );
  }
  const nowMs = now.getTime();
  const pair = history
    .filter((e) => isPair(e, attempt.delegatorId, attempt.delegateeId) && e.at.getTime() <= nowMs)
    .sort((a, b) => a.at.getTime() - b.at.getTime());

  const dedupMs = config.dedupWindowSeconds * 1000;
  const duplicate = pair
    .filter(
      (e) =>
        e.delegatorId === attempt.delegatorId &&
        e.delegateeId === attempt.delegateeId &&
        e.fingerprint === attempt.fingerprint &&
        nowMs - e.at.getTime() < dedupMs,
    )
    .at(-1);
  if (duplicate) {
    return refuse(
      'dedup',
      ErrorCode.DelegationDuplicate,
      `the same task was delegated to ${attempt.delegateeName} ${seconds(nowMs - duplicate.at.getTime())} s ago ` +
        `(dedup window ${config.dedupWindowSeconds} s)`,
      (duplicate.at.getTime() + dedupMs - nowMs) / 1000,
    );
  }

  const limit = config.maxPerPairPerMinute + config.burstAllowance;
  const recent = pair.filter((e) => nowMs - e.at.getTime() < RATE_WINDOW_MS);
  if (recent.length >= limit) {
    const frees = recent[recent.length - limit].at.getTime() + RATE_WINDOW_MS;
    return refuse(
      'rate_limit',
      ErrorCode.DelegationRateLimited,
      `${recent.length} delegations between ${attempt.delegatorName} and ${attempt.delegateeName} in the last minute ` +
        `(limit ${config.maxPerPairPerMinute} a minute plus a burst of ${config.burstAllowance})`,
      (frees - nowMs) / 1000,
    );
  }

  const openUntil = breakerOpenUntil(pair, config);
  if (openUntil !== null && nowMs < openUntil) {
    return refuse(
      'circuit_breaker',
      ErrorCode.DelegationCircuitOpen,
      `work has bounced between ${attempt.delegatorName} and ${attempt.delegateeName} ${config.bounceThreshold} ` +
        `times: delegations between them are paused for ${config.cooldownSeconds} s`,
      (openUntil - nowMs) / 1000,
    );
  }
  return { allowed: true, chain };
}

/**
 * When the pair's breaker closes again (epoch ms), or null when it is not open. A bounce is a
 * delegation against the direction of the pair's previous one (A→B, then B→A). The breaker opens
 * at the threshold-th bounce and stays open for the cooldown; bounces are forgotten once the
 * breaker closes or after a quiet cooldown. Replayed from the records, so every replica agrees.
 */
export function breakerOpenUntil(
  pairHistory: readonly DelegationHistoryEntry[],
  config: Pick<LoopPreventionConfig, 'bounceThreshold' | 'cooldownSeconds'>,
): number | null {
  const cooldownMs = config.cooldownSeconds * 1000;
  let bounces = 0;
  let lastBounceAt: number | null = null;
  let openedAt: number | null = null;
  let previousDelegator: string | null = null;
  for (const entry of pairHistory) {
    const at = entry.at.getTime();
    if (openedAt !== null && at >= openedAt + cooldownMs) {
      openedAt = null;
      bounces = 0;
    }
    if (lastBounceAt !== null && at - lastBounceAt > cooldownMs) {
      bounces = 0;
    }
    if (previousDelegator !== null && entry.delegatorId !== previousDelegator) {
      bounces += 1;
      lastBounceAt = at;
      if (bounces >= config.bounceThreshold && openedAt === null) {
        openedAt = at;
      }
    }
    previousDelegator = entry.delegatorId;
  }
  return openedAt === null ? null : openedAt + cooldownMs;
}

function isPair(entry: DelegationHistoryEntry, a: string, b: string): boolean {
  return (entry.delegatorId === a && entry.delegateeId === b) || (entry.delegatorId === b && entry.delegateeId === a);
}

function seconds(ms: number): number {
  return Math.max(0, Math.round(ms / 1000));
}

function refuse(check: LoopCheck, code: ErrorCode, message: string, retryAfterSeconds?: number): LoopVerdict {
  return {
    allowed: false,
    check,
    code,
    message,
    retryAfterSeconds: retryAfterSeconds === undefined ? null : Math.max(1, Math.ceil(retryAfterSeconds)),
  };
}
