import type { ToolAccessLevel } from './tool-access';
import {
  milestoneCheck,
  milestonePromotion,
  perCategoryPromotion,
  planTrust,
  runQuality,
  type TrustFactors,
  type TrustInput,
  type TrustRun,
  type TrustStrategy,
  weightedPromotion,
  weightedTrustScore,
} from './trust';

const f = (taskDifficulty: number, completionRate: number, errorRate: number, humanFeedback: number): TrustFactors => ({
  taskDifficulty,
  completionRate,
  errorRate,
  humanFeedback,
});

describe('progressive trust', () => {
  it.each<[TrustFactors, number]>([
    [f(1, 1, 0, 1), 1],
    [f(0, 0, 1, 0), 0],
    [f(0.5, 0.5, 0.5, 0.5), 0.5],
    [f(1, 0, 1, 0), 0.3],
    [f(0, 1, 1, 0), 0.25],
    [f(0, 0, 0, 0), 0.25],
    [f(0, 0, 1, 1), 0.2],
    [f(2, -1, Number.NaN, 0), 0.3],
  ])('should score %j as %d', (factors, score) => {
    expect(weightedTrustScore(factors)).toBeCloseTo(score, 6);
  });

  it.each<[ToolAccessLevel, TrustFactors, string | null, boolean]>([
    ['sandboxed', f(0.4, 0.4, 0.6, 0.4), 'restricted', false],
    ['sandboxed', f(0.3, 0.4, 0.6, 0.4), null, false],
    ['restricted', f(0.6, 0.6, 0.4, 0.6), 'standard', false],
    ['restricted', f(0.5, 0.6, 0.4, 0.6), null, false],
    ['standard', f(0.8, 0.8, 0.2, 0.8), 'elevated', true],
    ['standard', f(0.8, 0.8, 0.3, 0.7), null, false],
    ['elevated', f(1, 1, 0, 1), null, false],
    ['custom', f(1, 1, 0, 1), null, false],
  ])('should under weighted move %s with %j to %s (person needed: %s)', (level, factors, to, human) => {
    const promoted = weightedPromotion(level, factors);
    expect(promoted?.to ?? null).toBe(to);
    expect(promoted?.requiresHumanApproval ?? false).toBe(human);
  });

  it.each<[ToolAccessLevel, number, number, string | null]>([
    ['sandboxed', 10, 7, 'restricted'],
    ['sandboxed', 9, 9, null],
    ['restricted', 12, 6.9, null],
    ['standard', 10, 7, 'elevated'],
  ])('should under per_category move %s after %i tasks at %d to %s', (level, tasks, quality, to) => {
    const promoted = perCategoryPromotion(level, { tasksCompleted: tasks, averageQuality: quality });
    expect(promoted?.to ?? null).toBe(to);
    if (to === 'elevated') {
      expect(promoted?.requiresHumanApproval).toBe(true);
    }
  });

  it.each<[ToolAccessLevel, number, number, string | null]>([
    ['sandboxed', 5, 7, 'restricted'],
    ['restricted', 4, 10, null],
    ['standard', 5, 8, 'elevated'],
  ])('should under milestone move %s after %i tasks at %d to %s', (level, tasks, quality, to) => {
    expect(milestonePromotion(level, { tasksCompleted: tasks, averageQuality: quality })?.to ?? null).toBe(to);
  });

  const now = new Date('2026-06-01T00:00:00Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);

  it.each<[string, ToolAccessLevel, number, number, number, boolean, string]>([
    ['an active, healthy agent', 'standard', 1, 10, 0.05, false, 'keep'],
    ['31 idle days', 'standard', 31, 10, 0, false, 'demote:restricted'],
    ['30 idle days', 'standard', 30, 10, 0, false, 'keep'],
    ['a 16 % error rate', 'elevated', 1, 10, 0.16, false, 'demote:standard'],
    ['a 15 % error rate', 'elevated', 1, 10, 0.15, false, 'keep'],
    ['the bottom level idle', 'sandboxed', 100, 10, 0.5, false, 'keep'],
    ['90 days unverified, re-verification on', 'restricted', 1, 90, 0, true, 'reverify'],
    ['90 days unverified, re-verification off', 'restricted', 1, 90, 0, false, 'keep'],
  ])('should under milestone answer %s', (_label, level, idle, verified, errorRate, reverify, expected) => {
    const check = milestoneCheck(
      level,
      { lastActiveAt: daysAgo(idle), lastVerifiedAt: daysAgo(verified), errorRate },
      now,
      { enabled: reverify },
    );
    expect(check.kind === 'demote' ? `demote:${check.to}` : check.kind).toBe(expected);
  });
});

describe('trust evaluation', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
  const run = (over: Partial<TrustRun> = {}): TrustRun => ({
    isSuccess: true,
    complexity: 'complex',
    taskType: 'development',
    qualityScore: null,
    costUsd: 0.01,
    completedAt: daysAgo(1),
    ...over,
  });
  const times = (n: number, over: Partial<TrustRun> = {}) => Array.from({ length: n }, () => run(over));
  const input = (over: Partial<TrustInput> = {}): TrustInput => ({
    level: 'standard',
    runs: [],
    runsSinceChange: [],
    lastActiveAt: daysAgo(1),
    lastVerifiedAt: daysAgo(1),
    reverification: false,
    ...over,
  });

  it.each<[string, Partial<TrustRun>, number]>([
    ['a recorded score', { qualityScore: 6 }, 6],
    ['a success without a score', {}, 10],
    ['a failure without a score', { isSuccess: false }, 8],
    ['an expensive success', { costUsd: 1000 }, 9],
  ])('should rate the quality of %s', (_label, over, quality) => {
    expect(runQuality(run(over))).toBeCloseTo(quality, 6);
  });

  it.each<[string, TrustStrategy, Partial<TrustInput>, string]>([
    ['disabled', 'disabled', { runs: times(20) }, 'keep'],
    ['custom access', 'weighted', { level: 'custom', runs: times(20) }, 'keep'],
    ['weighted, too few runs', 'weighted', { runs: times(4) }, 'keep'],
    ['weighted, five complex successes', 'weighted', { runs: times(5) }, 'promote:elevated:human'],
    ['weighted, five simple successes (0.775)', 'weighted', { runs: times(5, { complexity: 'simple' }) }, 'keep'],
    [
      'weighted from restricted, medium successes',
      'weighted',
      { level: 'restricted', runs: times(5, { complexity: 'medium' }) },
      'promote:standard',
    ],
    ['per_category, ten of one type', 'per_category', { level: 'sandboxed', runs: times(10) }, 'promote:restricted'],
    [
      'per_category, ten split over two types',
      'per_category',
      { level: 'sandboxed', runs: [...times(5), ...times(5, { taskType: 'research' })] },
      'keep',
    ],
    [
      'milestone, five since the change',
      'milestone',
      { runs: times(5), runsSinceChange: times(5) },
      'promote:elevated:human',
    ],
    ['milestone, four since the change', 'milestone', { runs: times(9), runsSinceChange: times(4) }, 'keep'],
    ['milestone, idle 31 days', 'milestone', { lastActiveAt: daysAgo(31) }, 'demote:restricted'],
    [
      'milestone, 20 % failures',
      'milestone',
      { runs: [...times(4), run({ isSuccess: false })], runsSinceChange: times(5) },
      'demote:restricted',
    ],
    [
      'milestone, re-verification due and met',
      'milestone',
      { runs: times(5), lastVerifiedAt: daysAgo(91), reverification: true },
      'verified',
    ],
    [
      'milestone, re-verification due and not met',
      'milestone',
      { runs: times(2), lastVerifiedAt: daysAgo(91), reverification: true },
      'demote:restricted',
    ],
  ])('should decide %s', (_label, strategy, over, expected) => {
    const decision = planTrust(strategy, input(over), now);
    const shown =
      decision.kind === 'promote'
        ? `promote:${decision.promotion.to}${decision.promotion.requiresHumanApproval ? ':human' : ''}`
        : decision.kind === 'demote'
          ? `demote:${decision.to}`
          : decision.kind;
    expect(shown).toBe(expected);
  });
});
