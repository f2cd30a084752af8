import { MODEL_TIERS, type ModelTier, SENIORITY_LEVELS, type SeniorityLevel } from '../company/enums';
import type { AgentPerformanceSummary } from '../performance/agent-performance';
import { tierForSeniority } from '../providers/routing';

/** The promotion rules' settings (engine.md §13), as the `company` namespace's Workforce group holds them. */
export interface LevelPolicy {
  enabled: boolean;
  cooldownHours: number;
  /** How many of the three criteria of a direction must hold (1–3). */
  minCriteriaMet: number;
  promotion: { quality: number; successRate: number; tasks: number };
  demotion: { quality: number; successRate: number; tasks: number };
  /** The lowest level a promotion into needs a person for (senior by default). */
  humanApprovalFromLevel: SeniorityLevel;
  autoDemoteCostSaving: boolean;
  humanDemoteAuthority: boolean;
  modelFollowsSeniority: boolean;
}

export const DEFAULT_LEVEL_POLICY: LevelPolicy = {
  enabled: true,
  cooldownHours: 24,
  minCriteriaMet: 2,
  promotion: { quality: 7.0, successRate: 0.8, tasks: 10 },
  demotion: { quality: 4.0, successRate: 0.5, tasks: 3 },
  humanApprovalFromLevel: 'senior',
  autoDemoteCostSaving: true,
  humanDemoteAuthority: true,
  modelFollowsSeniority: true,
};

export type LevelDirection = 'promotion' | 'demotion';

/** One criterion read from the performance summary: its value (null without enough data) against its threshold. */
export interface LevelCriterion {
  direction: LevelDirection;
  /** quality_score, success_rate or tasks_completed. */
  name: 'quality_score' | 'success_rate' | 'tasks_completed';
  /** `>=` for a promotion, `<` for a demotion. */
  comparison: '>=' | '<';
  value: number | null;
  threshold: number;
  met: boolean;
}

/**
 * What the metrics say: `promote` or `demote` by one level (to `to_level`), or `none` (no
 * direction has enough criteria met, or the level is already at the end of the ladder).
 */
export interface LevelVerdict {
  outcome: 'promote' | 'demote' | 'none';
  from_level: SeniorityLevel;
  to_level: SeniorityLevel | null;
  criteria: LevelCriterion[];
  promotion_criteria_met: number;
  demotion_criteria_met: number;
  reason: string;
}

/**
 * The 30-day window's figures (the summary's own choice: 30 days, else 7), read as the criteria:
 * - promotion: quality ≥ 7.0, success rate ≥ 0.8, tasks completed ≥ 10;
 * - demotion: quality < 4.0, success rate < 0.5, tasks completed < 3 — the last counts only when the
 *   window holds at least that many finished runs (an idle agent is not demoted for being idle).
 * A direction wins with `minCriteriaMet` criteria met; when both would (a threshold set oddly), none
 * is taken. Quality and success rate are null below the summary's minimum data points, and a null
 * criterion is never met.
 */
