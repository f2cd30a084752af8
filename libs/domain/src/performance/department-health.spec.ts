import { computeDepartmentHealth, type DepartmentHealth, type TaskMetricRecord } from '.';

const DAY = 86_400_000;
const NOW = new Date('2025-06-15T12:00:00.000Z');

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

const cost = (iso: string, costUsd: number) => ({ timestamp: new Date(iso), costUsd });

const base = {
  departmentName: 'engineering',
  agentCount: 3,
  activeAgentCount: 2,
  currency: 'EUR',
  metrics: [] as TaskMetricRecord[],
  costs: [] as { timestamp: Date; costUsd: number }[],
  now: NOW,
};

const TREND_DAYS = [
  '2025-06-09T00:00:00.000Z',
  '2025-06-10T00:00:00.000Z',
  '2025-06-11T00:00:00.000Z',
  '2025-06-12T00:00:00.000Z',
  '2025-06-13T00:00:00.000Z',
  '2025-06-14T00:00:00.000Z',
  '2025-06-15T00:00:00.000Z',
];

describe(computeDepartmentHealth.name, () => {
  it('should bucket seven days of costs from midnight UTC six days ago', () => {
    const health = computeDepartmentHealth({
      ...base,
      costs: [
        cost('2025-06-08T23:59:59.999Z', 100), // the day before the first bucket
        cost('2025-06-09T00:00:00.000Z', 1.5),
        cost('2025-06-12T10:00:00.000Z', 0.25),
        cost('2025-06-12T23:00:00.000Z', 0.25),
        cost('2025-06-15T11:00:00.000Z', 2.125),
        cost('2025-06-15T13:00:00.000Z', 50), // after now
      ],
    });

    expect(health.cost_trend).toEqual([
      { timestamp: TREND_DAYS[0], value: 1.5 },
      { timestamp: TREND_DAYS[1], value: 0 },
      { timestamp: TREND_DAYS[2], value: 0 },
      { timestamp: TREND_DAYS[3], value: 0.5 },
      { timestamp: TREND_DAYS[4], value: 0 },
      { timestamp: TREND_DAYS[5], value: 0 },
      { timestamp: TREND_DAYS[6], value: 2.125 },
    ]);
    expect(health.department_cost_7d).toBe(4.125);
  });

  it('should zero-fill the trend across a month boundary', () => {
    const health = computeDepartmentHealth({ ...base, now: new Date('2025-03-02T05:00:00.000Z') });

    expect(health.cost_trend).toEqual(
      ['02-24', '02-25', '02-26', '02-27', '02-28', '03-01', '03-02'].map((day) => ({
        timestamp: `2025-${day}T00:00:00.000Z`,
        value: 0,
      })),
    );
    expect(health.department_cost_7d).toBe(0);
  });

  it('should round the cost sum to four decimals', () => {
    const health = computeDepartmentHealth({
      ...base,
      costs: [cost('2025-06-14T10:00:00.000Z', 0.1), cost('2025-06-14T11:00:00.000Z', 0.2)],
    });

    expect(health.department_cost_7d).toBe(0.3);
    expect(health.cost_trend[5].value).toBe(0.3);
  });

  it('should summarise the last 30 days of runs and blend them into a health score', () => {
    const health = computeDepartmentHealth({
      ...base,
      metrics: [
        run(2, { qualityScore: 8, collaborationScore: 6 }),
        run(5),
        run(10, { isSuccess: false, qualityScore: 5, collaborationScore: 7 }),
        run(29, { qualityScore: 9.5 }),
        run(31, { isSuccess: false, qualityScore: 0, collaborationScore: 0 }), // too old
        run(-1, { isSuccess: false }), // in the future
      ],
    });

    expect(health).toEqual<DepartmentHealth>({
      department_name: 'engineering',
      agent_count: 3,
      active_agent_count: 2,
      currency: 'EUR',
      avg_performance_score: 7.5, // (8 + 5 + 9.5) / 3
      department_cost_7d: 0,
      cost_trend: TREND_DAYS.map((timestamp) => ({ timestamp, value: 0 })),
      collaboration_score: 6.5,
      utilization_percent: 66.67,
      total_runs: 4,
      task_success_rate: 0.75,
      // 0.5 × 75 + 0.3 × 75 + 0.2 × 66.667
      health_score: 73.33,
      utilization_degraded: false,
    });
  });

  it('should re-weight the health score when no run has a quality score', () => {
    const health = computeDepartmentHealth({
      ...base,
      metrics: [run(1), run(2), run(3), run(4, { isSuccess: false })],
    });

    expect(health.avg_performance_score).toBeNull();
    expect(health.collaboration_score).toBeNull();
    // (0.5 × 75 + 0.2 × 66.667) / 0.7
    expect(health.health_score).toBe(72.62);
  });

  it('should round utilisation to two decimals and clamp the active count', () => {
    const percent = (activeAgentCount: number, agentCount: number) =>
      computeDepartmentHealth({ ...base, agentCount, activeAgentCount }).utilization_percent;

    expect(percent(1, 3)).toBe(33.33);
    expect(percent(2, 3)).toBe(66.67);
    expect(percent(1, 8)).toBe(12.5);
    expect(percent(0, 0)).toBe(0);
    expect(percent(5, 3)).toBe(100);
    expect(computeDepartmentHealth({ ...base, agentCount: 3, activeAgentCount: 5 }).active_agent_count).toBe(3);
  });

  it('should leave rates and the health score null without runs', () => {
    const health = computeDepartmentHealth({ ...base, metrics: [run(45)] });

    expect(health.total_runs).toBe(0);
    expect(health.task_success_rate).toBeNull();
    expect(health.health_score).toBeNull();
    expect(health.avg_performance_score).toBeNull();
  });

  it('should report counts only when degraded', () => {
    const health = computeDepartmentHealth({
      ...base,
      degraded: true,
      metrics: [run(1, { qualityScore: 9, collaborationScore: 9 })],
      costs: [cost('2025-06-14T10:00:00.000Z', 3)],
    });

    expect(health).toEqual<DepartmentHealth>({
      department_name: 'engineering',
      agent_count: 3,
      active_agent_count: 2,
      currency: 'EUR',
      avg_performance_score: null,
      department_cost_7d: 0,
      cost_trend: TREND_DAYS.map((timestamp) => ({ timestamp, value: 0 })),
      collaboration_score: null,
      utilization_percent: 0,
      total_runs: 0,
      task_success_rate: null,
      health_score: null,
      utilization_degraded: true,
    });
  });
});
