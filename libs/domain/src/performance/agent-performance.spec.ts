import {
  computeAgentPerformance,
  MIN_DATA_POINTS,
  theilSenSlope,
  type TaskMetricRecord,
  type TrendResult,
  type WindowMetrics,
} from '.';

const DAY = 86_400_000;
const NOW = new Date('2025-06-15T12:00:00.000Z');

/** A successful run completed `daysAgo` days before NOW; `overrides` adjust any field. */
function run(daysAgo: number, overrides: Partial<TaskMetricRecord> = {}): TaskMetricRecord {
  return {
    agentId: 'agent-1',
    taskId: `task-${daysAgo}`,
    taskType: 'development',
    startedAt: null,
    completedAt: new Date(NOW.getTime() - daysAgo * DAY),
    isSuccess: true,
    durationSeconds: 100,
    costUsd: 1,
    turnsUsed: 3,
    tokensUsed: 1000,
    qualityScore: null,
    collaborationScore: null,
    complexity: 'medium',
    ...overrides,
  };
}

function emptyWindow(size: WindowMetrics['window_size'], counts: Partial<WindowMetrics> = {}): WindowMetrics {
  return {
    window_size: size,
    data_point_count: 0,
    tasks_completed: 0,
    tasks_failed: 0,
    avg_quality_score: null,
    avg_cost_per_task: null,
    avg_completion_time_seconds: null,
    avg_tokens_per_task: null,
    success_rate: null,
    collaboration_score: null,
    ...counts,
  };
}

function trendOf(trends: readonly TrendResult[], metric: TrendResult['metric_name']): TrendResult {
  const found = trends.find((trend) => trend.metric_name === metric);
  if (found === undefined) {
    throw new Error(`no ${metric} trend`);
  }
  return found;
}

