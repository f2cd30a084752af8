import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';

import { unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone, notifyError } from '../../app/errors';
import { formatDateTime, formatMoney } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ListPager } from '../../components/ListPager';
import { DiscoveryOutcome, TestOutcome, type TestResult } from '../setup/ProviderChecks';
import {
  AUTH_LABELS,
  fetchHealth,
  HEALTH_COLOR,
  HEALTH_LABEL,
  PAGE_SIZE,
  type Provider,
  pullModel,
  type PullProgress,
  quotaSummary,
  secretStates,
} from './providerApi';
import { DiscoveryAllowlist } from './DiscoveryAllowlist';
import { LaunchSettingsDialog, launchSummary } from './LaunchSettings';
import { AddProviderDialog, EditProviderDialog } from './ProviderDialogs';

function HealthBadge({ name }: { name: string }) {
  const health = useQuery({ queryKey: ['providers', 'health', name], queryFn: () => fetchHealth(name) });
  if (health.error) {
    return (
      <Badge color="gray" variant="light">
        Not known
      </Badge>
    );
  }
  if (!health.data) {
    return <Text size="xs">…</Text>;
  }
  const h = health.data;
  return (
    <Badge
      color={HEALTH_COLOR[h.health_status]}
      variant="light"
      title={`${h.calls_last_24h} calls in 24 h, ${h.error_rate_percent_24h}% errors`}
    >
      {HEALTH_LABEL[h.health_status]}
    </Badge>
  );
}

