import type { BudgetConfig } from './budget-config';
import { departmentCapOf, judgeCall, judgeRunStart } from './spend-limits';

const CONFIG: BudgetConfig = {
  totalMonthly: 100,
  currency: 'EUR',
  resetDay: 1,
  alerts: { warnAt: 75, criticalAt: 90, hardStopAt: 100 },
  perTaskLimit: 5,
  perAgentDailyLimit: 0,
  autoDowngrade: { enabled: false, threshold: 85, boundary: 'task_assignment', downgradeMap: [] },
  riskBudget: {
    enabled: false,
    perTaskRiskLimit: 5,
    perAgentDailyRiskLimit: 20,
    totalDailyRiskLimit: 100,
    alerts: { warnAt: 75, criticalAt: 90 },
  },
};

describe('department budget share', () => {
  it('is its percent of the monthly budget, none without a percent or a monthly budget', () => {
    expect(departmentCapOf(CONFIG, 'engineering', 25)).toEqual({ department: 'engineering', amount: 25 });
    expect(departmentCapOf(CONFIG, 'engineering', 0)).toBeNull();
    expect(departmentCapOf({ ...CONFIG, totalMonthly: 0 }, 'engineering', 25)).toBeNull();
  });

  it('refuses a run start once the department spent its share (6000), before the company is out', () => {
    const cap = departmentCapOf(CONFIG, 'engineering', 10);
    expect(judgeRunStart(CONFIG, { period: 10, agentToday: 0, department: 9.99 }, cap)).toBeNull();
    expect(judgeRunStart(CONFIG, { period: 10, agentToday: 0, department: 10 }, cap)).toMatchObject({
      limit: 'department',
      code: 6000,
    });
  });

  it('stops the share at the hard-stop percent, like the monthly budget', () => {
    const config = { ...CONFIG, alerts: { ...CONFIG.alerts, hardStopAt: 50 } };
    const cap = departmentCapOf(config, 'ops', 10);
    expect(judgeRunStart(config, { period: 5, agentToday: 0, department: 5 }, cap)).toMatchObject({
      limit: 'department',
    });
  });

  it('refuses a call whose estimate would take the department past its share', () => {
    const cap = departmentCapOf(CONFIG, 'engineering', 10);
    const spent = { period: 9, agentToday: 0, task: 0, department: 9 };
    expect(judgeCall(CONFIG, spent, 0.5, 0, cap)).toBeNull();
    expect(judgeCall(CONFIG, spent, 1.5, 0, cap)).toMatchObject({ limit: 'department', code: 6000 });
    expect(judgeCall(CONFIG, spent, 1.5, 0, null)).toBeNull();
  });
});