describe(computeAgentPerformance.name, () => {
  it('should report zeros and nulls for an agent without records', () => {
    const summary = computeAgentPerformance('new-hire', [], NOW);

    expect(summary).toEqual({
      agent_name: 'new-hire',
      tasks_completed_total: 0,
      tasks_completed_7d: 0,
      tasks_completed_30d: 0,
      avg_completion_time_seconds: null,
      cost_per_task: null,
      success_rate_percent: null,
      quality_score: null,
      collaboration_score: null,
      trend_direction: 'insufficient_data',
      windows: [emptyWindow('7d'), emptyWindow('30d'), emptyWindow('90d')],
      trends: ['quality_score', 'cost_usd', 'success_rate'].map((metric_name) => ({
        metric_name,
        window_size: '30d',
        direction: 'insufficient_data',
        slope: 0,
        data_point_count: 0,
      })),
    });
  });

  it('should report only counts below the minimum number of data points', () => {
    expect(MIN_DATA_POINTS).toBe(5);
    const records = [
      run(1, { qualityScore: 9 }),
      run(2, { qualityScore: 8 }),
      run(3, { isSuccess: false }),
      run(4, { collaborationScore: 7 }),
    ];

    const summary = computeAgentPerformance('a', records, NOW);

    const counts = { data_point_count: 4, tasks_completed: 3, tasks_failed: 1 };
    expect(summary.windows).toEqual([
      emptyWindow('7d', counts),
      emptyWindow('30d', counts),
      emptyWindow('90d', counts),
    ]);
    expect(summary.tasks_completed_total).toBe(3);
    expect(summary.success_rate_percent).toBeNull();
    expect(summary.quality_score).toBeNull();
    expect(summary.cost_per_task).toBeNull();
    expect(summary.trend_direction).toBe('insufficient_data');
    expect(summary.trends.every((trend) => trend.direction === 'insufficient_data' && trend.slope === 0)).toBe(true);
  });

  it('should average six records, skipping missing scores', () => {
    const records = [
      run(1, { costUsd: 0.1, durationSeconds: 60, tokensUsed: 1000, qualityScore: 7 }),
      run(2, { costUsd: 0.2, durationSeconds: 120, tokensUsed: 2000, qualityScore: 8, collaborationScore: 4 }),
      run(3, { costUsd: 0.3, durationSeconds: 180, tokensUsed: 3000 }),
      run(4, { costUsd: 0.4, durationSeconds: 240, tokensUsed: 4000, qualityScore: 9 }),
      run(5, { costUsd: 0.5, durationSeconds: 300, tokensUsed: 5000, isSuccess: false, collaborationScore: 5 }),
      run(6, { costUsd: 0.6, durationSeconds: 360, tokensUsed: 6000, qualityScore: 6.5 }),
    ];

    const summary = computeAgentPerformance('a', records, NOW);

    const expected: WindowMetrics = {
      window_size: '7d',
      data_point_count: 6,
      tasks_completed: 5,
      tasks_failed: 1,
      avg_quality_score: 7.625, // (7 + 8 + 9 + 6.5) / 4
      avg_cost_per_task: 0.35,
      avg_completion_time_seconds: 210,
      avg_tokens_per_task: 3500,
      success_rate: 0.8333, // 5 / 6
      collaboration_score: 4.5,
    };
    expect(summary.windows).toEqual([
      expected,
      { ...expected, window_size: '30d' },
      { ...expected, window_size: '90d' },
    ]);
    expect(summary).toMatchObject({
      agent_name: 'a',
      tasks_completed_total: 5,
      tasks_completed_7d: 5,
      tasks_completed_30d: 5,
      avg_completion_time_seconds: 210,
      cost_per_task: 0.35,
      success_rate_percent: 83.33,
      quality_score: 7.625,
      collaboration_score: 4.5,
    });

    // Only four runs are scored, too few for a quality trend.
    expect(trendOf(summary.trends, 'quality_score')).toEqual({
      metric_name: 'quality_score',
      window_size: '30d',
      direction: 'insufficient_data',
      slope: 0,
      data_point_count: 4,
    });
    // Cost fell by 0.1 a day: a falling cost is an improvement.
    expect(trendOf(summary.trends, 'cost_usd')).toMatchObject({ direction: 'improving', slope: -0.1 });
    // Ten of the fifteen pairwise slopes are 0, so the median is 0.
    expect(trendOf(summary.trends, 'success_rate')).toMatchObject({
      direction: 'stable',
      slope: 0,
      data_point_count: 6,
    });
    expect(summary.trend_direction).toBe('stable');
  });

  it('should count a record eight days old in the 30-day window but not the 7-day one', () => {
    const records = [
      run(1),
      run(8),
      run(40, { isSuccess: false }),
      run(45),
      run(100), // outside every window
      run(-1), // in the future: ignored
    ];

    const summary = computeAgentPerformance('a', records, NOW);

    expect(summary.windows.map((w) => [w.window_size, w.data_point_count, w.tasks_completed, w.tasks_failed])).toEqual([
      ['7d', 1, 1, 0],
      ['30d', 2, 2, 0],
      ['90d', 4, 3, 1],
    ]);
    // The windows overlap: the total is the largest window's count, not the 1 + 2 + 3 sum.
    expect(summary.tasks_completed_total).toBe(3);
    expect(summary.tasks_completed_7d).toBe(1);
    expect(summary.tasks_completed_30d).toBe(2);
  });

  it('should include a record exactly at the start of a window', () => {
    const summary = computeAgentPerformance('a', [run(7), run(30)], NOW);

    expect(summary.windows.map((w) => w.data_point_count)).toEqual([1, 2, 2]);
  });

  it('should prefer the 30-day window over the 7-day one in the summary', () => {
    const records = [
      ...[1, 2, 3, 4, 5].map((d) => run(d, { costUsd: 1, durationSeconds: 100, qualityScore: 8 })),
      ...[10, 11, 12, 13, 14].map((d) =>
        run(d, { costUsd: 3, durationSeconds: 300, qualityScore: 4, isSuccess: false, collaborationScore: 6 }),
      ),
    ];

    const summary = computeAgentPerformance('a', records, NOW);

    expect(summary.windows[0]).toMatchObject({ success_rate: 1, avg_cost_per_task: 1, collaboration_score: null });
    expect(summary).toMatchObject({
      success_rate_percent: 50,
      cost_per_task: 2,
      avg_completion_time_seconds: 200,
      quality_score: 6,
      collaboration_score: 6,
    });
  });

  it('should detect improving trends', () => {
    // Failures ten to six days ago, successes since; quality rising by 0.5 a day; cost flat.
    const records = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((d) =>
      run(d, { isSuccess: d <= 5, qualityScore: 10 - 0.5 * d, costUsd: 2 }),
    );

    const summary = computeAgentPerformance('a', records, NOW);

    expect(trendOf(summary.trends, 'quality_score')).toEqual({
      metric_name: 'quality_score',
      window_size: '30d',
      direction: 'improving',
      slope: 0.5,
      data_point_count: 10,
    });
    // 20 of 45 pairwise slopes are 0; the 23rd smallest is 1/8 (one pair 9 days apart, two pairs 8 apart).
    expect(trendOf(summary.trends, 'success_rate')).toMatchObject({ direction: 'improving', slope: 0.125 });
    expect(trendOf(summary.trends, 'cost_usd')).toMatchObject({ direction: 'stable', slope: 0 });
    expect(summary.trend_direction).toBe('improving');
  });

  it('should detect declining trends, reading a rising cost as declining', () => {
    const records = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((d) =>
      run(d, { isSuccess: d > 5, qualityScore: 2 + 0.5 * d, costUsd: 3 - 0.1 * d }),
    );

    const summary = computeAgentPerformance('a', records, NOW);

    expect(trendOf(summary.trends, 'quality_score')).toMatchObject({ direction: 'declining', slope: -0.5 });
    expect(trendOf(summary.trends, 'cost_usd')).toMatchObject({ direction: 'declining', slope: 0.1 });
    expect(trendOf(summary.trends, 'success_rate')).toMatchObject({ direction: 'declining', slope: -0.125 });
    expect(summary.trend_direction).toBe('declining');
  });

  it('should call slopes within the threshold stable', () => {
    const records = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((d) => run(d, { qualityScore: 8 - 0.04 * d, costUsd: 1 }));

    const summary = computeAgentPerformance('a', records, NOW);

    expect(trendOf(summary.trends, 'quality_score')).toMatchObject({ direction: 'stable', slope: 0.04 });
    expect(trendOf(summary.trends, 'cost_usd')).toMatchObject({ direction: 'stable', slope: 0 });
    expect(trendOf(summary.trends, 'success_rate')).toMatchObject({ direction: 'stable', slope: 0 });
    expect(summary.trend_direction).toBe('stable');
  });

  it('should compute trends over the 30-day window only', () => {
    // Costs before the window were far higher; within it they are flat.
    const records = [
      ...[60, 55, 50, 45, 40].map((d) => run(d, { costUsd: 100 })),
      ...[25, 20, 15, 10, 5].map((d) => run(d, { costUsd: 1 })),
    ];

    const summary = computeAgentPerformance('a', records, NOW);

    expect(trendOf(summary.trends, 'cost_usd')).toMatchObject({ direction: 'stable', slope: 0, data_point_count: 5 });
  });

  it('should report insufficient data when every run finished at the same instant', () => {
    const records = [1, 1, 1, 1, 1].map(() => run(1));

    const summary = computeAgentPerformance('a', records, NOW);

    expect(trendOf(summary.trends, 'success_rate')).toMatchObject({
      direction: 'insufficient_data',
      slope: 0,
      data_point_count: 5,
    });
    expect(summary.trend_direction).toBe('insufficient_data');
    expect(summary.success_rate_percent).toBe(100);
  });

  it('should not let one outlying cost swing the trend', () => {
    const records = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((d) => run(d, { costUsd: d === 3 ? 500 : 1 }));

    const summary = computeAgentPerformance('a', records, NOW);

    expect(trendOf(summary.trends, 'cost_usd')).toMatchObject({ direction: 'stable', slope: 0 });
  });

  it('should estimate the trend of a long series from a subset of its points', () => {
    // 3000 runs over 30 days with quality rising by 0.2 a day.
    const records = Array.from({ length: 3000 }, (_, i) => {
      const daysAgo = 30 - (i + 1) / 100;
      return run(daysAgo, { qualityScore: 10 - 0.2 * daysAgo });
    });

    const summary = computeAgentPerformance('a', records, NOW);

    expect(trendOf(summary.trends, 'quality_score')).toMatchObject({
      direction: 'improving',
      slope: 0.2,
      data_point_count: 3000,
    });
  });
});

