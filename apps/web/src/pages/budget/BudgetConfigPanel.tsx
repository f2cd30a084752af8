import {
  Button,
  Divider,
  Group,
  Modal,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, errorText, notifyDone } from '../../app/errors';
import { formatMoney } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';

export type BudgetConfig = Schemas['BudgetConfig'];

type Kind = 'money' | 'percent' | 'day' | 'bool' | 'currency' | 'units';

/** One editable setting of the `budget` namespace, as the configuration shows it. */
interface Field {
  key: string;
  label: string;
  kind: Kind;
  group: 'Limits' | 'Alerts' | 'Cheaper models near the limit' | 'Risk budget';
  read: (c: BudgetConfig) => number | string | boolean;
  description?: string;
}

export const FIELDS: readonly Field[] = [
  {
    key: 'total_monthly',
    label: 'Monthly budget',
    kind: 'money',
    group: 'Limits',
    read: (c) => c.total_monthly,
    description: '0: no budget',
  },
  {
    key: 'per_task_limit',
    label: 'Limit per task',
    kind: 'money',
    group: 'Limits',
    read: (c) => c.per_task_limit,
    description: '0: no limit',
  },
  {
    key: 'per_agent_daily_limit',
    label: 'Daily limit per agent',
    kind: 'money',
    group: 'Limits',
    read: (c) => c.per_agent_daily_limit,
    description: '0: no limit',
  },
  {
    key: 'reset_day',
    label: 'Reset day of the month',
    kind: 'day',
    group: 'Limits',
    read: (c) => c.reset_day,
    description: '1 to 28',
  },
  {
    key: 'currency',
    label: 'Currency',
    kind: 'currency',
    group: 'Limits',
    read: (c) => c.currency,
    description: 'ISO 4217 code; amounts are not converted',
  },
  { key: 'alert_warn_at', label: 'Warning at', kind: 'percent', group: 'Alerts', read: (c) => c.alerts.warn_at },
  {
    key: 'alert_critical_at',
    label: 'Critical at',
    kind: 'percent',
    group: 'Alerts',
    read: (c) => c.alerts.critical_at,
  },
  {
    key: 'alert_hard_stop_at',
    label: 'Stop spending at',
    kind: 'percent',
    group: 'Alerts',
    read: (c) => c.alerts.hard_stop_at,
  },
  {
    key: 'auto_downgrade_enabled',
    label: 'Switch to cheaper models near the limit',
    kind: 'bool',
    group: 'Cheaper models near the limit',
    read: (c) => c.auto_downgrade.enabled,
  },
  {
    key: 'auto_downgrade_threshold',
    label: 'Switch at',
    kind: 'percent',
    group: 'Cheaper models near the limit',
    read: (c) => c.auto_downgrade.threshold,
  },
  {
    key: 'risk_budget_enabled',
    label: 'Limit the risk agents may take',
    kind: 'bool',
    group: 'Risk budget',
    read: (c) => c.risk_budget.enabled,
  },
  {
    key: 'risk_per_task_limit',
    label: 'Risk units per task',
    kind: 'units',
    group: 'Risk budget',
    read: (c) => c.risk_budget.per_task_risk_limit,
    description: '0: no limit',
  },
  {
    key: 'risk_per_agent_daily_limit',
    label: 'Risk units per agent a day',
    kind: 'units',
    group: 'Risk budget',
    read: (c) => c.risk_budget.per_agent_daily_risk_limit,
    description: '0: no limit',
  },
  {
    key: 'risk_total_daily_limit',
    label: 'Risk units of all agents a day',
    kind: 'units',
    group: 'Risk budget',
    read: (c) => c.risk_budget.total_daily_risk_limit,
    description: '0: no limit',
  },
];

const GROUPS = ['Limits', 'Alerts', 'Cheaper models near the limit', 'Risk budget'] as const;

