import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { setupStatusKey } from '../../app/session';
import {
  discoverModels,
  DiscoveryOutcome,
  modelSummary,
  type Preset,
  type Provider,
  TestOutcome,
  type TestResult,
  testProvider,
} from './ProviderChecks';

type Outcome =
  { kind: 'test'; result: TestResult } | { kind: 'discovery'; found: string[] } | { kind: 'error'; error: unknown };

/** One provider already added: test it again, look for more models, or remove it. */
function ProviderCard({ provider, preset }: { provider: Provider; preset: Preset | undefined }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<'test' | 'discover' | 'remove' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState(false);

  const run = async (kind: 'test' | 'discover' | 'remove') => {
    setBusy(kind);
    setOutcome(null);
    try {
      if (kind === 'test') {
        setOutcome({ kind: 'test', result: await testProvider(provider.name) });
      } else if (kind === 'discover') {
        const found = await discoverModels(provider.name);
        setOutcome({ kind: 'discovery', found: found.discovered_models });
        await client.invalidateQueries({ queryKey: ['providers'] });
      } else {
        await unwrap(api.DELETE('/api/v1/providers/{name}', { params: { path: { name: provider.name } } }));
        notifyDone(`${provider.name} was removed`);
        await Promise.all([
          client.invalidateQueries({ queryKey: ['providers'] }),
          client.invalidateQueries({ queryKey: setupStatusKey }),
        ]);
      }
    } catch (error) {
      setOutcome({ kind: 'error', error });
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  };

  return (
    <Paper withBorder p="sm" radius="md" component="li">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Text fw={600}>{provider.name}</Text>
            <Text size="sm" c="dimmed">
              {preset?.display_name ?? provider.preset_name ?? provider.driver}
              {provider.base_url ? ` · ${provider.base_url}` : ''}
            </Text>
            <Text size="sm">{modelSummary(provider)}</Text>
          </div>
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              loading={busy === 'test'}
              onClick={() => void run('test')}
              aria-label={`Test ${provider.name} again`}
            >
              Test again
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={busy === 'discover'}
              onClick={() => void run('discover')}
              aria-label={`Discover models of ${provider.name}`}
            >
              Discover models
            </Button>
            {confirming ? (
              <>
                <Button
                  size="xs"
                  color="red"
                  loading={busy === 'remove'}
                  onClick={() => void run('remove')}
                  aria-label={`Confirm removal of ${provider.name}`}
                >
                  Remove it
                </Button>
                <Button size="xs" variant="subtle" onClick={() => setConfirming(false)}>
                  Keep
                </Button>
              </>
            ) : (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => setConfirming(true)}
                aria-label={`Remove ${provider.name}`}
              >
                Remove
              </Button>
            )}
          </Group>
        </Group>
        {outcome?.kind === 'test' ? <TestOutcome result={outcome.result} name={provider.name} /> : null}
        {outcome?.kind === 'discovery' ? <DiscoveryOutcome found={outcome.found} name={provider.name} /> : null}
        {outcome?.kind === 'error' ? <ErrorNotice error={outcome.error} title="The action failed" /> : null}
      </Stack>
    </Paper>
  );
}

/** The providers the company can already use. */
export function ProviderList({ providers, presets }: { providers: Provider[]; presets: Preset[] }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="providers-added">
      <Title order={3} size="h5" id="providers-added">
        Providers added ({providers.length})
      </Title>
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {providers.map((provider) => (
          <ProviderCard
            key={provider.name}
            provider={provider}
            preset={presets.find((p) => p.name === provider.preset_name)}
          />
        ))}
      </Stack>
    </Stack>
  );
}
