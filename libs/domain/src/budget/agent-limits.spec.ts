import { budgetConfig } from '@app/testing';

import { ErrorCode } from '../errors';
import { assertAgentLimitFits, DepartmentBudgetLimitExceededError } from './agent-limits';

const CONFIG = budgetConfig({ totalMonthly: 1000 });

const check =
  (limit: number | null, otherLimits: number[] = [100, 50], departmentPercent = 20, previous: number | null = null) =>
  () =>
    assertAgentLimitFits(CONFIG, { department: 'engineering', departmentPercent, otherLimits, limit, previous });

describe(assertAgentLimitFits.name, () => {
  it('should let the limits add up to exactly the department share', () => {
    // 20% of 1000 = 200; the others hold 150.
    expect(check(50)).not.toThrow();
    expect(check(50.004)).not.toThrow();
  });

  it('should refuse a limit that takes the department over its share, with 6999 and what is left', () => {
    expect(check(50.01)).toThrow(DepartmentBudgetLimitExceededError);
    expect(check(80)).toThrow(
      expect.objectContaining({
        code: ErrorCode.DepartmentBudgetLimitExceeded,
        httpStatus: 409,
        message: expect.stringContaining('50.00 is left'),
      }),
    );
  });

  it('should let a limit go down even where the department holds more than its share', () => {
    // The share is 100 now: the others alone are over it.
    expect(check(40, [100, 50], 10, 60)).not.toThrow();
    expect(check(60, [100, 50], 10, 60)).not.toThrow();
    expect(check(61, [100, 50], 10, 60)).toThrow(DepartmentBudgetLimitExceededError);
    // New to the department: the whole limit counts.
    expect(check(40, [100, 50], 10, null)).toThrow(DepartmentBudgetLimitExceededError);
  });

  it('should count no limit as nothing and cap nothing without a share', () => {
    expect(check(null, [500])).not.toThrow();
    expect(check(10_000, [], 0)).not.toThrow();
    expect(() =>
      assertAgentLimitFits(
        { ...CONFIG, totalMonthly: 0 },
        { department: 'ops', departmentPercent: 50, otherLimits: [], limit: 10_000, previous: null },
      ),
    ).not.toThrow();
  });
});
