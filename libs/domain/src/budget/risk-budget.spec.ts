import { ErrorCode } from '../errors';
import { ACTION_RISK, RISK_LEVELS } from '../security/risk';
import type { BudgetConfig } from './budget-config';
import {
  DEFAULT_RISK_WEIGHTS,
  judgeRiskStart,
  RISK_LEVEL_DIMENSIONS,
  riskAlertLevel,
  riskUnits,
  scoreAction,
} from './risk-budget';

const RISK: BudgetConfig['riskBudget'] = {
  enabled: true,
  perTaskRiskLimit: 5,
  perAgentDailyRiskLimit: 20,
  totalDailyRiskLimit: 100,
  alerts: { warnAt: 75, criticalAt: 90 },
};

describe('risk scoring', () => {
  it('weighs the four dimensions 0.3, 0.3, 0.2 and 0.2', () => {
    expect(DEFAULT_RISK_WEIGHTS).toEqual({
      reversibility: 0.3,
      blastRadius: 0.3,
      dataSensitivity: 0.2,
      externalVisibility: 0.2,
    });
    expect(riskUnits({ reversibility: 1, blastRadius: 0, dataSensitivity: 0, externalVisibility: 0 })).toBe(0.3);
    expect(riskUnits({ reversibility: 0, blastRadius: 0, dataSensitivity: 0, externalVisibility: 1 })).toBe(0.2);
    expect(riskUnits({ reversibility: 1, blastRadius: 1, dataSensitivity: 1, externalVisibility: 1 })).toBe(1);
  });

  it.each([
    ['critical', 0.88],
    ['high', 0.62],
    ['medium', 0.31],
    ['low', 0.05],
  ] as const)('scores a %s action at %d risk units', (level, expected) => {
    expect(riskUnits(RISK_LEVEL_DIMENSIONS[level])).toBe(expected);
  });

  it('keeps every dimension within 0 and 1 and orders the levels by score', () => {
    const scores = RISK_LEVELS.map((level) => riskUnits(RISK_LEVEL_DIMENSIONS[level]));
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
    for (const level of RISK_LEVELS) {
      for (const value of Object.values(RISK_LEVEL_DIMENSIONS[level])) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
  });

  it('keys the score by the shared action-type table, unknown actions counting as high', () => {
    expect(scoreAction('deploy:production')).toMatchObject({ level: 'critical', riskUnits: 0.88 });
    expect(scoreAction('code:delete')).toMatchObject({ level: 'high', riskUnits: 0.62 });
    expect(scoreAction('code:write')).toMatchObject({ level: 'medium', riskUnits: 0.31 });
    expect(scoreAction('code:read')).toMatchObject({ level: 'low', riskUnits: 0.05 });
    expect(scoreAction('made:up')).toMatchObject({ level: 'high', riskUnits: 0.62 });
    for (const [action, level] of Object.entries(ACTION_RISK)) {
      expect(scoreAction(action).level).toBe(level);
    }
  });
});

describe('judgeRiskStart', () => {
  const none = { task: 0, agentToday: 0, totalToday: 0 };

  it('lets everything start while the risk budget is disabled', () => {
    expect(judgeRiskStart({ ...RISK, enabled: false }, { task: 99, agentToday: 99, totalToday: 999 })).toBeNull();
  });

  it('refuses with 6002 once a limit is reached, the task first, then the agent, then everyone', () => {
    expect(judgeRiskStart(RISK, none)).toBeNull();
    expect(judgeRiskStart(RISK, { ...none, task: 4.99 })).toBeNull();
    expect(judgeRiskStart(RISK, { task: 5, agentToday: 20, totalToday: 100 })).toMatchObject({
      limit: 'task',
      code: ErrorCode.RiskBudgetExhausted,
    });
    expect(judgeRiskStart(RISK, { ...none, agentToday: 20, totalToday: 100 })).toMatchObject({
      limit: 'agent_daily',
      code: 6002,
    });
    expect(judgeRiskStart(RISK, { ...none, totalToday: 100 })).toMatchObject({ limit: 'total_daily', code: 6002 });
  });

  it('treats a zero limit as unlimited', () => {
    const unlimited = { ...RISK, perTaskRiskLimit: 0, perAgentDailyRiskLimit: 0, totalDailyRiskLimit: 0 };
    expect(judgeRiskStart(unlimited, { task: 1e6, agentToday: 1e6, totalToday: 1e6 })).toBeNull();
  });
});

describe('riskAlertLevel', () => {
  it('rises at the warn and critical percents and at the limit', () => {
    expect(riskAlertLevel(14.9, 20, RISK.alerts)).toBe('normal');
    expect(riskAlertLevel(15, 20, RISK.alerts)).toBe('warning');
    expect(riskAlertLevel(18, 20, RISK.alerts)).toBe('critical');
    expect(riskAlertLevel(20, 20, RISK.alerts)).toBe('exhausted');
    expect(riskAlertLevel(500, 0, RISK.alerts)).toBe('normal');
  });
});