export function evaluateLevel(
  level: SeniorityLevel,
  summary: AgentPerformanceSummary,
  policy: LevelPolicy,
): LevelVerdict {
  const quality = summary.quality_score;
  const success = summary.success_rate_percent === null ? null : summary.success_rate_percent / 100;
  const tasks = summary.tasks_completed_30d;
  const window = summary.windows.find((w) => w.window_size === '30d');
  const finished = window ? window.tasks_completed + window.tasks_failed : tasks;
  const p = policy.promotion;
  const d = policy.demotion;
  const criteria: LevelCriterion[] = [
    up('quality_score', quality, p.quality),
    up('success_rate', success, p.successRate),
    up('tasks_completed', tasks, p.tasks),
    down('quality_score', quality, d.quality),
    down('success_rate', success, d.successRate),
    {
      ...down('tasks_completed', tasks, d.tasks),
      met: finished >= d.tasks && tasks < d.tasks,
    },
  ];
  const promotionMet = criteria.filter((c) => c.direction === 'promotion' && c.met).length;
  const demotionMet = criteria.filter((c) => c.direction === 'demotion' && c.met).length;
  const index = SENIORITY_LEVELS.indexOf(level);
  const base = {
    from_level: level,
    criteria,
    promotion_criteria_met: promotionMet,
    demotion_criteria_met: demotionMet,
  };
  const promote = promotionMet >= policy.minCriteriaMet;
  const demote = demotionMet >= policy.minCriteriaMet;
  if (promote && !demote) {
    if (index === SENIORITY_LEVELS.length - 1) {
      return { ...base, outcome: 'none', to_level: null, reason: `${level} is the highest level` };
    }
    const to = SENIORITY_LEVELS[index + 1];
    return { ...base, outcome: 'promote', to_level: to, reason: describe('promotion', criteria, promotionMet) };
  }
  if (demote && !promote) {
    if (index === 0) {
      return { ...base, outcome: 'none', to_level: null, reason: `${level} is the lowest level` };
    }
    const to = SENIORITY_LEVELS[index - 1];
    return { ...base, outcome: 'demote', to_level: to, reason: describe('demotion', criteria, demotionMet) };
  }
  return {
    ...base,
    outcome: 'none',
    to_level: null,
    reason:
      promote && demote
        ? 'both promotion and demotion criteria are met: no change'
        : `${promotionMet} promotion and ${demotionMet} demotion criteria met; ${policy.minCriteriaMet} needed`,
  };
}

/** How a level change is decided: applied at once, or filed for a person. */
export type LevelChangePath = 'automatic' | 'human';

/**
 * Who decides a move: a promotion into `humanApprovalFromLevel` or above needs a person; a demotion
 * is automatic when people have no demotion authority (`humanDemoteAuthority` off), or when it saves
 * cost (`autoDemoteCostSaving` on and the new level's model tier is cheaper than the agent's, which
 * only happens when the model follows seniority); otherwise a person decides it.
 */
export function levelChangePath(
  outcome: 'promote' | 'demote',
  to: SeniorityLevel,
  currentTier: ModelTier,
  policy: LevelPolicy,
): LevelChangePath {
  if (outcome === 'promote') {
    return SENIORITY_LEVELS.indexOf(to) >= SENIORITY_LEVELS.indexOf(policy.humanApprovalFromLevel)
      ? 'human'
      : 'automatic';
  }
  if (!policy.humanDemoteAuthority) {
    return 'automatic';
  }
  return policy.autoDemoteCostSaving && demotionSavesCost(to, currentTier, policy) ? 'automatic' : 'human';
}

/** A demotion saves cost when the model follows seniority and the new level's tier is below the agent's. */
export function demotionSavesCost(to: SeniorityLevel, currentTier: ModelTier, policy: LevelPolicy): boolean {
  return policy.modelFollowsSeniority && MODEL_TIERS.indexOf(tierForSeniority(to)) < MODEL_TIERS.indexOf(currentTier);
}

/** When the next change may happen after one at `lastChangeAt`, or null when none holds it back. */
export function cooldownUntil(lastChangeAt: Date | null, policy: LevelPolicy): Date | null {
  return lastChangeAt === null ? null : new Date(lastChangeAt.getTime() + policy.cooldownHours * 3_600_000);
}

function up(name: LevelCriterion['name'], value: number | null, threshold: number): LevelCriterion {
  return {
    direction: 'promotion',
    name,
    comparison: '>=',
    value,
    threshold,
    met: value !== null && value >= threshold,
  };
}

function down(name: LevelCriterion['name'], value: number | null, threshold: number): LevelCriterion {
  return { direction: 'demotion', name, comparison: '<', value, threshold, met: value !== null && value < threshold };
}

function describe(direction: LevelDirection, criteria: readonly LevelCriterion[], met: number): string {
  const parts = criteria
    .filter((c) => c.direction === direction && c.met)
    .map((c) => `${c.name} ${c.value} ${c.comparison} ${c.threshold}`);
  return `${met} ${direction} criteria met (${parts.join(', ')})`;
}
