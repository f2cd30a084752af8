import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, OBSERVER, renderPage } from '../../test/render';
import { launchProblem, launchSummary } from './LaunchSettings';
import { parseEvent, quotaSummary } from './providerApi';
import Providers from './Providers';

const MODEL = {
  id: 'mock-small',
  alias: null,
  cost_per_1k_input: 0.001,
  cost_per_1k_output: 0.002,
  max_context: 8000,
  estimated_latency_ms: null,
  local_params: null,
};

function provider(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    driver: 'openai_compatible',
    auth_type: 'api_key',
    base_url: 'http://127.0.0.1:9/v1',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
    custom_header_name: null,
    degradation: { strategy: 'fallback', fallback_providers: [], queue_max_wait_seconds: 30 },
    family: null,
    gateway_provider: 'openai',
    has_api_key: true,
    has_custom_header: false,
    has_oauth_credentials: false,
    has_subscription_token: false,
    models: [MODEL],
    oauth_client_id: null,
    oauth_scope: null,
    oauth_token_url: null,
    preset_name: 'lm-studio',
    quota: {
      requests_per_minute: 60,
      tokens_per_minute: null,
      requests_per_hour: null,
      requests_per_day: null,
      tokens_per_hour: null,
      tokens_per_day: null,
    },
    supports_model_config: false,
    supports_model_delete: false,
    supports_model_pull: false,
    tos_accepted_at: null,
    version: 1,
    ...extra,
  };
}

const HEALTH = {
  data: {
    health_status: 'up',
    calls_last_24h: 12,
    error_rate_percent_24h: 0,
    avg_response_time_ms: 40.2,
    last_check_timestamp: null,
    total_cost_24h: 0,
    total_tokens_24h: 100,
  },
};
const POLICY = { data: { block_private_ips: true, entry_count: 1, host_port_allowlist: ['127.0.0.1:9'] } };
const PAGE = (items: unknown[]) => ({ data: items, pagination: { total: items.length, offset: 0, limit: 20 } });

