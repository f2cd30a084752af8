import {
  Alert,
  Button,
  Checkbox,
  Divider,
  Group,
  NativeSelect,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { ApiError, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { setupStatusKey } from '../../app/session';
import { Loading } from '../../components/Loading';
import {
  discoverModels,
  DiscoveryOutcome,
  fetchProviders,
  modelSummary,
  type Preset,
  presetsKey,
  type Provider,
  providersKey,
  TestOutcome,
  type TestResult,
  testProvider,
} from './ProviderChecks';
import { ProviderList } from './ProviderList';

/** The service refuses a private, loopback or link-local provider address unless it is allowlisted. */
const ADDRESS_REFUSED = 2014;
const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/;

interface Fields {
  preset: string;
  name: string;
  baseUrl: string;
  apiKey: string;
}

const EMPTY: Fields = { preset: '', name: '', baseUrl: '', apiKey: '' };

function sameFields(a: Fields, b: Fields): boolean {
  return a.preset === b.preset && a.name === b.name && a.baseUrl.trim() === b.baseUrl.trim() && a.apiKey === b.apiKey;
}

/** Presets that run without a key are the ones on the person's own machine or network. */
function isLocal(preset: Preset): boolean {
  return preset.supported_auth_types.includes('none');
}

function takesKey(preset: Preset | undefined): boolean {
  return !preset || preset.supported_auth_types.includes('api_key');
}

/** A name not taken yet: the preset's own, else with -2, -3 … */
function freeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) {
    return base;
  }
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) {
      return candidate;
    }
  }
}

type Outcome =
  | { kind: 'test'; result: TestResult; name: string }
  | { kind: 'discovery'; found: string[]; name: string }
  | { kind: 'probe'; url: string | null; models: number; tried: number };

/**
 * Step 3: a model provider from a preset. Testing needs the provider saved, so "Test connection"
 * saves it first; changing the form afterwards replaces that saved copy, and "Add provider" keeps it.
 */
