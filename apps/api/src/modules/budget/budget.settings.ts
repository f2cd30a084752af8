import { defineSettings, ErrorCode, parseDowngradeMap, ValidationError } from '@app/domain';

const percent = (key: string, fallback: string, description: string) => ({
  key,
  type: 'int' as const,
  default: fallback,
  description,
  group: 'Alerts',
  level: 'advanced' as const,
  min: 0,
  max: 100,
});

const riskLimit = (key: string, fallback: string, description: string) => ({
  key,
  type: 'float' as const,
  default: fallback,
  description,
  group: 'Risk budget',
  level: 'advanced' as const,
  min: 0,
});

/** The `budget` namespace (spec "Budget configuration"; a zero limit is no limit). */
export const BUDGET_SETTINGS = defineSettings('budget', [
  { key: 'total_monthly', type: 'float', default: '100.0', description: 'Monthly budget', group: 'Limits', min: 0 },
  {
    key: 'per_task_limit',
    type: 'float',
    default: '5.0',
    description: 'Spend limit of one task',
    group: 'Limits',
    min: 0,
  },
  {
    key: 'per_agent_daily_limit',
    type: 'float',
    default: '10.0',
    description: 'Daily spend limit of one agent',
    group: 'Limits',
    min: 0,
  },
  {
    key: 'auto_downgrade_enabled',
    type: 'bool',
    default: 'false',
    description: 'Switch to cheaper models near the limit',
    group: 'Downgrade',
    level: 'advanced',
  },
  {
    ...percent('auto_downgrade_threshold', '85', 'Percent of the budget that triggers a downgrade'),
    group: 'Downgrade',
  },
  {
    key: 'reset_day',
    type: 'int',
    default: '1',
    description: 'Day of the month the budget resets',
    group: 'Limits',
    level: 'advanced',
    min: 1,
    max: 28,
  },
  {
    key: 'auto_downgrade_map',
    type: 'json',
    default: '[]',
    description: 'Ordered [from, to] pairs of model aliases used by the downgrade',
    group: 'Downgrade',
    level: 'advanced',
    validate: (text: string): void => {
      const parsed = parseDowngradeMap(JSON.parse(text));
      if (!parsed.ok) {
        throw new ValidationError(`budget.auto_downgrade_map: ${parsed.problem}`, ErrorCode.BudgetDowngradeMapInvalid);
      }
    },
  },
  percent('alert_warn_at', '75', 'Percent of the budget that raises a warning'),
  percent('alert_critical_at', '90', 'Percent of the budget that raises a critical alert'),
  percent('alert_hard_stop_at', '100', 'Percent of the budget that stops spending'),
  {
    key: 'currency',
    type: 'str',
    default: 'EUR',
    description: 'ISO 4217 currency code',
    group: 'Limits',
    pattern: '[A-Z]{3}',
  },
  {
    key: 'risk_budget_enabled',
    type: 'bool',
    default: 'false',
    description: 'Limit the risk agents may take',
    group: 'Risk budget',
    level: 'advanced',
  },
  riskLimit('risk_per_task_limit', '5.0', 'Risk units one task may take'),
  riskLimit('risk_per_agent_daily_limit', '20.0', 'Risk units one agent may take a day'),
  riskLimit('risk_total_daily_limit', '100.0', 'Risk units all agents may take a day'),
  {
    ...percent('risk_alert_warn_at', '75', 'Percent of a daily risk limit that raises a warning'),
    group: 'Risk budget',
  },
  {
    ...percent('risk_alert_critical_at', '90', 'Percent of a daily risk limit that raises a critical alert'),
    group: 'Risk budget',
  },
]);
