import {
  assertTransition,
  planRunOutcome,
  type RunOutcomePlan,
  runMayContinueIn,
  TERMINATION_REASONS,
  type TerminationReason,
} from '@app/domain';

describe('planRunOutcome', () => {
  it.each<[TerminationReason, number, number, RunOutcomePlan]>([
    ['completed', 0, 1, { steps: ['in_review', 'completed'], retryCount: 0, recordsMetric: true, success: true }],
    ['completed', 3, 1, { steps: ['in_review', 'completed'], retryCount: 3, recordsMetric: true, success: true }],
    ['shutdown', 0, 1, { steps: ['interrupted'], retryCount: 0, recordsMetric: false, success: false }],
    ['shutdown', 1, 1, { steps: ['interrupted'], retryCount: 1, recordsMetric: false, success: false }],
    // error: retryCount < maxRetries fails and reassigns, counting the retry
    ['error', 0, 1, { steps: ['failed', 'assigned'], retryCount: 1, recordsMetric: true, success: false }],
    ['error', 1, 3, { steps: ['failed', 'assigned'], retryCount: 2, recordsMetric: true, success: false }],
    ['error', 2, 3, { steps: ['failed', 'assigned'], retryCount: 3, recordsMetric: true, success: false }],
    // error: retryCount == maxRetries only fails
    ['error', 1, 1, { steps: ['failed'], retryCount: 1, recordsMetric: true, success: false }],
    ['error', 3, 3, { steps: ['failed'], retryCount: 3, recordsMetric: true, success: false }],
    // error: maxRetries 0 never retries
    ['error', 0, 0, { steps: ['failed'], retryCount: 0, recordsMetric: true, success: false }],
    // error: already past the limit (maxRetries lowered after retries) only fails
    ['error', 5, 2, { steps: ['failed'], retryCount: 5, recordsMetric: true, success: false }],
    ['max_turns', 0, 1, { steps: [], retryCount: 0, recordsMetric: false, success: false }],
    ['max_turns', 0, 0, { steps: [], retryCount: 0, recordsMetric: false, success: false }],
    ['budget_exhausted', 0, 1, { steps: [], retryCount: 0, recordsMetric: false, success: false }],
    ['budget_exhausted', 2, 2, { steps: [], retryCount: 2, recordsMetric: false, success: false }],
    ['parked', 0, 1, { steps: [], retryCount: 0, recordsMetric: false, success: false }],
  ])('should plan %s with retryCount %i of maxRetries %i', (reason, retryCount, maxRetries, expected) => {
    expect(planRunOutcome(reason, retryCount, maxRetries)).toEqual(expected);
  });

  it('should have a plan for every termination reason', () => {
    for (const reason of TERMINATION_REASONS) {
      expect(planRunOutcome(reason, 0, 1)).toBeDefined();
    }
  });

  it.each(
    TERMINATION_REASONS.flatMap((reason) =>
      [
        [0, 0],
        [0, 1],
        [1, 1],
      ].map(([retryCount, maxRetries]) => [reason, retryCount, maxRetries] as const),
    ),
  )('should plan only legal moves from in_progress for %s (%i of %i)', (reason, retryCount, maxRetries) => {
    let status: Parameters<typeof assertTransition>[0] = 'in_progress';
    for (const step of planRunOutcome(reason, retryCount, maxRetries).steps) {
      expect(() => assertTransition(status, step)).not.toThrow();
      status = step;
    }
  });
});

describe('runMayContinueIn', () => {
  it.each([
    ['assigned', true],
    ['in_progress', true],
    ['in_review', true],
    ['completed', true],
    ['blocked', false],
    ['cancelled', false],
    ['failed', false],
    ['interrupted', false],
    [null, false],
  ] as const)('should answer %s with %s', (status, expected) => {
    expect(runMayContinueIn(status)).toBe(expected);
  });
});
