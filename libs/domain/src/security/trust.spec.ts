import type { ToolAccessLevel } from './tool-access';
import {
  milestoneCheck,
  milestonePromotion,
  perCategoryPromotion,
  type TrustFactors,
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