describe('Providers', () => {
  it('should announce loading, then an error with its code', async () => {
    fakeApi({
      'GET /api/v1/providers': { error: 'Database unavailable', code: 5003, status: 503 },
      'GET /api/v1/providers/discovery-policy': POLICY,
    });
    renderPage(<Providers />, { path: '/providers' });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent(/Loading/);
    expect(await screen.findByRole('alert', { name: 'The providers could not be loaded' })).toHaveTextContent('5003');
  });

  it('should say what an empty list means', async () => {
    fakeApi({ 'GET /api/v1/providers': PAGE([]), 'GET /api/v1/providers/discovery-policy': POLICY });
    renderPage(<Providers />, { path: '/providers' });
    expect(await screen.findByRole('heading', { name: 'No providers yet' })).toBeInTheDocument();
  });

  it('should list providers with health and quota, and show one with secrets as set or not, a test and discovery', async () => {
    const api = fakeApi({
      'GET /api/v1/providers': PAGE([provider('fake')]),
      'GET /api/v1/providers/fake': { data: provider('fake') },
      'GET /api/v1/providers/fake/health': HEALTH,
      'GET /api/v1/providers/fake/models': {
        data: [{ ...MODEL, supports_tools: true, supports_vision: false, supports_streaming: true }],
      },
      'GET /api/v1/providers/discovery-policy': POLICY,
      'POST /api/v1/providers/fake/test': {
        data: { success: true, latency_ms: 42, model_tested: 'mock-small', error: null, error_code: null },
        status: 201,
      },
      'POST /api/v1/providers/fake/discover-models': {
        data: { provider_name: 'fake', discovered_models: ['mock-large'] },
        status: 201,
      },
    });
    renderPage(<Providers />, { path: '/providers' });
    const table = await screen.findByRole('table', { name: 'Providers' });
    expect(await within(table).findByText('Up')).toBeInTheDocument();
    expect(within(table).getByText('60 requests/min')).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('button', { name: 'fake' }));
    const detail = await screen.findByRole('region', { name: 'fake' });
    expect(within(detail).getByText('set')).toBeInTheDocument();
    const models = await within(detail).findByRole('table', { name: 'Models of fake' });
    expect(within(models).getByText('Tools')).toBeInTheDocument();
    expect(within(models).getByText('Streaming')).toBeInTheDocument();
    expect(within(models).queryByText('Vision')).not.toBeInTheDocument();
    await userEvent.click(within(detail).getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(/Answered in 42 ms using mock-small/)).toBeInTheDocument();
    await userEvent.click(within(detail).getByRole('button', { name: 'Discover models' }));
    expect(await screen.findByText(/Added 1 model to fake: mock-large/)).toBeInTheDocument();
    expect(api.calls.map((c) => c.route)).toContain('POST /api/v1/providers/fake/discover-models');
    expect(screen.getByText('127.0.0.1:9')).toBeInTheDocument();
  });

  it('should replace a secret only when one is typed', async () => {
    const api = fakeApi({
      'GET /api/v1/providers': PAGE([provider('fake')]),
      'GET /api/v1/providers/fake': { data: provider('fake') },
      'GET /api/v1/providers/fake/health': HEALTH,
      'GET /api/v1/providers/fake/models': { data: [] },
      'GET /api/v1/providers/discovery-policy': POLICY,
      'PUT /api/v1/providers/fake': { data: provider('fake') },
    });
    renderPage(<Providers />, { path: '/providers?provider=fake' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const key = await screen.findByLabelText('API key');
    expect(screen.getByText('Set. Type a new value to replace it; leave empty to keep it.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.route === 'PUT /api/v1/providers/fake')).toBe(true));
    const first = api.calls.find((c) => c.route === 'PUT /api/v1/providers/fake')!.body as Record<string, unknown>;
    expect(first).not.toHaveProperty('api_key');
    expect(first).not.toHaveProperty('clear_api_key');
    expect(key).toBeDefined();
  });

  it('should add a provider from a preset', async () => {
    const api = fakeApi({
      'GET /api/v1/providers': PAGE([]),
      'GET /api/v1/providers/discovery-policy': POLICY,
      'GET /api/v1/providers/presets': {
        data: [
          {
            name: 'lm-studio',
            display_name: 'LM Studio',
            description: 'Local',
            driver: 'openai_compatible',
            auth_type: 'none',
            supported_auth_types: ['none'],
            candidate_urls: [],
            default_base_url: 'http://localhost:1234/v1',
            default_models: [],
            gateway_provider: 'openai',
            requires_base_url: true,
            supports_model_config: false,
            supports_model_delete: false,
            supports_model_pull: false,
          },
        ],
      },
      'POST /api/v1/providers/from-preset': { data: provider('lm-studio'), status: 201 },
      'GET /api/v1/providers/lm-studio': { pending: true },
      'GET /api/v1/providers/lm-studio/health': HEALTH,
    });
    renderPage(<Providers />, { path: '/providers' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add provider' }));
    await userEvent.selectOptions(await screen.findByLabelText('Preset'), 'lm-studio');
    expect(screen.getByLabelText('Provider name')).toHaveValue('lm-studio');
    const dialog = screen.getByRole('dialog', { name: 'Add a provider' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add provider' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.route === 'POST /api/v1/providers/from-preset')?.body).toMatchObject({
        preset_name: 'lm-studio',
        name: 'lm-studio',
        base_url: 'http://localhost:1234/v1',
        auth_type: 'none',
      }),
    );
  });

  it('should offer an observer no write controls', async () => {
    fakeApi({
      'GET /api/v1/providers': PAGE([provider('fake')]),
      'GET /api/v1/providers/fake/health': HEALTH,
      'GET /api/v1/providers/discovery-policy': POLICY,
    });
    renderPage(<Providers />, { me: OBSERVER, path: '/providers' });
    await screen.findByRole('table', { name: 'Providers' });
    expect(screen.queryByRole('button', { name: 'Add provider' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Trust an address')).not.toBeInTheDocument();
  });

  describe('launch settings of a local model', () => {
    const TUNED = {
      ...MODEL,
      id: 'llama3.2:1b',
      local_params: { num_ctx: 4096, num_gpu_layers: 0, repeat_penalty: 1.1 },
    };
    const local = provider('box', {
      driver: 'ollama',
      preset_name: 'ollama',
      auth_type: 'none',
      has_api_key: false,
      models: [TUNED],
      supports_model_config: true,
      supports_model_delete: true,
      supports_model_pull: true,
    });
    const routes = (extra: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) => ({
      'GET /api/v1/providers': PAGE([local]),
      'GET /api/v1/providers/box': { data: local },
      'GET /api/v1/providers/box/health': HEALTH,
      'GET /api/v1/providers/box/models': {
        data: [{ ...TUNED, supports_tools: true, supports_vision: false, supports_streaming: true }],
      },
      'GET /api/v1/providers/discovery-policy': POLICY,
      ...extra,
    });

    it('should show the current values, refuse a value out of the API’s range and save the rest', async () => {
      const api = fakeApi(
        routes({
          'PUT /api/v1/providers/box/models/llama3.2%3A1b/config': (_request, body) => ({
            data: { ...TUNED, local_params: (body as { local_params: unknown }).local_params },
          }),
        }),
      );
      renderPage(<Providers />, { path: '/providers?provider=box' });
      const models = await screen.findByRole('table', { name: 'Models of box' });
      expect(within(models).getByText('context 4,096 · GPU layers 0 · repeat penalty 1.1')).toBeInTheDocument();
      await userEvent.click(within(models).getByRole('button', { name: 'Edit the launch settings of llama3.2:1b' }));
      const dialog = await screen.findByRole('dialog', { name: 'Launch settings of llama3.2:1b' });
      expect(within(dialog).getByLabelText('Context window (tokens)')).toHaveValue('4096');
      expect(within(dialog).getByLabelText('GPU layers')).toHaveValue('0');
      expect(within(dialog).getByLabelText('CPU threads')).toHaveValue('');
      expect(within(dialog).getByLabelText('Repeat penalty')).toHaveValue('1.1');

      const context = within(dialog).getByLabelText('Context window (tokens)');
      await userEvent.clear(context);
      await userEvent.type(context, '64');
      await userEvent.type(within(dialog).getByLabelText('CPU threads'), '8');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save launch settings' }));
      expect(
        await within(dialog).findByText('A whole number from 128 to 1,048,576, or empty for the runtime’s default'),
      ).toBeInTheDocument();
      expect(within(dialog).getByLabelText('Context window (tokens)')).toHaveAttribute('aria-invalid', 'true');
      expect(api.calls.some((c) => c.route.startsWith('PUT '))).toBe(false);

      await userEvent.clear(context);
      await userEvent.type(context, '8192');
      await userEvent.clear(within(dialog).getByLabelText('Repeat penalty'));
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save launch settings' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(api.calls.find((c) => c.route.startsWith('PUT '))).toEqual({
        route: 'PUT /api/v1/providers/box/models/llama3.2%3A1b/config',
        body: {
          local_params: { num_ctx: 8192, num_gpu_layers: 0, num_threads: 8, num_batch: null, repeat_penalty: null },
        },
      });
      expect(await screen.findByText('The launch settings of llama3.2:1b were saved')).toBeInTheDocument();
    });

    it('should show the API’s refusal with its code and keep the form', async () => {
      fakeApi(
        routes({
          'PUT /api/v1/providers/box/models/llama3.2%3A1b/config': {
            error: 'num_batch: must be an integer between 1 and 65536 (inclusive) or null',
            code: 2005,
            status: 400,
          },
        }),
      );
      renderPage(<Providers />, { path: '/providers?provider=box' });
      const models = await screen.findByRole('table', { name: 'Models of box' });
      await userEvent.click(within(models).getByRole('button', { name: 'Edit the launch settings of llama3.2:1b' }));
      const dialog = await screen.findByRole('dialog', { name: 'Launch settings of llama3.2:1b' });
      await userEvent.type(within(dialog).getByLabelText('Batch size'), '512');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save launch settings' }));
      const refusal = await within(dialog).findByRole('alert', { name: 'The launch settings were not saved' });
      expect(refusal).toHaveTextContent('num_batch: must be an integer between 1 and 65536');
      expect(refusal).toHaveTextContent('Error code 2005');
      expect(within(dialog).getByLabelText('Batch size')).toHaveValue('512');
    });

    it('should show an observer the values without the editor', async () => {
      fakeApi(routes());
      renderPage(<Providers />, { me: OBSERVER, path: '/providers?provider=box' });
      const models = await screen.findByRole('table', { name: 'Models of box' });
      expect(within(models).getByRole('columnheader', { name: 'Launch settings' })).toBeInTheDocument();
      expect(within(models).getByText('context 4,096 · GPU layers 0 · repeat penalty 1.1')).toBeInTheDocument();
      expect(within(models).queryByRole('button', { name: /launch settings of/ })).not.toBeInTheDocument();
    });

    it('should say when the runtime’s defaults apply', () => {
      expect(launchSummary(null)).toBe('Runtime defaults');
      expect(launchSummary({ num_ctx: null, num_batch: 512 })).toBe('batch 512');
      expect(launchProblem('repeat_penalty', 5.5)).toMatch(/from 0 to 5/);
      expect(launchProblem('repeat_penalty', 1.25)).toBeNull();
      expect(launchProblem('num_threads', 2.5)).toMatch(/^A whole number from 1 to 1,024/);
      expect(launchProblem('num_gpu_layers', '')).toBeNull();
    });
  });

  it('should read the pull progress events and summarise quotas', () => {
    expect(
      parseEvent(
        'data: {"status":"downloading","progress_percent":40,"completed_bytes":4,"total_bytes":10,"done":false}',
      ),
    ).toMatchObject({ status: 'downloading', percent: 40, done: false, error: null });
    expect(parseEvent('event: error\ndata: {"error":"no such model"}')).toMatchObject({
      done: true,
      error: 'no such model',
    });
    expect(parseEvent(': keep-alive')).toBeNull();
    expect(quotaSummary({ requests_per_minute: null })).toBe('No quota');
  });
});
