import { defineSettings } from '@app/domain';

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

/** The `budget` namespace, held here until a budget module owns it. */
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
]);
