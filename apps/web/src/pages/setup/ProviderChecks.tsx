import { Alert, Text } from '@mantine/core';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';

export type Provider = Schemas['ProviderResponse'];
export type Preset = Schemas['ProviderPresetResponse'];
export type TestResult = Schemas['TestConnectionResponse'];

export const providersKey = ['providers', 'setup-list'] as const;
export const presetsKey = ['providers', 'presets'] as const;

export function fetchProviders() {
  return unwrapPage(api.GET('/api/v1/providers', { params: { query: { offset: 0, limit: 200 } } }));
}

export function testProvider(name: string): Promise<TestResult> {
  return unwrap(api.POST('/api/v1/providers/{name}/test', { params: { path: { name } }, body: {} }));
}

export function discoverModels(name: string) {
  return unwrap(api.POST('/api/v1/providers/{name}/discover-models', { params: { path: { name } } }));
}

/** "mock-small, mock-medium and 3 more": a provider's models in one line. */
export function modelSummary(provider: Provider): string {
  const ids = provider.models.map((model) => model.alias ?? model.id);
  if (ids.length === 0) {
    return 'No models yet';
  }
  const shown = ids.slice(0, 3).join(', ');
  const count = `${ids.length} ${ids.length === 1 ? 'model' : 'models'}`;
  return ids.length > 3 ? `${count}: ${shown} and ${ids.length - 3} more` : `${count}: ${shown}`;
}

/** The answer of a connection test: the latency and model, or the error and its 7xxx code. */
export function TestOutcome({ result, name }: { result: TestResult; name: string }) {
  if (result.success) {
    return (
      <Alert color="green" variant="light" title={`Connection to ${name} works`} role="status">
        <Text size="sm">
          Answered in {result.latency_ms ?? '—'} ms
          {result.model_tested ? ` using ${result.model_tested}` : ''}.
        </Text>
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" title={`Connection to ${name} failed`} role="alert">
      <Text size="sm">{result.error ?? 'The provider did not answer.'}</Text>
      {result.error_code ? (
        <Text size="xs" c="dimmed" mt={4}>
          Error code {result.error_code}
        </Text>
      ) : null}
    </Alert>
  );
}

/** What discovery found: the new models, or that there were none to add. */
export function DiscoveryOutcome({ found, name }: { found: string[]; name: string }) {
  return (
    <Alert color={found.length > 0 ? 'green' : 'blue'} variant="light" role="status">
      <Text size="sm">
        {found.length > 0
          ? `Added ${found.length} ${found.length === 1 ? 'model' : 'models'} to ${name}: ${found.slice(0, 5).join(', ')}${found.length > 5 ? ' …' : ''}`
          : `No new models found for ${name}.`}
      </Text>
    </Alert>
  );
}
