import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { isConflict, withEtag } from '../../app/etag';
import { formatDateTime, humanize } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';

export type SettingEntry = Schemas['SettingEntry'];
export type Definition = Schemas['SettingDefinition'];
export type Namespace = Definition['namespace'];

export const SOURCE_LABEL: Record<SettingEntry['source'], string> = {
  db: 'Saved here',
  env: 'Environment',
  yaml: 'Configuration file',
  default: 'Default',
};

const SOURCE_COLOR: Record<SettingEntry['source'], string> = {
  db: 'indigo',
  env: 'orange',
  yaml: 'teal',
  default: 'gray',
};

export function settingsKey(namespace: string) {
  return ['system', 'settings', namespace] as const;
}

/** What a value looks like on screen: a secret only as set or not. */
function shown(entry: SettingEntry): string {
  if (entry.definition.sensitive) {
    return entry.value ? 'Set (hidden)' : 'Not set';
  }
  if (entry.definition.type === 'bool') {
    return entry.value === 'true' ? 'On' : 'Off';
  }
  return entry.value === '' ? '(empty)' : entry.value;
}

/** The input the definition calls for: a switch, a choice, a bounded number, JSON or text. */
function ValueInput({
  definition,
  label,
  value,
  onChange,
  error,
}: {
  definition: Definition;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
}) {
  const range =
    definition.min_value !== null || definition.max_value !== null
      ? `From ${definition.min_value ?? '…'} to ${definition.max_value ?? '…'}`
      : undefined;
  switch (definition.type) {
    case 'bool':
      return (
        <Switch label={label} checked={value === 'true'} onChange={(e) => onChange(String(e.currentTarget.checked))} />
      );
    case 'enum':
      return (
        <NativeSelect
          label={label}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          data={definition.enum_values}
          error={error}
        />
      );
    case 'int':
    case 'float':
      return (
        <NumberInput
          label={label}
          description={range}
          value={value === '' ? '' : Number(value)}
          min={definition.min_value ?? undefined}
          max={definition.max_value ?? undefined}
          allowDecimal={definition.type === 'float'}
          clampBehavior="none"
          onChange={(next) => onChange(next === '' ? '' : String(next))}
          error={error}
        />
      );
    case 'json':
      return (
        <Textarea
          label={label}
          autosize
          minRows={3}
          ff="monospace"
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          error={error}
        />
      );
    case 'str':
      return definition.sensitive ? (
        <PasswordInput
          label={label}
          description="Write-only: type a new value to replace it"
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          error={error}
        />
      ) : (
        <TextInput label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)} error={error} />
      );
  }
}

/** A client-side check of a value against its definition (the server checks again). */
export function valueProblem(definition: Definition, value: string): string | null {
  if (definition.type === 'int' || definition.type === 'float') {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || (definition.type === 'int' && !Number.isInteger(n))) {
      return definition.type === 'int' ? 'Enter a whole number' : 'Enter a number';
    }
    if (definition.min_value !== null && n < definition.min_value) {
      return `At least ${definition.min_value}`;
    }
    if (definition.max_value !== null && n > definition.max_value) {
      return `At most ${definition.max_value}`;
    }
  }
  if (definition.type === 'json') {
    try {
      JSON.parse(value);
    } catch {
      return 'Not valid JSON';
    }
  }
  return null;
}

interface Editing {
  value: string;
  etag: string | null;
  /** The value as read when editing began, to tell what someone else changed. */
  read: string;
}

/**
 * One setting: its value and where it comes from; for a manager an editor that reads the value
 * with its version and saves with If-Match, so a change made by someone else meanwhile is a
 * conflict shown as such rather than silently overwritten.
 */
