import {
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { ApiError, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { Loading } from '../../components/Loading';
import { AUTH_LABELS, type AuthType, type Preset, type Provider, secretStates } from './providerApi';

const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/;
/** The service refuses a private or loopback address unless it is allowlisted (or trusted now). */
const ADDRESS_REFUSED = 2014;
const AUTH_TYPES = Object.keys(AUTH_LABELS) as AuthType[];

export const presetsKey = ['providers', 'presets'] as const;

function usePresets() {
  return useQuery({ queryKey: presetsKey, queryFn: () => unwrap(api.GET('/api/v1/providers/presets')) });
}

function TrustBox({
  offered,
  checked,
  onChange,
}: {
  offered: boolean;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return offered ? (
    <Checkbox
      label="Trust this local address"
      description="Adds its host and port to the discovery allowlist. Only for a server you run."
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  ) : null;
}

/** A new provider: from one of the built-in presets, or every field by hand. */
export function AddProviderDialog({
  opened,
  onClose,
  onAdded,
  taken,
}: {
  opened: boolean;
  onClose: () => void;
  onAdded: (name: string) => void;
  taken: ReadonlySet<string>;
}) {
  const client = useQueryClient();
  const presets = usePresets();
  const [mode, setMode] = useState<'preset' | 'manual'>('preset');
  const [preset, setPreset] = useState('');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [authType, setAuthType] = useState<AuthType>('api_key');
  const [secret, setSecret] = useState('');
  const [driverFamily, setDriverFamily] = useState('');
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [trustOffered, setTrustOffered] = useState(false);
  const [trust, setTrust] = useState(false);

  const chosen = presets.data?.find((p) => p.name === preset);
  const nameProblem = !name
    ? 'Give the provider a name'
    : !NAME_PATTERN.test(name)
      ? 'Use 2 to 64 lower-case letters, digits or inner hyphens'
      : taken.has(name)
        ? 'A provider with this name exists already'
        : null;
  const urlProblem =
    (mode === 'manual' || chosen?.requires_base_url) && !baseUrl.trim() ? 'Enter the address of the provider' : null;
  const presetProblem = mode === 'preset' && !chosen ? 'Choose a preset' : null;

  const reset = () => {
    setPreset('');
    setName('');
    setBaseUrl('');
    setSecret('');
    setChecked(false);
    setError(null);
    setTrust(false);
    setTrustOffered(false);
  };

  const choose = (value: string) => {
    const next: Preset | undefined = presets.data?.find((p) => p.name === value);
    setPreset(value);
    if (next) {
      if (!name || presets.data?.some((p) => p.name === name)) {
        setName(taken.has(next.name) ? `${next.name}-2` : next.name);
      }
      setBaseUrl(next.default_base_url ?? '');
      setAuthType(next.auth_type);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (nameProblem || urlProblem || presetProblem) {
      return;
    }
    setBusy(true);
    setError(null);
    const secretField =
      authType === 'api_key'
        ? { api_key: secret }
        : authType === 'subscription'
          ? { subscription_token: secret }
          : authType === 'custom_header'
            ? { custom_header_value: secret }
            : authType === 'oauth'
              ? { oauth_client_secret: secret }
              : {};
    try {
      const created =
        mode === 'preset'
          ? await unwrap(
              api.POST('/api/v1/providers/from-preset', {
                body: {
                  preset_name: preset,
                  name,
                  auth_type: authType,
                  ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}),
                  ...(secret && authType === 'api_key' ? { api_key: secret } : {}),
                  ...(secret && authType === 'subscription' ? { subscription_token: secret } : {}),
                  ...(trust ? { trust_address: true } : {}),
                },
              }),
            )
          : await unwrap(
              api.POST('/api/v1/providers', {
                body: {
                  name,
                  base_url: baseUrl.trim(),
                  auth_type: authType,
                  ...(driverFamily.trim() ? { family: driverFamily.trim() } : {}),
                  ...(secret ? secretField : {}),
                  ...(trust ? { trust_address: true } : {}),
                },
              }),
            );
      notifyDone(
        `${created.name} was added with ${created.models.length} ${created.models.length === 1 ? 'model' : 'models'}`,
      );
      await client.invalidateQueries({ queryKey: ['providers'] });
      reset();
      onAdded(created.name);
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === ADDRESS_REFUSED) {
        setTrustOffered(true);
      }
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const supported = mode === 'preset' && chosen ? chosen.supported_auth_types : AUTH_TYPES;
  return (
    <Modal opened={opened} onClose={onClose} title="Add a provider" size="lg">
      {presets.error ? <ErrorNotice error={presets.error} title="The presets could not be loaded" /> : null}
      {!presets.data && !presets.error ? <Loading label="Loading the presets" /> : null}
      {presets.data ? (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack>
            <SegmentedControl
              aria-label="How to add the provider"
              value={mode}
              onChange={(value) => setMode(value)}
              data={[
                { value: 'preset', label: 'From a preset' },
                { value: 'manual', label: 'By hand' },
              ]}
            />
            {mode === 'preset' ? (
              <NativeSelect
                label="Preset"
                value={preset}
                onChange={(e) => choose(e.currentTarget.value)}
                description={chosen?.description ?? 'Ready-made settings for a known provider'}
                error={checked ? presetProblem : undefined}
                data={[
                  { value: '', label: 'Choose a preset…', disabled: true },
                  ...presets.data.map((p) => ({ value: p.name, label: p.display_name })),
                ]}
              />
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Provider name"
                description="Lower-case letters, digits, hyphens"
                value={name}
                onChange={(e) => setName(e.currentTarget.value.trim())}
                error={checked ? nameProblem : undefined}
              />
              <TextInput
                label="Base URL"
                type="url"
                placeholder={chosen?.default_base_url ?? 'https://…'}
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.currentTarget.value)}
                error={checked ? urlProblem : undefined}
              />
              <NativeSelect
                label="Authentication"
                value={authType}
                onChange={(e) => setAuthType(e.currentTarget.value as AuthType)}
                data={supported.map((type) => ({ value: type, label: AUTH_LABELS[type] }))}
              />
              <PasswordInput
                label="Secret"
                description={authType === 'none' ? 'Not needed' : 'Stored encrypted; never shown again'}
                disabled={authType === 'none'}
                autoComplete="off"
                value={secret}
                onChange={(e) => setSecret(e.currentTarget.value)}
              />
              {mode === 'manual' ? (
                <TextInput
                  label="Model family"
                  description="Optional, e.g. openai or anthropic"
                  value={driverFamily}
                  onChange={(e) => setDriverFamily(e.currentTarget.value)}
                />
              ) : null}
            </SimpleGrid>
            <TrustBox offered={trustOffered} checked={trust} onChange={setTrust} />
            {error ? <ErrorNotice error={error} title="The provider was not added" /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Add provider
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}

const QUOTA_FIELDS = [
  ['requests_per_minute', 'Requests per minute'],
  ['requests_per_day', 'Requests per day'],
  ['tokens_per_minute', 'Tokens per minute'],
  ['tokens_per_day', 'Tokens per day'],
] as const;

type QuotaKey = (typeof QUOTA_FIELDS)[number][0];

/**
 * A provider's connection: address, authentication, quota. Secrets are write-only: the form says
 * whether one is set, and replaces it only when something is typed (or removes it when asked).
 */
export function EditProviderDialog({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const client = useQueryClient();
  const [baseUrl, setBaseUrl] = useState(provider.base_url ?? '');
  const [authType, setAuthType] = useState<AuthType>(provider.auth_type);
  const [secret, setSecret] = useState('');
  const [clear, setClear] = useState(false);
  const [quota, setQuota] = useState<Record<QuotaKey, number | null>>({
    requests_per_minute: provider.quota.requests_per_minute ?? null,
    requests_per_day: provider.quota.requests_per_day ?? null,
    tokens_per_minute: provider.quota.tokens_per_minute ?? null,
    tokens_per_day: provider.quota.tokens_per_day ?? null,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [trustOffered, setTrustOffered] = useState(false);
  const [trust, setTrust] = useState(false);
  const secretState = secretStates({ ...provider, auth_type: authType })[0];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const secretKey = {
      api_key: ['api_key', 'clear_api_key'],
      subscription: ['subscription_token', 'clear_subscription_token'],
      custom_header: ['custom_header_value', 'clear_custom_header_value'],
      oauth: ['oauth_client_secret', 'clear_oauth_client_secret'],
      none: null,
    }[authType];
    try {
      await unwrap(
        api.PUT('/api/v1/providers/{name}', {
          params: { path: { name: provider.name } },
          body: {
            ...(baseUrl.trim() !== (provider.base_url ?? '') ? { base_url: baseUrl.trim() } : {}),
            auth_type: authType,
            ...(secretKey && secret ? { [secretKey[0]]: secret } : {}),
            ...(secretKey && clear && !secret ? { [secretKey[1]]: true } : {}),
            quota: { ...provider.quota, ...quota },
            ...(trust ? { trust_address: true } : {}),
          },
        }),
      );
      notifyDone(`${provider.name} was saved`);
      await client.invalidateQueries({ queryKey: ['providers'] });
      onClose();
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === ADDRESS_REFUSED) {
        setTrustOffered(true);
      }
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Edit ${provider.name}`} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Base URL"
              type="url"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.currentTarget.value)}
            />
            <NativeSelect
              label="Authentication"
              value={authType}
              onChange={(e) => setAuthType(e.currentTarget.value as AuthType)}
              data={AUTH_TYPES.map((type) => ({ value: type, label: AUTH_LABELS[type] }))}
            />
          </SimpleGrid>
          {secretState ? (
            <Stack gap={4}>
              <PasswordInput
                label={secretState.label}
                description={
                  secretState.set
                    ? 'Set. Type a new value to replace it; leave empty to keep it.'
                    : 'Not set. Type a value to set it.'
                }
                autoComplete="off"
                value={secret}
                onChange={(e) => setSecret(e.currentTarget.value)}
              />
              {secretState.set ? (
                <Checkbox
                  label={`Remove the stored ${secretState.label.toLowerCase()}`}
                  checked={clear}
                  disabled={secret !== ''}
                  onChange={(e) => setClear(e.currentTarget.checked)}
                />
              ) : null}
            </Stack>
          ) : null}
          <Text fw={600} size="sm">
            Quota (empty for none)
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {QUOTA_FIELDS.map(([key, label]) => (
              <NumberInput
                key={key}
                label={label}
                min={1}
                allowDecimal={false}
                value={quota[key] ?? ''}
                onChange={(value) => setQuota((q) => ({ ...q, [key]: typeof value === 'number' ? value : null }))}
              />
            ))}
          </SimpleGrid>
          <TrustBox offered={trustOffered} checked={trust} onChange={setTrust} />
          {error ? <ErrorNotice error={error} title="The provider was not saved" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
