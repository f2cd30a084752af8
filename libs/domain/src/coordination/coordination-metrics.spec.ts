import { coordinationMetrics, duplicateSubtasks, type MetricRun } from './coordination-metrics';

const run = (turns: number, tokens: number, success = true): MetricRun => ({ turns, tokens, success });

describe('coordinationMetrics', () => {
  it.each([
    [
      'three subtasks at a single run’s size each, all successful',
      {
        subtaskRuns: [run(2, 100), run(2, 100), run(2, 100)],
        subtasks: 3,
        coordinationTokens: 50,
        messages: 3,
        duplicates: 0,
        baseline: [run(2, 100, true), run(2, 100, false)],
      },
      { efficiency: 0.3333, overhead: 2.5, error_amplification: 0, message_density: 0.5, redundancy: 0 },
    ],
    [
      'a failed subtask and one repeated',
      {
        subtaskRuns: [run(1, 40), run(1, 40, false)],
        subtasks: 2,
        coordinationTokens: 20,
        messages: 0,
        duplicates: 1,
        baseline: [run(2, 100, false), run(2, 100), run(2, 100), run(2, 100)],
      },
      { efficiency: 0.5, overhead: 0, error_amplification: 2, message_density: 0, redundancy: 0.5 },
    ],
    [
      'no baseline yet',
      { subtaskRuns: [run(3, 90)], subtasks: 1, coordinationTokens: 10, messages: 6, duplicates: 0, baseline: [] },
      { efficiency: null, overhead: null, error_amplification: null, message_density: 2, redundancy: 0 },
    ],
    [
      'a baseline without failures and a subtask that never ran',
      {
        subtaskRuns: [run(2, 50)],
        subtasks: 2,
        coordinationTokens: 0,
        messages: 0,
        duplicates: 0,
        baseline: [run(4, 100)],
      },
      { efficiency: 1, overhead: -0.5, error_amplification: null, message_density: 0, redundancy: 0 },
    ],
  ])('should measure %s', (_name, input, expected) => {
    expect(coordinationMetrics(input)).toEqual(expected);
  });

  it('should compare with the 50 newest baseline runs only', () => {
    const baseline = [
      ...Array.from({ length: 50 }, () => run(1, 10)),
      ...Array.from({ length: 50 }, () => run(1, 10, false)),
    ];
    const metrics = coordinationMetrics({
      subtaskRuns: [run(1, 10)],
      subtasks: 1,
      coordinationTokens: 0,
      messages: 0,
      duplicates: 0,
      baseline,
    });
    expect(metrics.error_amplification).toBeNull();
  });
});

describe('duplicateSubtasks', () => {
  it('should count repeats whatever their case and spacing', () => {
    expect(
      duplicateSubtasks([
        { title: 'Write tests', description: 'All of them.' },
        { title: 'write  tests', description: 'all of them.' },
        { title: 'Write docs', description: 'All of them.' },
      ]),
    ).toBe(1);
  });
});
