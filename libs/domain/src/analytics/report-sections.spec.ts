import { agentPerformance, type ReportRun, type RosterEntry, taskCompletion } from './report-sections';

const run = (
  agentId: string,
  success: boolean,
  durationSeconds: number,
  costUsd: number,
  qualityScore: number | null = null,
): ReportRun => ({
  agentId,
  success,
  durationSeconds,
  costUsd,
  qualityScore,
});

const ROSTER = new Map<string, RosterEntry>([
  ['a1', { name: 'Ada', department: 'engineering' }],
  ['a2', { name: 'Bo', department: 'product' }],
]);

const RUNS = [
  run('a1', true, 10, 0.5, 8),
  run('a1', false, 20, 0.25),
  run('a1', true, 30, 0.25, 6),
  run('a2', true, 5, 1),
  run('gone', false, 1, 0),
];

describe('agentPerformance', () => {
  it('should sum and average each agent’s runs, busiest first, former agents without a name', () => {
    expect(agentPerformance(RUNS, ROSTER)).toEqual([
      {
        agent_id: 'a1',
        agent_name: 'Ada',
        department: 'engineering',
        tasks_completed: 2,
        tasks_failed: 1,
        success_rate: 0.6667,
        avg_duration_seconds: 20,
        total_cost_usd: 1,
        avg_quality_score: 7,
      },
      {
        agent_id: 'a2',
        agent_name: 'Bo',
        department: 'product',
        tasks_completed: 1,
        tasks_failed: 0,
        success_rate: 1,
        avg_duration_seconds: 5,
        total_cost_usd: 1,
        avg_quality_score: null,
      },
      {
        agent_id: 'gone',
        agent_name: null,
        department: null,
        tasks_completed: 0,
        tasks_failed: 1,
        success_rate: 0,
        avg_duration_seconds: 1,
        total_cost_usd: 0,
        avg_quality_score: null,
      },
    ]);
  });
});

describe('taskCompletion', () => {
  it('should count completions overall and per department, former agents last under null', () => {
    expect(taskCompletion(RUNS, ROSTER)).toEqual({
      runs: 5,
      completed: 3,
      failed: 2,
      completion_rate: 0.6,
      by_department: [
        { department: 'engineering', runs: 3, completed: 2, failed: 1, completion_rate: 0.6667 },
        { department: 'product', runs: 1, completed: 1, failed: 0, completion_rate: 1 },
        { department: null, runs: 1, completed: 0, failed: 1, completion_rate: 0 },
      ],
    });
  });

  it('should answer zeros for a period without runs', () => {
    expect(taskCompletion([], ROSTER)).toEqual({
      runs: 0,
      completed: 0,
      failed: 0,
      completion_rate: 0,
      by_department: [],
    });
  });
});
