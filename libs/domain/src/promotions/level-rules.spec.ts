import type { AgentPerformanceSummary, WindowMetrics } from '../performance/agent-performance';
import {
  cooldownUntil,
  DEFAULT_LEVEL_POLICY,
  demotionSavesCost,
  evaluateLevel,
  type LevelPolicy,
  levelChangePath,
} from './level-rules';

function summary(fields: {
  quality: number | null;
  successPercent: number | null;
  completed: number;
  failed?: number;
}): AgentPerformanceSummary {
  const window: WindowMetrics = {
    window_size: '30d',
    data_point_count: fields.completed + (fields.failed ?? 0),
    tasks_completed: fields.completed,
    tasks_failed: fields.failed ?? 0,
    avg_quality_score: fields.quality,
    avg_cost_per_task: null,
    avg_completion_time_seconds: null,
    avg_tokens_per_task: null,
    success_rate: fields.successPercent === null ? null : fields.successPercent / 100,
    collaboration_score: null,
  };
  return {
    agent_name: 'Ada',
    tasks_completed_total: fields.completed,
    tasks_completed_7d: fields.completed,
    tasks_completed_30d: fields.completed,
    avg_completion_time_seconds: null,
    cost_per_task: null,
    success_rate_percent: fields.successPercent,
    quality_score: fields.quality,
    collaboration_score: null,
    trend_direction: 'insufficient_data',
    windows: [window],
    trends: [],
  };
}

const policy = (overrides: Partial<LevelPolicy> = {}): LevelPolicy => ({ ...DEFAULT_LEVEL_POLICY, ...overrides });

describe('evaluateLevel', () => {
  it('should promote one level when two of quality ≥ 7, success ≥ 0.8 and tasks ≥ 10 hold', () => {
    const verdict = evaluateLevel('junior', summary({ quality: 7, successPercent: 80, completed: 4 }), policy());
    expect(verdict).toMatchObject({ outcome: 'promote', to_level: 'mid', promotion_criteria_met: 2 });
  });

  it('should not move on one criterion, nor past the ends of the ladder', () => {
    expect(evaluateLevel('mid', summary({ quality: 9, successPercent: 50, completed: 5 }), policy()).outcome).toBe(
      'none',
    );
    const top = evaluateLevel('c_suite', summary({ quality: 9, successPercent: 100, completed: 20 }), policy());
    expect(top).toMatchObject({ outcome: 'none', to_level: null, reason: 'c_suite is the highest level' });
    const bottom = evaluateLevel(
      'junior',
      summary({ quality: 1, successPercent: 0, completed: 0, failed: 6 }),
      policy(),
    );
    expect(bottom).toMatchObject({ outcome: 'none', reason: 'junior is the lowest level' });
  });

  it('should demote on quality < 4, success < 0.5, and fewer than 3 completed of at least 3 finished', () => {
    const verdict = evaluateLevel(
      'senior',
      summary({ quality: 3, successPercent: 20, completed: 1, failed: 4 }),
      policy(),
    );
    expect(verdict).toMatchObject({ outcome: 'demote', to_level: 'mid', demotion_criteria_met: 3 });
  });

  it('should not count an idle agent as completing too few tasks, nor a null metric as met', () => {
    const verdict = evaluateLevel('mid', summary({ quality: null, successPercent: null, completed: 0 }), policy());
    expect(verdict).toMatchObject({ outcome: 'none', demotion_criteria_met: 0, promotion_criteria_met: 0 });
  });

  it('should follow min_criteria_met', () => {
    const three = policy({ minCriteriaMet: 3 });
    expect(evaluateLevel('junior', summary({ quality: 8, successPercent: 90, completed: 5 }), three).outcome).toBe(
      'none',
    );
    const one = policy({ minCriteriaMet: 1 });
    expect(evaluateLevel('junior', summary({ quality: 8, successPercent: 10, completed: 5 }), one).outcome).toBe(
      'none',
    );
  });
});

describe('levelChangePath', () => {
  it('should make junior → mid automatic and a promotion into senior or above human', () => {
    expect(levelChangePath('promote', 'mid', 'small', policy())).toBe('automatic');
    expect(levelChangePath('promote', 'senior', 'medium', policy())).toBe('human');
    expect(levelChangePath('promote', 'lead', 'medium', policy())).toBe('human');
    expect(levelChangePath('promote', 'senior', 'medium', policy({ humanApprovalFromLevel: 'lead' }))).toBe(
      'automatic',
    );
  });

  it('should apply a cost-saving demotion at once and leave the others to a person', () => {
    expect(levelChangePath('demote', 'junior', 'medium', policy())).toBe('automatic');
    expect(levelChangePath('demote', 'mid', 'medium', policy())).toBe('human');
    expect(levelChangePath('demote', 'junior', 'medium', policy({ autoDemoteCostSaving: false }))).toBe('human');
    expect(levelChangePath('demote', 'mid', 'medium', policy({ humanDemoteAuthority: false }))).toBe('automatic');
  });

  it('should see no saving when the model does not follow seniority', () => {
    expect(demotionSavesCost('junior', 'large', policy({ modelFollowsSeniority: false }))).toBe(false);
    expect(demotionSavesCost('senior', 'large', policy())).toBe(true);
  });
});

describe('cooldownUntil', () => {
  it('should hold the next change back cooldown_hours after the last', () => {
    expect(cooldownUntil(null, policy())).toBeNull();
    expect(cooldownUntil(new Date('2026-01-01T00:00:00Z'), policy())?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });
});
