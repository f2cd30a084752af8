import { ACTION_TYPES, type ActionType, isActionType } from './action-types';

/** Risk levels from least to most dangerous. */
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** What an action risks. Shared with the budget module's risk budget, which prices these levels. */
export const ACTION_RISK: Readonly<Record<ActionType, RiskLevel>> = {
  'code:read': 'low',
  'code:write': 'medium',
  'code:create': 'medium',
  'code:delete': 'high',
  'code:refactor': 'medium',
  'test:write': 'low',
  'test:run': 'low',
  'docs:write': 'low',
  'vcs:read': 'low',
  'vcs:commit': 'medium',
  'vcs:push': 'high',
  'vcs:branch': 'low',
  'deploy:staging': 'high',
  'deploy:production': 'critical',
  'comms:internal': 'low',
  'comms:external': 'high',
  'budget:spend': 'medium',
  'budget:exceed': 'high',
  'org:hire': 'medium',
  'org:fire': 'critical',
  'org:promote': 'medium',
  'db:query': 'low',
  'db:mutate': 'high',
  'db:admin': 'critical',
  'arch:decide': 'medium',
  'memory:read': 'low',
};

/** The risk of an action type; anything not in the catalogue is HIGH, never lower. */
export function riskLevelOf(action: string): RiskLevel {
  return isActionType(action) ? ACTION_RISK[action] : 'high';
}

/** Orders two risk levels: negative when `a` is lower. */
export function compareRisk(a: RiskLevel, b: RiskLevel): number {
  return RISK_LEVELS.indexOf(a) - RISK_LEVELS.indexOf(b);
}

/** The higher of two risk levels. */
export function maxRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  return compareRisk(a, b) >= 0 ? a : b;
}

/** The action types at one risk level, in catalogue order. */
export function actionsAtRisk(level: RiskLevel): ActionType[] {
  return ACTION_TYPES.filter((action) => ACTION_RISK[action] === level);
}