function bytes(value: number | null): string {
  if (value === null) {
    return '—';
  }
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let n = value;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${n.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/** Downloading a model to a local provider, with the progress the server streams. */
function PullModel({ provider }: { provider: Provider }) {
  const client = useQueryClient();
  const [model, setModel] = useState('');
  const [progress, setProgress] = useState<PullProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!model.trim()) {
      return;
    }
    setBusy(true);
    setError(null);
    setProgress(null);
    try {
      const last = await pullModel(provider.name, model.trim(), setProgress);
      if (!last.error) {
        notifyDone(`${model.trim()} was pulled to ${provider.name}`);
        setModel('');
      }
      await client.invalidateQueries({ queryKey: ['providers'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} aria-labelledby={`pull-${provider.name}`}>
      <Stack gap="xs">
        <Title order={3} size="h5" id={`pull-${provider.name}`}>
          Pull a model
        </Title>
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Model name"
            placeholder="e.g. llama3.2:1b"
            value={model}
            onChange={(e) => setModel(e.currentTarget.value)}
          />
          <Button type="submit" loading={busy} disabled={!model.trim()}>
            Pull
          </Button>
        </Group>
        {progress ? (
          <Stack gap={4} role="status" aria-live="polite">
            <Text size="sm">
              {progress.error
                ? `Failed: ${progress.error}`
                : progress.done
                  ? 'Done'
                  : `${progress.status}${progress.completed !== null ? ` · ${bytes(progress.completed)} of ${bytes(progress.total)}` : ''}`}
            </Text>
            {progress.percent !== null ? (
              <Progress
                value={progress.percent}
                aria-label={`Pull progress of ${model || 'the model'}`}
                color={progress.error ? 'red' : undefined}
              />
            ) : null}
          </Stack>
        ) : null}
        {error ? <ErrorNotice error={error} title="The pull failed" /> : null}
      </Stack>
    </form>
  );
}

function Capability({ on, label }: { on: boolean; label: string }) {
  return on ? (
    <Badge size="sm" variant="light" color="teal">
      {label}
    </Badge>
  ) : null;
}

function Models({ provider, writable }: { provider: Provider; writable: boolean }) {
  const client = useQueryClient();
  const models = useQuery({
    queryKey: ['providers', 'models', provider.name],
    queryFn: () => unwrap(api.GET('/api/v1/providers/{name}/models', { params: { path: { name: provider.name } } })),
  });
  const [removing, setRemoving] = useState<string | null>(null);
  const [tuning, setTuning] = useState<string | null>(null);
  const configurable = provider.supports_model_config;
  const actions = writable && (provider.supports_model_delete || provider.supports_model_config);

  const remove = async (id: string) => {
    setRemoving(id);
    try {
      await unwrap(
        api.DELETE('/api/v1/providers/{name}/models/{model_id}', {
          params: { path: { name: provider.name, model_id: id } },
        }),
      );
      notifyDone(`${id} was removed from ${provider.name}`);
      await client.invalidateQueries({ queryKey: ['providers'] });
    } catch (error) {
      notifyError(error, 'The model was not removed');
    } finally {
      setRemoving(null);
    }
  };

  if (models.error) {
    return <ErrorNotice error={models.error} title="The models could not be loaded" />;
  }
  if (!models.data) {
    return <Loading label="Loading the models" />;
  }
  const tuned = tuning ? models.data.find((m) => m.id === tuning) : undefined;
  if (models.data.length === 0) {
    return <Empty title="No models yet">Discover the provider’s models, or pull one to a local provider.</Empty>;
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs" aria-label={`Models of ${provider.name}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Model</Table.Th>
            <Table.Th scope="col">Context</Table.Th>
            <Table.Th scope="col">Cost per 1k in / out</Table.Th>
            <Table.Th scope="col">Capabilities</Table.Th>
            {configurable ? <Table.Th scope="col">Launch settings</Table.Th> : null}
            {actions ? (
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {models.data.map((model) => (
            <Table.Tr key={model.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {model.id}
                </Text>
                {model.alias ? (
                  <Text size="xs" c="dimmed">
                    alias {model.alias}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{model.max_context.toLocaleString('en-US')}</Table.Td>
              <Table.Td>
                {formatMoney(model.cost_per_1k_input)} / {formatMoney(model.cost_per_1k_output)}
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  <Capability on={model.supports_tools} label="Tools" />
                  <Capability on={model.supports_vision} label="Vision" />
                  <Capability on={model.supports_streaming} label="Streaming" />
                </Group>
              </Table.Td>
              {configurable ? (
                <Table.Td>
                  <Text size="sm">{launchSummary(model.local_params)}</Text>
                </Table.Td>
              ) : null}
              {actions ? (
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {provider.supports_model_config ? (
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => setTuning(model.id)}
                        aria-label={`Edit the launch settings of ${model.id}`}
                      >
                        Edit
                      </Button>
                    ) : null}
                    {provider.supports_model_delete ? (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        loading={removing === model.id}
                        onClick={() => void remove(model.id)}
                        aria-label={`Delete model ${model.id}`}
                      >
                        Delete
                      </Button>
                    ) : null}
                  </Group>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {tuned ? <LaunchSettingsDialog provider={provider.name} model={tuned} onClose={() => setTuning(null)} /> : null}
    </Table.ScrollContainer>
  );
}

type Outcome = { kind: 'test'; result: TestResult } | { kind: 'discovery'; found: string[] } | null;

/** One provider: its connection, secrets (set or not), quota, health, checks and models. */
function ProviderDetail({ name, writable, onGone }: { name: string; writable: boolean; onGone: () => void }) {
  const client = useQueryClient();
  const provider = useQuery({
    queryKey: ['providers', 'detail', name],
    queryFn: () => unwrap(api.GET('/api/v1/providers/{name}', { params: { path: { name } } })),
  });
  const health = useQuery({ queryKey: ['providers', 'health', name], queryFn: () => fetchHealth(name) });
  const [busy, setBusy] = useState<'test' | 'discover' | 'remove' | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);

  if (provider.error) {
    return <ErrorNotice error={provider.error} title={`${name} could not be loaded`} />;
  }
  if (!provider.data) {
    return <Loading label={`Loading ${name}`} />;
  }
  const p = provider.data;

  const run = async (kind: 'test' | 'discover' | 'remove') => {
    setBusy(kind);
    setError(null);
    setOutcome(null);
    try {
      if (kind === 'test') {
        const result = await unwrap(
          api.POST('/api/v1/providers/{name}/test', { params: { path: { name } }, body: {} }),
        );
        setOutcome({ kind: 'test', result });
        await client.invalidateQueries({ queryKey: ['providers', 'health', name] });
      } else if (kind === 'discover') {
        const found = await unwrap(
          api.POST('/api/v1/providers/{name}/discover-models', { params: { path: { name } } }),
        );
        setOutcome({ kind: 'discovery', found: found.discovered_models });
        await client.invalidateQueries({ queryKey: ['providers'] });
      } else {
        await unwrap(api.DELETE('/api/v1/providers/{name}', { params: { path: { name } } }));
        notifyDone(`${name} was removed`);
        await client.invalidateQueries({ queryKey: ['providers'] });
        onGone();
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  };

  const h = health.data;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="provider-detail">
      <Stack>
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={2} size="h3" id="provider-detail">
              {p.name}
            </Title>
            <Text size="sm" c="dimmed">
              {p.preset_name ? `Preset ${p.preset_name} · ` : ''}
              {p.driver} driver · {p.base_url ?? 'the provider’s own endpoint'}
            </Text>
          </div>
          {writable ? (
            <Group gap="xs">
              <Button size="sm" variant="default" loading={busy === 'test'} onClick={() => void run('test')}>
                Test connection
              </Button>
              <Button size="sm" variant="default" loading={busy === 'discover'} onClick={() => void run('discover')}>
                Discover models
              </Button>
              <Button size="sm" variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
              {confirming ? (
                <>
                  <Button size="sm" color="red" loading={busy === 'remove'} onClick={() => void run('remove')}>
                    Remove {p.name}
                  </Button>
                  <Button size="sm" variant="subtle" onClick={() => setConfirming(false)}>
                    Keep it
                  </Button>
                </>
              ) : (
                <Button size="sm" variant="subtle" color="red" onClick={() => setConfirming(true)}>
                  Remove
                </Button>
              )}
            </Group>
          ) : null}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} component="dl" m={0}>
          <div>
            <Text size="xs" c="dimmed" component="dt">
              Authentication
            </Text>
            <Text size="sm" component="dd" m={0}>
              {AUTH_LABELS[p.auth_type]}
            </Text>
            {secretStates(p).map((s) => (
              <Text size="sm" component="dd" m={0} key={s.label}>
                {s.label}: <strong>{s.set ? 'set' : 'not set'}</strong>
              </Text>
            ))}
          </div>
          <div>
            <Text size="xs" c="dimmed" component="dt">
              Quota
            </Text>
            <Text size="sm" component="dd" m={0}>
              {quotaSummary(p.quota)}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" component="dt">
              Health (24 h)
            </Text>
            <Text size="sm" component="dd" m={0}>
              {h
                ? `${HEALTH_LABEL[h.health_status]} · ${h.calls_last_24h} calls · ${h.error_rate_percent_24h}% errors${h.avg_response_time_ms !== null ? ` · ${Math.round(h.avg_response_time_ms)} ms average` : ''}`
                : '…'}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" component="dt">
              Fallback
            </Text>
            <Text size="sm" component="dd" m={0}>
              {p.degradation.strategy}
              {p.degradation.fallback_providers.length > 0 ? ` to ${p.degradation.fallback_providers.join(', ')}` : ''}
            </Text>
          </div>
        </SimpleGrid>
        {outcome?.kind === 'test' ? <TestOutcome result={outcome.result} name={p.name} /> : null}
        {outcome?.kind === 'discovery' ? <DiscoveryOutcome found={outcome.found} name={p.name} /> : null}
        {error ? <ErrorNotice error={error} title="The action failed" /> : null}
        <Title order={3} size="h4">
          Models
        </Title>
        <Models provider={p} writable={writable} />
        {writable && p.supports_model_pull ? <PullModel provider={p} /> : null}
        <Text size="xs" c="dimmed">
          Updated {formatDateTime(p.updated_at)}
        </Text>
      </Stack>
      {editing ? <EditProviderDialog provider={p} onClose={() => setEditing(false)} /> : null}
    </Paper>
  );
}

/** /providers: the model providers, their health and quota, models, checks and the allowlist. */
export default function Providers() {
  const { me } = useSession();
  const writable = can(me.role, 'write');
  const [params, setParams] = useSearchParams();
  const offset = Number(params.get('offset') ?? 0) || 0;
  const selected = params.get('provider');
  const [adding, setAdding] = useState(false);
  const list = useQuery({
    queryKey: ['providers', 'list', offset],
    queryFn: () => unwrapPage(api.GET('/api/v1/providers', { params: { query: { offset, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });

  const select = (name: string | null) => {
    const next = new URLSearchParams(params);
    if (name) {
      next.set('provider', name);
    } else {
      next.delete('provider');
    }
    setParams(next, { replace: true });
  };

  let body;
  if (list.error) {
    body = <ErrorNotice error={list.error} title="The providers could not be loaded" />;
  } else if (!list.data) {
    body = <Loading label="Loading the providers" />;
  } else if (list.data.total === 0) {
    body = <Empty title="No providers yet">Agents think with the models of a provider. Add one to start.</Empty>;
  } else {
    body = (
      <>
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" highlightOnHover aria-label="Providers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Kind</Table.Th>
                <Table.Th scope="col">Models</Table.Th>
                <Table.Th scope="col">Health</Table.Th>
                <Table.Th scope="col">Quota</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((p) => (
                <Table.Tr key={p.name} aria-selected={p.name === selected}>
                  <Table.Td>
                    <Anchor component="button" type="button" fw={600} onClick={() => select(p.name)}>
                      {p.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{p.preset_name ?? p.driver}</Table.Td>
                  <Table.Td>{p.models.length}</Table.Td>
                  <Table.Td>
                    <HealthBadge name={p.name} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{quotaSummary(p.quota)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <ListPager
          total={list.data.total}
          offset={offset}
          limit={PAGE_SIZE}
          label="Pages of providers"
          onChange={(next) => {
            const copy = new URLSearchParams(params);
            copy.set('offset', String(next));
            setParams(copy);
          }}
        />
      </>
    );
  }

  return (
    <Stack>
      <PageHeader
        title="Providers"
        description="The model providers agents use: their health, quota and models."
        actions={writable ? <Button onClick={() => setAdding(true)}>Add provider</Button> : null}
      />
      {!writable ? (
        <Alert color="blue" variant="light">
          Your role can look at the providers but not change them.
        </Alert>
      ) : null}
      {body}
      {selected ? (
        <ProviderDetail key={selected} name={selected} writable={writable} onGone={() => select(null)} />
      ) : null}
      <DiscoveryAllowlist ceo={me.role === 'ceo'} />
      <AddProviderDialog
        opened={adding}
        onClose={() => setAdding(false)}
        taken={new Set(list.data?.items.map((p) => p.name) ?? [])}
        onAdded={(name) => {
          setAdding(false);
          select(name);
        }}
      />
    </Stack>
  );
}