export function ProviderStep({ onBack, onNext }: { onBack: () => void; onNext: () => void }) {
  const client = useQueryClient();
  const presets = useQuery({ queryKey: presetsKey, queryFn: () => unwrap(api.GET('/api/v1/providers/presets')) });
  const providers = useQuery({ queryKey: providersKey, queryFn: fetchProviders });
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [saved, setSaved] = useState<{ provider: Provider; fields: Fields } | null>(null);
  const [trust, setTrust] = useState(false);
  const [trustOffered, setTrustOffered] = useState(false);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState<'test' | 'add' | 'probe' | 'discover' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  if (presets.error || providers.error) {
    return <ErrorNotice error={presets.error ?? providers.error} title="The providers could not be loaded" />;
  }
  if (!presets.data || !providers.data) {
    return <Loading label="Loading the provider presets" />;
  }

  const preset = presets.data.find((p) => p.name === fields.preset);
  const added = providers.data.items.filter((p) => p.name !== saved?.provider.name);
  const taken = new Set(added.map((p) => p.name));
  const nameProblem = !fields.name
    ? 'Give the provider a name'
    : !NAME_PATTERN.test(fields.name)
      ? 'Use 2 to 64 lower-case letters, digits or inner hyphens'
      : taken.has(fields.name)
        ? 'A provider with this name exists already'
        : null;
  const baseUrlProblem = preset?.requires_base_url && !fields.baseUrl.trim() ? 'This preset needs the address' : null;
  const problems = [!preset ? 'Choose a preset' : null, nameProblem, baseUrlProblem].filter(Boolean);

  const choosePreset = (name: string) => {
    const next = presets.data.find((p) => p.name === name);
    const previous = preset;
    setFields((current) => ({
      preset: name,
      // A name or address the person typed stays; the previous preset's suggestion gives way.
      name:
        !current.name || current.name === (previous ? freeName(previous.name, taken) : '')
          ? next
            ? freeName(next.name, taken)
            : ''
          : current.name,
      baseUrl:
        !current.baseUrl || current.baseUrl === (previous?.default_base_url ?? '')
          ? (next?.default_base_url ?? '')
          : current.baseUrl,
      apiKey: takesKey(next) ? current.apiKey : '',
    }));
    setOutcome(null);
  };

  const change = (patch: Partial<Fields>) => {
    setFields((current) => ({ ...current, ...patch }));
  };

  /** The provider as the form describes it, saved: the copy saved before, or a new one replacing it. */
  const save = async (): Promise<Provider> => {
    if (saved && sameFields(saved.fields, fields)) {
      return saved.provider;
    }
    if (saved) {
      await unwrap(api.DELETE('/api/v1/providers/{name}', { params: { path: { name: saved.provider.name } } })).catch(
        (caught: unknown) => {
          if (!(caught instanceof ApiError && caught.status === 404)) {
            throw caught;
          }
        },
      );
      setSaved(null);
    }
    const key = takesKey(preset) && fields.apiKey ? fields.apiKey : null;
    const provider = await unwrap(
      api.POST('/api/v1/providers/from-preset', {
        body: {
          preset_name: fields.preset,
          name: fields.name,
          ...(fields.baseUrl.trim() ? { base_url: fields.baseUrl.trim() } : {}),
          auth_type: key ? 'api_key' : (preset?.auth_type ?? 'api_key'),
          ...(key ? { api_key: key } : {}),
          ...(trust ? { trust_address: true } : {}),
        },
      }),
    );
    setSaved({ provider, fields });
    await Promise.all([
      client.invalidateQueries({ queryKey: ['providers'] }),
      client.invalidateQueries({ queryKey: setupStatusKey }),
    ]);
    return provider;
  };

  const act = async (kind: 'test' | 'add') => {
    setChecked(true);
    if (problems.length > 0) {
      return;
    }
    setBusy(kind);
    setError(null);
    setOutcome(null);
    try {
      const provider = await save();
      if (kind === 'test') {
        setOutcome({ kind: 'test', result: await testProvider(provider.name), name: provider.name });
        return;
      }
      let models = provider.models.length;
      if (models === 0) {
        models = (await discoverModels(provider.name).catch(() => ({ discovered_models: [] }))).discovered_models
          .length;
      }
      notifyDone(`${provider.name} was added with ${models} ${models === 1 ? 'model' : 'models'}`);
      setSaved(null);
      setFields(EMPTY);
      setTrust(false);
      setTrustOffered(false);
      setChecked(false);
      await client.invalidateQueries({ queryKey: ['providers'] });
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === ADDRESS_REFUSED) {
        setTrustOffered(true);
      }
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  const probe = async () => {
    if (!preset) {
      return;
    }
    setBusy('probe');
    setError(null);
    setOutcome(null);
    try {
      const found = await unwrap(api.POST('/api/v1/providers/probe-preset', { body: { preset_name: preset.name } }));
      if (found.url) {
        change({ baseUrl: found.url });
      }
      setOutcome({ kind: 'probe', url: found.url, models: found.model_count, tried: found.candidates_tried });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  const discover = async () => {
    if (!saved) {
      return;
    }
    setBusy('discover');
    setError(null);
    try {
      const found = await discoverModels(saved.provider.name);
      setOutcome({ kind: 'discovery', found: found.discovered_models, name: saved.provider.name });
      await client.invalidateQueries({ queryKey: ['providers'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act('add');
  };

  const savedNow = saved ? (providers.data.items.find((p) => p.name === saved.provider.name) ?? saved.provider) : null;
  const local = presets.data.filter(isLocal);
  const cloud = presets.data.filter((p) => !isLocal(p));

  return (
    <Stack>
      <div>
        <Title order={2} size="h3">
          Add a model provider
        </Title>
        <Text size="sm" c="dimmed">
          Agents think with the models of a provider: a cloud service with an API key, or a server on your own machine
          such as Ollama, LM Studio or any OpenAI-compatible endpoint.
        </Text>
      </div>
      {added.length > 0 ? <ProviderList providers={added} presets={presets.data} /> : null}
      <Paper
        withBorder
        p="md"
        radius="md"
        component="form"
        onSubmit={submit}
        noValidate
        aria-labelledby="provider-form"
      >
        <Stack>
          <Title order={3} size="h5" id="provider-form">
            {added.length > 0 ? 'Add another provider' : 'New provider'}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <NativeSelect
              label="Preset"
              required
              withAsterisk={false}
              value={fields.preset}
              onChange={(e) => choosePreset(e.currentTarget.value)}
              description={preset?.description ?? 'Ready-made settings for a known provider'}
              error={checked && !preset ? 'Choose a preset' : undefined}
              data={[
                { value: '', label: 'Choose a preset…', disabled: true },
                {
                  group: 'On your machine or network',
                  items: local.map((p) => ({ value: p.name, label: p.display_name })),
                },
                { group: 'Cloud services', items: cloud.map((p) => ({ value: p.name, label: p.display_name })) },
              ]}
            />
            <TextInput
              label="Provider name"
              required
              withAsterisk={false}
              description="How agents and settings refer to it: lower-case letters, digits, hyphens"
              value={fields.name}
              onChange={(e) => change({ name: e.currentTarget.value.trim() })}
              error={checked ? nameProblem : undefined}
            />
            <TextInput
              label="Base URL"
              required={preset?.requires_base_url}
              withAsterisk={false}
              type="url"
              placeholder={preset?.default_base_url ?? 'https://…'}
              description={
                preset?.requires_base_url
                  ? 'The address of the server, for an OpenAI-compatible one usually ending in /v1'
                  : "Optional: leave empty for the provider's own endpoint"
              }
              value={fields.baseUrl}
              onChange={(e) => change({ baseUrl: e.currentTarget.value })}
              error={checked ? baseUrlProblem : undefined}
            />
            <PasswordInput
              label="API key"
              autoComplete="off"
              disabled={!takesKey(preset)}
              description={
                takesKey(preset) ? 'Stored encrypted; never shown again' : 'Not needed: this preset works without a key'
              }
              value={fields.apiKey}
              onChange={(e) => change({ apiKey: e.currentTarget.value })}
            />
          </SimpleGrid>
          {preset && preset.candidate_urls.length > 0 ? (
            <Group gap="xs">
              <Button variant="light" size="xs" loading={busy === 'probe'} onClick={() => void probe()}>
                Detect the address
              </Button>
              <Text size="xs" c="dimmed">
                Tries {preset.candidate_urls.join(', ')}
              </Text>
            </Group>
          ) : null}
          {outcome?.kind === 'probe' ? (
            <Alert color={outcome.url ? 'green' : 'yellow'} variant="light" role="status">
              <Text size="sm">
                {outcome.url
                  ? `Found at ${outcome.url} with ${outcome.models} ${outcome.models === 1 ? 'model' : 'models'}.`
                  : `Not found at any of the ${outcome.tried} addresses tried; enter the Base URL yourself.`}
              </Text>
            </Alert>
          ) : null}
          {error ? <ErrorNotice error={error} title="The provider was not saved" /> : null}
          {trustOffered ? (
            <Checkbox
              label="Trust this local address"
              description="Adds its host and port to the list of private addresses the service may call. Only for a server you run."
              checked={trust}
              onChange={(e) => setTrust(e.currentTarget.checked)}
            />
          ) : null}
          {outcome?.kind === 'test' ? <TestOutcome result={outcome.result} name={outcome.name} /> : null}
          {outcome?.kind === 'discovery' ? <DiscoveryOutcome found={outcome.found} name={outcome.name} /> : null}
          {savedNow ? (
            <Group gap="xs">
              <Text size="sm">
                Saved as {savedNow.name} · {modelSummary(savedNow)}
              </Text>
              <Button variant="subtle" size="xs" loading={busy === 'discover'} onClick={() => void discover()}>
                Discover models
              </Button>
            </Group>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              loading={busy === 'test'}
              disabled={busy !== null}
              onClick={() => void act('test')}
            >
              Test connection
            </Button>
            <Button type="submit" loading={busy === 'add'} disabled={busy !== null && busy !== 'add'}>
              Add provider
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Divider />
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
        <Stack gap={2} align="flex-end">
          <Button onClick={onNext} disabled={added.length === 0}>
            Next: review agents
          </Button>
          {added.length === 0 ? (
            <Text size="xs" c="dimmed">
              Add a provider to continue
            </Text>
          ) : null}
        </Stack>
      </Group>
    </Stack>
  );
}