function show(field: Field, value: number | string | boolean, currency: string): string {
  switch (field.kind) {
    case 'money':
      return typeof value === 'number' && value === 0 ? 'No limit' : formatMoney(Number(value), currency);
    case 'percent':
      return `${String(value)}% of the budget`;
    case 'bool':
      return value ? 'On' : 'Off';
    case 'units':
      return Number(value) === 0 ? 'No limit' : String(value);
    case 'day':
    case 'currency':
      return String(value);
  }
}

/** The text a setting is stored as: floats and integers as numbers, flags as true/false. */
export function settingText(field: Field, value: number | string | boolean): string {
  if (field.kind === 'bool') {
    return value ? 'true' : 'false';
  }
  if (field.kind === 'percent' || field.kind === 'day') {
    return String(Math.round(Number(value)));
  }
  if (field.kind === 'currency') {
    return String(value).trim().toUpperCase();
  }
  return String(Number(value));
}

type Values = Record<string, number | string | boolean>;

/** Checks the server does not make across fields: the alert thresholds rise in order. */
function crossCheck(values: Values): Record<string, string> {
  const problems: Record<string, string> = {};
  const warn = Number(values.alert_warn_at);
  const critical = Number(values.alert_critical_at);
  const stop = Number(values.alert_hard_stop_at);
  if (warn > critical) {
    problems.alert_warn_at = 'The warning must come at or before the critical alert';
  }
  if (critical > stop) {
    problems.alert_critical_at = 'The critical alert must come at or before the stop';
  }
  if (values.currency !== undefined && !/^[A-Za-z]{3}$/.test(String(values.currency).trim())) {
    problems.currency = 'Three letters, e.g. EUR or USD';
  }
  return problems;
}

