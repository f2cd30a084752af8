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

/** A finished run as trust counts it (a task metric). */
export interface TrustRun {
  readonly isSuccess: boolean;
  readonly complexity: string;
  readonly taskType: string;
  readonly qualityScore: number | null;
  readonly costUsd: number;
  readonly completedAt: Date;
}

/** Fewer runs than this earn no trust (the reference's minimum of data points). */
export const TRUST_MIN_RUNS = 5;

/** How hard a task was, 0–1, from its estimated complexity (unknown: medium). */
export const COMPLEXITY_DIFFICULTY: Readonly<Record<string, number>> = {
  simple: 0.25,
  medium: 0.5,
  complex: 0.75,
  epic: 1,
};

/** The cost under which a run counts as cost-efficient (the reference's default budget). */
const QUALITY_COST_BUDGET = 100;

/**
 * A run's quality (0–10): its recorded score, else the reference's formula with unknown criteria
 * (10): 0.7·criteria + 0.2·success + 0.1·cost-efficiency.
 */
export function runQuality(run: Pick<TrustRun, 'isSuccess' | 'qualityScore' | 'costUsd'>): number {
  if (run.qualityScore !== null && Number.isFinite(run.qualityScore)) {
    return Math.min(10, Math.max(0, run.qualityScore));
  }
  const success = run.isSuccess ? 10 : 0;
  const cost = Math.max(0, run.costUsd);
  const efficiency = cost <= QUALITY_COST_BUDGET ? 10 : Math.max(0, 10 * (1 - Math.log10(cost / QUALITY_COST_BUDGET)));
  return 0.7 * 10 + 0.2 * success + 0.1 * efficiency;
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
const round = (value: number): number => Math.round(value * 1e4) / 1e4;

/** The weighted strategy's factors from runs: difficulty, success share, failure share, quality / 10. */
export function trustFactorsOf(runs: readonly TrustRun[]): TrustFactors {
  if (runs.length === 0) {
    return { taskDifficulty: 0, completionRate: 0, errorRate: 1, humanFeedback: 0 };
  }
  const successes = runs.filter((r) => r.isSuccess).length;
  return {
    taskDifficulty: round(mean(runs.map((r) => COMPLEXITY_DIFFICULTY[r.complexity] ?? 0.5))),
    completionRate: round(successes / runs.length),
    errorRate: round((runs.length - successes) / runs.length),
    humanFeedback: round(mean(runs.map((r) => runQuality(r))) / 10),
  };
}

/** Runs as a trust record: how many succeeded and their average quality. */
export function trustRecordOf(runs: readonly TrustRun[]): TrustRecord {
  return {
    tasksCompleted: runs.filter((r) => r.isSuccess).length,
    averageQuality: round(mean(runs.map((r) => runQuality(r)))),
  };
}

/** What an evaluation decides for an agent. */
export type TrustDecision =
  | { readonly kind: 'keep'; readonly score: number | null; readonly reason: string }
  | { readonly kind: 'promote'; readonly score: number | null; readonly promotion: TrustPromotion }
  | { readonly kind: 'demote'; readonly score: number | null; readonly to: TrustLevel; readonly reason: string }
  | { readonly kind: 'verified'; readonly score: number | null; readonly reason: string };

/** An agent's trust as an evaluation sees it. */
export interface TrustInput {
  readonly level: ToolAccessLevel;
  /** The agent's recent runs (the evaluation window), any order. */
  readonly runs: readonly TrustRun[];
  /** Runs finished since the agent's last level change (the milestone strategy counts these). */
  readonly runsSinceChange: readonly TrustRun[];
  readonly lastActiveAt: Date | null;
  readonly lastVerifiedAt: Date;
  readonly reverification: boolean;
}

/**
 * One evaluation under a strategy: `disabled` and `custom` keep; `weighted` promotes on the score
 * (from TRUST_MIN_RUNS runs); `per_category` on 10 successful runs of one task type at quality 7;
 * `milestone` demotes first (idle, error rate), re-verifies when due, then promotes on 5 runs since
 * the last change at quality 7.
 */
export function planTrust(strategy: TrustStrategy, input: TrustInput, now: Date): TrustDecision {
  if (strategy === 'disabled' || input.level === 'custom') {
    return { kind: 'keep', score: null, reason: strategy === 'disabled' ? 'trust disabled' : 'custom access' };
  }
  switch (strategy) {
    case 'weighted': {
      if (input.runs.length < TRUST_MIN_RUNS) {
        return { kind: 'keep', score: null, reason: `${input.runs.length} of ${TRUST_MIN_RUNS} runs needed` };
      }
      const factors = trustFactorsOf(input.runs);
      const score = weightedTrustScore(factors);
      const promoted = weightedPromotion(input.level, factors);
      return promoted
        ? { kind: 'promote', score, promotion: promoted }
        : { kind: 'keep', score, reason: `trust score ${score}` };
    }
    case 'per_category': {
      const byType = new Map<string, TrustRun[]>();
      for (const run of input.runs) {
        byType.set(run.taskType, [...(byType.get(run.taskType) ?? []), run]);
      }
      for (const [type, runs] of [...byType.entries()].sort(([a], [b]) => a.localeCompare(b))) {
        const promoted = perCategoryPromotion(input.level, trustRecordOf(runs));
        if (promoted) {
          return { kind: 'promote', score: null, promotion: { ...promoted, reason: `${type}: ${promoted.reason}` } };
        }
      }
      return { kind: 'keep', score: null, reason: 'no task category meets the criteria' };
    }
    case 'milestone':
      return planMilestone(input, now);
  }
}

function planMilestone(input: TrustInput, now: Date): TrustDecision {
  const recent = trustFactorsOf(input.runs);
  const check = milestoneCheck(
    input.level,
    {
      lastActiveAt: input.lastActiveAt ?? input.lastVerifiedAt,
      lastVerifiedAt: input.lastVerifiedAt,
      errorRate: input.runs.length >= TRUST_MIN_RUNS ? recent.errorRate : 0,
    },
    now,
    { enabled: input.reverification },
  );
  if (check.kind === 'demote') {
    return { kind: 'demote', score: null, to: check.to, reason: check.reason };
  }
  if (check.kind === 'reverify') {
    const record = trustRecordOf(input.runs);
    const down = previousTrustLevel(input.level);
    if (record.tasksCompleted >= MILESTONE_CRITERIA.tasks && record.averageQuality >= MILESTONE_CRITERIA.quality) {
      return { kind: 'verified', score: null, reason: `re-verified: ${check.reason}` };
    }
    return down === null
      ? { kind: 'verified', score: null, reason: `re-verified at the bottom level: ${check.reason}` }
      : { kind: 'demote', score: null, to: down, reason: `re-verification failed: ${check.reason}` };
  }
  const promoted = milestonePromotion(input.level, trustRecordOf(input.runsSinceChange));
  return promoted
    ? { kind: 'promote', score: null, promotion: promoted }
    : { kind: 'keep', score: null, reason: 'no milestone' };
}
