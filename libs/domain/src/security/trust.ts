import type { ToolAccessLevel } from './tool-access';

/** How an agent earns tool access (spec "Progressive trust strategies"). */
export const TRUST_STRATEGIES = ['disabled', 'weighted', 'per_category', 'milestone'] as const;
export type TrustStrategy = (typeof TRUST_STRATEGIES)[number];

/** The access levels trust moves along, least to most; `custom` is set by people only. */
export const TRUST_LADDER = ['sandboxed', 'restricted', 'standard', 'elevated'] as const;
export type TrustLevel = (typeof TRUST_LADDER)[number];

/** The weighted strategy's factors, each from 0 to 1 (error_rate: the share of failed tasks). */
export interface TrustFactors {
  readonly taskDifficulty: number;
  readonly completionRate: number;
  readonly errorRate: number;
  readonly humanFeedback: number;
}

export const WEIGHTED_TRUST_WEIGHTS = {
  taskDifficulty: 0.3,
  completionRate: 0.25,
  errorRate: 0.25,
  humanFeedback: 0.2,
} as const;

/** The score needed to leave each level for the next one (spec "Trust promotions"). */
export const TRUST_PROMOTION_THRESHOLDS: Readonly<Record<Exclude<TrustLevel, 'elevated'>, number>> = {
  sandboxed: 0.4,
  restricted: 0.6,
  standard: 0.8,
};

const clamp = (value: number): number => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

/**
 * The weighted trust score: a low error rate counts for the agent, so it enters inverted. A factor
 * that is not a number counts as the worst value (no trust is earned from missing data).
 */
export function weightedTrustScore(f: TrustFactors): number {
  const w = WEIGHTED_TRUST_WEIGHTS;
  const errorRate = Number.isFinite(f.errorRate) ? f.errorRate : 1;
  const score =
    w.taskDifficulty * clamp(f.taskDifficulty) +
    w.completionRate * clamp(f.completionRate) +
    w.errorRate * (1 - clamp(errorRate)) +
    w.humanFeedback * clamp(f.humanFeedback);
  return Math.round(score * 1e6) / 1e6;
}

/** The next level up, or null at the top or outside the ladder (`custom`). */
export function nextTrustLevel(level: ToolAccessLevel): TrustLevel | null {
  const at = (TRUST_LADDER as readonly string[]).indexOf(level);
  return at < 0 || at === TRUST_LADDER.length - 1 ? null : (TRUST_LADDER[at + 1] ?? null);
}

/** One level down, or null at the bottom or outside the ladder. */
export function previousTrustLevel(level: ToolAccessLevel): TrustLevel | null {
  const at = (TRUST_LADDER as readonly string[]).indexOf(level);
  return at <= 0 ? null : (TRUST_LADDER[at - 1] ?? null);
}

/** A promotion a strategy proposes: always one level; into `elevated` it always waits for a person. */
export interface TrustPromotion {
  readonly from: TrustLevel;
  readonly to: TrustLevel;
  readonly requiresHumanApproval: boolean;
  readonly reason: string;
}

function promotion(from: ToolAccessLevel, reason: string): TrustPromotion | null {
  const to = nextTrustLevel(from);
  if (to === null) {
    return null;
  }
  return { from: from as TrustLevel, to, requiresHumanApproval: to === 'elevated', reason };
}

/** The weighted strategy: promote one level when the score reaches the current level's threshold. */
export function weightedPromotion(level: ToolAccessLevel, factors: TrustFactors): TrustPromotion | null {
  if (level === 'elevated' || level === 'custom') {
    return null;
  }
  const score = weightedTrustScore(factors);
  const threshold = TRUST_PROMOTION_THRESHOLDS[level];
  return score >= threshold ? promotion(level, `trust score ${score} reached ${threshold}`) : null;
}

/** What the per-category and milestone strategies count. */
export interface TrustRecord {
  readonly tasksCompleted: number;
  readonly averageQuality: number;
}

export const PER_CATEGORY_CRITERIA = { tasks: 10, quality: 7 } as const;
export const MILESTONE_CRITERIA = { tasks: 5, quality: 7, autoPromote: true } as const;

/** The per-category strategy: 10 tasks in the category at an average quality of 7 or more. */
export function perCategoryPromotion(level: ToolAccessLevel, record: TrustRecord): TrustPromotion | null {
  const { tasks, quality } = PER_CATEGORY_CRITERIA;
  return record.tasksCompleted >= tasks && record.averageQuality >= quality
    ? promotion(level, `${record.tasksCompleted} tasks at quality ${record.averageQuality}`)
    : null;
}

/** The milestone strategy: 5 tasks since the last promotion at an average quality of 7 or more. */
export function milestonePromotion(level: ToolAccessLevel, record: TrustRecord): TrustPromotion | null {
  const { tasks, quality } = MILESTONE_CRITERIA;
  return record.tasksCompleted >= tasks && record.averageQuality >= quality
    ? promotion(level, `milestone of ${tasks} tasks at quality ${record.averageQuality}`)
    : null;
}

/** The milestone strategy's re-verification (off by default) and decay rules. */
export const TRUST_REVERIFICATION = {
  enabled: false,
  intervalDays: 90,
  idleDecayDays: 30,
  errorRateDecay: 0.15,
} as const;

const DAY_MS = 86_400_000;

/** What the milestone strategy asks of an agent now: nothing, a re-verification, or a demotion. */
export type TrustCheck =
  | { readonly kind: 'keep' }
  | { readonly kind: 'reverify'; readonly reason: string }
  | { readonly kind: 'demote'; readonly to: TrustLevel; readonly reason: string };

/**
 * A demotion by one level after 30 idle days or above a 15 % error rate; else, when re-verification
 * is on, a re-verification every 90 days.
 */
export function milestoneCheck(
  level: ToolAccessLevel,
  state: { lastActiveAt: Date; lastVerifiedAt: Date; errorRate: number },
  now: Date,
  reverification: { enabled: boolean } = TRUST_REVERIFICATION,
): TrustCheck {
  const down = previousTrustLevel(level);
  const idleDays = (now.getTime() - state.lastActiveAt.getTime()) / DAY_MS;
  if (down !== null && idleDays > TRUST_REVERIFICATION.idleDecayDays) {
    return { kind: 'demote', to: down, reason: `idle for ${Math.floor(idleDays)} days` };
  }
  if (down !== null && state.errorRate > TRUST_REVERIFICATION.errorRateDecay) {
    return {
      kind: 'demote',
      to: down,
      reason: `error rate ${state.errorRate} above ${TRUST_REVERIFICATION.errorRateDecay}`,
    };
  }
  const sinceVerified = (now.getTime() - state.lastVerifiedAt.getTime()) / DAY_MS;
  if (reverification.enabled && sinceVerified >= TRUST_REVERIFICATION.intervalDays) {
    return { kind: 'reverify', reason: `last verified ${Math.floor(sinceVerified)} days ago` };
  }
  return { kind: 'keep' };
}