function ConfigEditor({ config, onClose }: { config: BudgetConfig; onClose: () => void }) {
  const client = useQueryClient();
  const [values, setValues] = useState<Values>(() => Object.fromEntries(FIELDS.map((f) => [f.key, f.read(config)])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const set = (key: string, value: number | string | boolean) => setValues((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = crossCheck(values);
    for (const field of FIELDS) {
      const value = values[field.key];
      if (field.kind !== 'bool' && field.kind !== 'currency' && (value === '' || !Number.isFinite(Number(value)))) {
        problems[field.key] = 'Enter a number';
      }
    }
    setErrors(problems);
    setFailure(null);
    if (Object.keys(problems).length > 0) {
      return;
    }
    const changed = FIELDS.filter((f) => settingText(f, values[f.key] ?? '') !== settingText(f, f.read(config)));
    if (changed.length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    const refused: Record<string, string> = {};
    let firstError: unknown = null;
    // One setting per request; each is checked and stored on its own, so a refusal names its field.
    for (const field of changed) {
      try {
        await unwrap(
          api.PUT('/api/v1/settings/{namespace}/{key}', {
            params: { path: { namespace: 'budget', key: field.key } },
            body: { value: settingText(field, values[field.key] ?? '') },
          }),
        );
      } catch (error) {
        refused[field.key] = errorText(error);
        firstError ??= error;
      }
    }
    setBusy(false);
    await client.invalidateQueries({ queryKey: ['budget'] });
    if (firstError) {
      setErrors(refused);
      setFailure(firstError);
      return;
    }
    notifyDone(changed.length === 1 ? `${changed[0]?.label} saved` : `${changed.length} budget settings saved`);
    onClose();
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        {GROUPS.map((group) => (
          <Stack key={group} gap="xs" component="fieldset" m={0} p={0} style={{ border: 0 }}>
            <Text component="legend" fw={600} size="sm" p={0}>
              {group}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {FIELDS.filter((f) => f.group === group).map((field) => {
                const value = values[field.key];
                const error = errors[field.key];
                if (field.kind === 'bool') {
                  return (
                    <Switch
                      key={field.key}
                      label={field.label}
                      checked={Boolean(value)}
                      onChange={(e) => set(field.key, e.currentTarget.checked)}
                      error={error}
                      mt="xs"
                    />
                  );
                }
                if (field.kind === 'currency') {
                  return (
                    <TextInput
                      key={field.key}
                      label={field.label}
                      description={field.description}
                      value={String(value ?? '')}
                      onChange={(e) => set(field.key, e.currentTarget.value.toUpperCase())}
                      maxLength={3}
                      error={error}
                    />
                  );
                }
                const isPercent = field.kind === 'percent';
                return (
                  <NumberInput
                    key={field.key}
                    label={
                      isPercent
                        ? `${field.label} (% of the budget)`
                        : field.kind === 'money'
                          ? `${field.label} (${config.currency})`
                          : field.label
                    }
                    description={field.description}
                    value={typeof value === 'number' || typeof value === 'string' ? value : ''}
                    onChange={(next) => set(field.key, next)}
                    min={field.kind === 'day' ? 1 : 0}
                    max={isPercent ? 100 : field.kind === 'day' ? 28 : undefined}
                    allowDecimal={field.kind === 'money' || field.kind === 'units'}
                    decimalScale={field.kind === 'money' ? 2 : undefined}
                    error={error}
                  />
                );
              })}
            </SimpleGrid>
          </Stack>
        ))}
        {failure ? <ErrorNotice error={failure} title="Some settings were not saved" /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save configuration
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" component="div">
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" fw={500} component="dd" m={0} ta="right">
        {children}
      </Text>
    </Group>
  );
}

/** The budget configuration, and its editor for the roles that may change settings. */
export function BudgetConfigPanel({ config }: { config: BudgetConfig }) {
  const { me } = useSession();
  const [editing, setEditing] = useState(false);
  const mayEdit = can(me.role, 'manage');
  const currency = config.currency;
  const shown = (key: string) => {
    const field = FIELDS.find((f) => f.key === key)!;
    return show(field, field.read(config), currency);
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="config-title" h="100%">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="config-title">
          Configuration
        </Title>
        {mayEdit ? (
          <Button size="xs" variant="light" onClick={() => setEditing(true)}>
            Edit configuration
          </Button>
        ) : null}
      </Group>
      <Stack gap={6} component="dl" m={0}>
        <Row label="Monthly budget">
          {config.total_monthly > 0 ? formatMoney(config.total_monthly, currency) : 'Not set'}
        </Row>
        <Row label="Limit per task">{shown('per_task_limit')}</Row>
        <Row label="Daily limit per agent">{shown('per_agent_daily_limit')}</Row>
        <Row label="Resets on day">{config.reset_day}</Row>
        <Row label="Currency">{currency}</Row>
      </Stack>
      <Divider my="xs" />
      <Stack gap={6} component="dl" m={0}>
        <Row label="Alerts">
          warning {config.alerts.warn_at}%, critical {config.alerts.critical_at}%, stop {config.alerts.hard_stop_at}%
        </Row>
        <Row label="Cheaper models near the limit">
          {config.auto_downgrade.enabled ? `On, at ${config.auto_downgrade.threshold}%` : 'Off'}
        </Row>
        {config.auto_downgrade.enabled && config.auto_downgrade.downgrade_map.length > 0 ? (
          <Row label="Model swaps">
            {config.auto_downgrade.downgrade_map.map(([from, to]) => `${from} → ${to}`).join(', ')}
          </Row>
        ) : null}
        <Row label="Risk budget">
          {config.risk_budget.enabled
            ? `On: ${config.risk_budget.per_task_risk_limit || 'no limit'} per task, ${config.risk_budget.per_agent_daily_risk_limit || 'no limit'} per agent a day`
            : 'Off'}
        </Row>
      </Stack>
      {mayEdit ? (
        <Modal
          opened={editing}
          onClose={() => setEditing(false)}
          title="Edit budget configuration"
          size="lg"
          closeButtonProps={{ 'aria-label': 'Close' }}
          // Locking the page's scroll injects a style element without the page's nonce, which the
          // Content-Security-Policy refuses; the dialog works the same without it.
        >
          <>{editing ? <ConfigEditor config={config} onClose={() => setEditing(false)} /> : null}</>
        </Modal>
      ) : null}
    </Paper>
  );
}
