import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { fakeApi, renderPage } from '../../test/render';
import { page, PRESETS, provider, STATUS } from './fixtures';
import { ProviderStep } from './ProviderStep';

const FAKE_URL = 'http://127.0.0.1:4000/v1';

function renderStep(onNext = vi.fn()) {
  renderPage(<ProviderStep onBack={vi.fn()} onNext={onNext} />, { me: null });
  return onNext;
}

describe('ProviderStep', () => {
  it('should announce loading while the presets load', () => {
    fakeApi({ 'GET /api/v1/providers/presets': { pending: true }, 'GET /api/v1/providers': { pending: true } });
    renderStep();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the provider presets');
  });

  it('should show why the providers could not be loaded, with the code', async () => {
    fakeApi({
      'GET /api/v1/providers/presets': { data: PRESETS },
      'GET /api/v1/providers': { error: 'Database unavailable', code: 5003, status: 503 },
    });
    renderStep();
    const alert = await screen.findByRole('alert', { name: 'The providers could not be loaded' });
    expect(alert).toHaveTextContent('5003');
  });

  it('should fill in the preset, offer to trust a refused local address and add the provider', async () => {
    let created = false;
    const api = fakeApi({
      'GET /api/v1/providers/presets': { data: PRESETS },
      'GET /api/v1/providers': () => page(created ? [provider('lm-studio')] : []),
      'GET /api/v1/setup/status': { data: STATUS.withProvider },
      'POST /api/v1/providers/from-preset': (_request, body) => {
        if (!(body as { trust_address?: boolean }).trust_address) {
          return {
            error: 'provider address 127.0.0.1:4000 is refused by the discovery policy (loopback)',
            code: 2014,
            status: 400,
          };
        }
        created = true;
        return { data: provider('lm-studio'), status: 201 };
      },
    });
    const onNext = renderStep();
    await userEvent.selectOptions(await screen.findByLabelText(/^Preset/), 'lm-studio');
    expect(screen.getByLabelText(/^Provider name/)).toHaveValue('lm-studio');
    expect(screen.getByLabelText(/^Base URL/)).toHaveValue('http://localhost:1234/v1');
    expect(screen.getByLabelText(/^API key/)).toBeDisabled();
    await userEvent.clear(screen.getByLabelText(/^Base URL/));
    await userEvent.type(screen.getByLabelText(/^Base URL/), FAKE_URL);
    await userEvent.click(screen.getByRole('button', { name: 'Add provider' }));

    const alert = await screen.findByRole('alert', { name: 'The provider was not saved' });
    expect(alert).toHaveTextContent('127.0.0.1:4000 is refused');
    expect(alert).toHaveTextContent('2014');
    await userEvent.click(screen.getByRole('checkbox', { name: /Trust this local address/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Add provider' }));

    expect(await screen.findByRole('heading', { name: 'Providers added (1)' })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.route === 'POST /api/v1/providers/from-preset').map((c) => c.body)).toEqual([
      { preset_name: 'lm-studio', name: 'lm-studio', base_url: FAKE_URL, auth_type: 'none' },
      { preset_name: 'lm-studio', name: 'lm-studio', base_url: FAKE_URL, auth_type: 'none', trust_address: true },
    ]);
    expect(screen.getByText('1 model: mock-small')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Preset/)).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Next: review agents' }));
    expect(onNext).toHaveBeenCalled();
  });

  it('should save the provider to test its connection and replace it when the form changes', async () => {
    const api = fakeApi({
      'GET /api/v1/providers/presets': { data: PRESETS },
      'GET /api/v1/providers': page([]),
      'GET /api/v1/setup/status': { data: STATUS.withProvider },
      'POST /api/v1/providers/from-preset': { data: provider('fake'), status: 201 },
      'DELETE /api/v1/providers/fake': { data: null, status: 200 },
      'POST /api/v1/providers/fake/test': () => {
        const tests = api.calls.filter((c) => c.route === 'POST /api/v1/providers/fake/test').length;
        return tests === 1
          ? {
              data: { success: true, latency_ms: 12, error: null, error_code: null, model_tested: 'mock-small' },
              status: 201,
            }
          : {
              data: {
                success: false,
                latency_ms: null,
                error: 'connection refused',
                error_code: 7001,
                model_tested: null,
              },
              status: 201,
            };
      },
    });
    renderStep();
    await userEvent.selectOptions(await screen.findByLabelText(/^Preset/), 'lm-studio');
    await userEvent.clear(screen.getByLabelText(/^Provider name/));
    await userEvent.type(screen.getByLabelText(/^Provider name/), 'fake');
    await userEvent.clear(screen.getByLabelText(/^Base URL/));
    await userEvent.type(screen.getByLabelText(/^Base URL/), FAKE_URL);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));

    const works = await screen.findByRole('status', { name: 'Connection to fake works' });
    expect(works).toHaveTextContent('Answered in 12 ms using mock-small');
    expect(screen.getByText(/Saved as fake/)).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/^Base URL/), '/x');
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const failed = await screen.findByRole('alert', { name: 'Connection to fake failed' });
    expect(failed).toHaveTextContent('connection refused');
    expect(failed).toHaveTextContent('7001');
    expect(api.calls.map((c) => c.route)).toEqual(
      expect.arrayContaining(['DELETE /api/v1/providers/fake', 'POST /api/v1/providers/fake/test']),
    );
    expect(api.calls.filter((c) => c.route === 'POST /api/v1/providers/from-preset')).toHaveLength(2);
  });

  it('should send the API key of a cloud preset and refuse a malformed name first', async () => {
    const api = fakeApi({
      'GET /api/v1/providers/presets': { data: PRESETS },
      'GET /api/v1/providers': page([]),
      'GET /api/v1/setup/status': { data: STATUS.withProvider },
      'POST /api/v1/providers/from-preset': { data: provider('openai', ['gpt-4.1']), status: 201 },
    });
    renderStep();
    await userEvent.selectOptions(await screen.findByLabelText(/^Preset/), 'openai');
    await userEvent.clear(screen.getByLabelText(/^Provider name/));
    await userEvent.type(screen.getByLabelText(/^Provider name/), 'X');
    await userEvent.click(screen.getByRole('button', { name: 'Add provider' }));
    expect(screen.getByText('Use 2 to 64 lower-case letters, digits or inner hyphens')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText(/^Provider name/));
    await userEvent.type(screen.getByLabelText(/^Provider name/), 'openai');
    await userEvent.type(screen.getByLabelText(/^API key/), 'sk-test');
    await userEvent.click(screen.getByRole('button', { name: 'Add provider' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/providers/from-preset',
        body: { preset_name: 'openai', name: 'openai', auth_type: 'api_key', api_key: 'sk-test' },
      }),
    );
  });

  it('should test, discover models of and remove a provider added before', async () => {
    const api = fakeApi({
      'GET /api/v1/providers/presets': { data: PRESETS },
      'GET /api/v1/providers': page([provider('fake')]),
      'GET /api/v1/setup/status': { data: STATUS.withProvider },
      'POST /api/v1/providers/fake/test': {
        data: { success: true, latency_ms: 7, error: null, error_code: null, model_tested: 'mock-small' },
        status: 201,
      },
      'POST /api/v1/providers/fake/discover-models': {
        data: { provider_name: 'fake', discovered_models: ['mock-medium', 'mock-large'] },
        status: 201,
      },
      'DELETE /api/v1/providers/fake': { error: 'agents use its models', code: 4001, status: 409 },
    });
    renderStep();
    await userEvent.click(await screen.findByRole('button', { name: 'Test fake again' }));
    expect(await screen.findByRole('status', { name: 'Connection to fake works' })).toHaveTextContent('7 ms');
    await userEvent.click(screen.getByRole('button', { name: 'Discover models of fake' }));
    expect(await screen.findByText('Added 2 models to fake: mock-medium, mock-large')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove fake' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm removal of fake' }));
    const alert = await screen.findByRole('alert', { name: 'The action failed' });
    expect(alert).toHaveTextContent('4001');
    expect(api.calls.map((c) => c.route)).toContain('DELETE /api/v1/providers/fake');
    expect(screen.getByRole('button', { name: 'Next: review agents' })).toBeEnabled();
  });
});