describe(theilSenSlope.name, () => {
  it('should return the median pairwise slope', () => {
    // Slopes 1, 2 and 3.
    expect(
      theilSenSlope([
        { x: 0, y: 0 },
        { x: 1, y: 1 },
        { x: 2, y: 4 },
      ]),
    ).toBe(2);
  });

  it('should skip pairs with equal x and average the middle two of an even count', () => {
    // (0,0)-(0,5) is skipped; the others give 1 and -1.5.
    expect(
      theilSenSlope([
        { x: 0, y: 0 },
        { x: 0, y: 5 },
        { x: 2, y: 2 },
      ]),
    ).toBe(-0.25);
  });

  it('should return null without a pair of distinct x', () => {
    expect(theilSenSlope([])).toBeNull();
    expect(theilSenSlope([{ x: 1, y: 1 }])).toBeNull();
    expect(
      theilSenSlope([
        { x: 1, y: 1 },
        { x: 1, y: 2 },
      ]),
    ).toBeNull();
  });

  it('should ignore one extreme outlier where least squares would not', () => {
    const points = Array.from({ length: 10 }, (_, x) => ({ x, y: x === 5 ? 1000 : 2 * x + 1 }));

    // 36 of the 45 pairwise slopes avoid the outlier and are exactly 2.
    expect(theilSenSlope(points)).toBe(2);

    const meanX = 4.5;
    const meanY = points.reduce((sum, p) => sum + p.y, 0) / points.length;
    const leastSquares =
      points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0) /
      points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
    expect(Math.abs(leastSquares - 2)).toBeGreaterThan(5);
  });
});