function SettingRow({ entry, writable }: { entry: SettingEntry; writable: boolean }) {
  const client = useQueryClient();
  const d = entry.definition;
  const label = humanize(d.key);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [busy, setBusy] = useState<'open' | 'save' | 'reset' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const path = { params: { path: { namespace: d.namespace, key: d.key } } };

  const open = async () => {
    setBusy('open');
    setError(null);
    try {
      const { value, etag } = await withEtag(api.GET('/api/v1/settings/{namespace}/{key}', path));
      const text = d.sensitive ? '' : value.value;
      setEditing({ value: text, etag, read: value.value });
      setConflict(null);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  const explainConflict = async () => {
    void client.invalidateQueries({ queryKey: settingsKey(d.namespace) });
    const now = await unwrap(api.GET('/api/v1/settings/{namespace}/{key}', path)).catch(() => null);
    setConflict(
      now
        ? `Someone else changed ${label} since you opened it: it is now ${shown(now)} (${SOURCE_LABEL[now.source]}). Your value was not saved; load the current value and try again.`
        : `Someone else changed ${label} since you opened it. Your value was not saved; load the current value and try again.`,
    );
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) {
      return;
    }
    setChecked(true);
    if (valueProblem(d, editing.value)) {
      return;
    }
    setBusy('save');
    setError(null);
    setConflict(null);
    try {
      const saved = await unwrap(
        api.PUT('/api/v1/settings/{namespace}/{key}', {
          params: { ...path.params, header: editing.etag ? { 'If-Match': editing.etag } : {} },
          body: { value: editing.value },
        }),
      );
      const s: SettingEntry = saved;
      notifyDone(
        s.definition.restart_required
          ? `${label} was saved; it applies after the next restart`
          : `${label} was saved and applies now`,
      );
      setEditing(null);
      setChecked(false);
      await client.invalidateQueries({ queryKey: ['system'] });
    } catch (caught) {
      if (isConflict(caught)) {
        await explainConflict();
      } else {
        setError(caught);
      }
    } finally {
      setBusy(null);
    }
  };

  const reset = async () => {
    setBusy('reset');
    setError(null);
    setConflict(null);
    try {
      const etag = editing?.etag ?? (await withEtag(api.GET('/api/v1/settings/{namespace}/{key}', path))).etag;
      await unwrap(
        api.DELETE('/api/v1/settings/{namespace}/{key}', {
          params: { ...path.params, header: etag ? { 'If-Match': etag } : {} },
        }),
      );
      notifyDone(
        `${label} is back to its ${d.default !== null ? `default (${d.sensitive ? 'hidden' : d.default})` : 'inherited value'}`,
      );
      setEditing(null);
      await client.invalidateQueries({ queryKey: ['system'] });
    } catch (caught) {
      if (isConflict(caught)) {
        await explainConflict();
      } else {
        setError(caught);
      }
    } finally {
      setBusy(null);
    }
  };

  const problem = editing && checked ? valueProblem(d, editing.value) : null;
  return (
    <Paper withBorder p="sm" radius="md" component="li" aria-label={label}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div style={{ flex: '1 1 320px', minWidth: 0 }}>
            <Group gap={6}>
              <Text fw={600} size="sm">
                {label}
              </Text>
              <Badge
                size="sm"
                variant="light"
                color={SOURCE_COLOR[entry.source]}
                aria-label={`Source: ${SOURCE_LABEL[entry.source]}`}
              >
                {SOURCE_LABEL[entry.source]}
              </Badge>
              {d.restart_required ? (
                <Badge size="sm" variant="outline" color="gray">
                  Needs a restart
                </Badge>
              ) : null}
              {entry.pending_restart ? (
                <Badge size="sm" variant="light" color="orange">
                  Saved, applies after restart
                </Badge>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed">
              {d.description}
            </Text>
            {editing ? null : (
              <Text size="sm" ff={d.type === 'json' ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>
                {shown(entry)}
              </Text>
            )}
            {entry.updated_at ? (
              <Text size="xs" c="dimmed">
                Changed {formatDateTime(entry.updated_at)}
              </Text>
            ) : null}
          </div>
          {writable && !editing ? (
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                loading={busy === 'open'}
                onClick={() => void open()}
                aria-label={`Edit ${label}`}
              >
                Edit
              </Button>
              {entry.source === 'db' ? (
                <Button
                  size="xs"
                  variant="subtle"
                  loading={busy === 'reset'}
                  onClick={() => void reset()}
                  aria-label={`Reset ${label} to default`}
                >
                  Reset
                </Button>
              ) : null}
            </Group>
          ) : null}
        </Group>
        {editing ? (
          <form onSubmit={(e) => void save(e)} noValidate>
            <Stack gap="xs">
              <ValueInput
                definition={d}
                label={`New value of ${label}`}
                value={editing.value}
                onChange={(value) => setEditing({ ...editing, value })}
                error={problem}
              />
              {d.default !== null && !d.sensitive ? (
                <Text size="xs" c="dimmed">
                  Default: {d.default === '' ? '(empty)' : d.default}
                </Text>
              ) : null}
              <Group gap="xs">
                <Button type="submit" size="xs" loading={busy === 'save'}>
                  Save {label}
                </Button>
                <Button size="xs" variant="default" onClick={() => void open()} loading={busy === 'open'}>
                  Load the current value
                </Button>
                {entry.source === 'db' ? (
                  <Button size="xs" variant="subtle" loading={busy === 'reset'} onClick={() => void reset()}>
                    Reset to default
                  </Button>
                ) : null}
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={() => {
                    setEditing(null);
                    setConflict(null);
                    setError(null);
                  }}
                >
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
        {conflict ? (
          <Alert color="orange" variant="light" title="Changed by someone else" role="alert">
            <Text size="sm">{conflict}</Text>
          </Alert>
        ) : null}
        {error ? <ErrorNotice error={error} title={`${label} was not saved`} /> : null}
      </Stack>
    </Paper>
  );
}

/** The settings of one namespace, grouped as the definitions group them. */
export function NamespaceSettings({
  namespace,
  writable,
  title,
}: {
  namespace: Namespace;
  writable: boolean;
  title?: string;
}) {
  const entries = useQuery({
    queryKey: settingsKey(namespace),
    queryFn: () => unwrap(api.GET('/api/v1/settings/{namespace}', { params: { path: { namespace } } })),
  });
  if (entries.error) {
    return <ErrorNotice error={entries.error} title={`The ${namespace} settings could not be loaded`} />;
  }
  if (!entries.data) {
    return <Loading label={`Loading the ${namespace} settings`} />;
  }
  if (entries.data.length === 0) {
    return <Empty title="No settings here" level={title ? 3 : 2} />;
  }
  const groups = new Map<string, SettingEntry[]>();
  for (const entry of entries.data) {
    const group = entry.definition.group || 'General';
    groups.set(group, [...(groups.get(group) ?? []), entry]);
  }
  return (
    <Stack>
      {title ? (
        <Title order={2} size="h4">
          {title}
        </Title>
      ) : null}
      {[...groups].map(([group, items]) => (
        <Stack key={group} gap="xs" component="section" aria-label={`${humanize(namespace)}: ${group}`}>
          <Title order={title ? 3 : 2} size="h5">
            {group}
          </Title>
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {items.map((entry) => (
              <SettingRow key={entry.definition.key} entry={entry} writable={writable} />
            ))}
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}
