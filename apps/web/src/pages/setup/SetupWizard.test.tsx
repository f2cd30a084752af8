import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';

import { fakeApi } from '../../test/render';
import { agent, ME_CEO, page, PRESETS, provider, STATUS, TEMPLATES } from './fixtures';
import SetupWizard from './SetupWizard';

function Where({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p>
      {name} at {location.pathname}
      {location.search}
    </p>
  );
}

/** The wizard at `path`, with stand-ins for the pages it hands over to (sign-in, overview, account). */
function renderWizard(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/setup/*', element: <SetupWizard /> },
      { path: '/login', element: <Where name="Sign-in page" /> },
      { path: '/account', element: <Where name="Account page" /> },
      { path: '/', element: <Where name="Overview page" /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { router, client };
}

describe('SetupWizard', () => {
  it('should announce loading while the status is asked for', () => {
    fakeApi({ 'GET /api/v1/setup/status': { pending: true } });
    renderWizard('/setup');
    expect(screen.getByRole('status')).toHaveTextContent('Checking what setup still needs');
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'SynthOrg' })).toBeInTheDocument();
  });

  it('should show the message and code when the status cannot be read', async () => {
    fakeApi({ 'GET /api/v1/setup/status': { error: 'Database unavailable', code: 5003, status: 503 } });
    renderWizard('/setup');
    const alert = await screen.findByRole('alert', { name: 'The service did not answer' });
    expect(alert).toHaveTextContent('Database unavailable');
    expect(alert).toHaveTextContent('5003');
  });

  it('should create the CEO account with the accessible fields and continue at the company', async () => {
    let status = STATUS.fresh;
    const api = fakeApi({
      'GET /api/v1/setup/status': () => ({ data: status }),
      'POST /api/v1/auth/setup': () => {
        status = STATUS.signedUp;
        return { data: { token: 't', expires_in: 3600, must_change_password: false }, status: 201 };
      },
      'GET /api/v1/auth/me': { data: ME_CEO },
      'GET /api/v1/setup/templates': { data: TEMPLATES },
    });
    const { router } = renderWizard('/setup');
    expect(await screen.findByRole('heading', { name: 'Create the CEO account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/setup/account');
    expect(screen.getByRole('navigation', { name: 'Setup progress' })).toHaveTextContent('Step 1 of 5');

    await userEvent.type(screen.getByLabelText('Username', { exact: false }), 'ceo');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-long-password-1');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'a-long-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('heading', { name: 'Create your company' })).toBeInTheDocument();
    expect(api.calls).toContainEqual({
      route: 'POST /api/v1/auth/setup',
      body: { username: 'ceo', password: 'a-long-password-1' },
    });
    expect(router.state.location.pathname).toBe('/setup/company');
    expect(screen.getByText(/Signed in as/)).toHaveTextContent('ceo');
  });

  it('should refuse mismatched or short passwords before asking the service', async () => {
    const api = fakeApi({ 'GET /api/v1/setup/status': { data: STATUS.fresh } });
    renderWizard('/setup/account');
    await userEvent.type(await screen.findByLabelText(/^Username/), 'ceo');
    await userEvent.type(screen.getByLabelText(/^Password/), 'short');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'other');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Use at least 12 characters')).toBeInTheDocument();
    expect(screen.getByText('The passwords do not match')).toBeInTheDocument();
    expect(api.calls.some((call) => call.route.startsWith('POST'))).toBe(false);
  });

  it('should show a refused account with its message and code', async () => {
    fakeApi({
      'GET /api/v1/setup/status': { data: STATUS.fresh },
      'POST /api/v1/auth/setup': { error: 'A CEO account exists already', code: 4009, status: 409 },
    });
    renderWizard('/setup/account');
    await userEvent.type(await screen.findByLabelText(/^Username/), 'ceo');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-long-password-1');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'a-long-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert', { name: 'The account was not created' });
    expect(alert).toHaveTextContent('A CEO account exists already');
    expect(alert).toHaveTextContent('4009');
  });

  it('should resume at the provider step when the company exists but no provider does', async () => {
    fakeApi({
      'GET /api/v1/setup/status': { data: STATUS.withCompany },
      'GET /api/v1/auth/me': { data: ME_CEO },
      'GET /api/v1/providers/presets': { data: PRESETS },
      'GET /api/v1/providers': page([]),
    });
    const { router } = renderWizard('/setup');
    expect(await screen.findByRole('heading', { name: 'Add a model provider' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/setup/provider');
    expect(screen.getByRole('navigation', { name: 'Setup progress' })).toHaveTextContent('Step 3 of 5');
    expect(screen.getByRole('button', { name: 'Next: review agents' })).toBeDisabled();
  });

  it('should not skip ahead of what the service has: an agents address without a provider shows the provider', async () => {
    fakeApi({
      'GET /api/v1/setup/status': { data: STATUS.withCompany },
      'GET /api/v1/auth/me': { data: ME_CEO },
      'GET /api/v1/providers/presets': { data: PRESETS },
      'GET /api/v1/providers': page([]),
    });
    const { router } = renderWizard('/setup/finish');
    expect(await screen.findByRole('heading', { name: 'Add a model provider' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/setup/provider');
  });

  it('should send a person without a session to sign-in and back', async () => {
    fakeApi({
      'GET /api/v1/setup/status': { data: STATUS.withCompany },
      'GET /api/v1/auth/me': { error: 'Not signed in', code: 1001, status: 401 },
    });
    renderWizard('/setup');
    expect(await screen.findByText(/Sign-in page at/)).toHaveTextContent('/login?next=%2Fsetup%2Fprovider');
  });

  it('should tell someone other than the CEO that only the CEO can set up', async () => {
    fakeApi({
      'GET /api/v1/setup/status': { data: STATUS.withCompany },
      'GET /api/v1/auth/me': { data: { ...ME_CEO, username: 'mia', role: 'manager' } },
    });
    renderWizard('/setup');
    expect(await screen.findByText('Only the CEO can set up the company. Ask them to finish setup, then come back.'));
    expect(screen.queryByRole('button', { name: 'Create company' })).not.toBeInTheDocument();
  });

  it('should go to the overview once setup is complete', async () => {
    fakeApi({ 'GET /api/v1/setup/status': { data: STATUS.done } });
    renderWizard('/setup/company');
    expect(await screen.findByText('Overview page at /')).toBeInTheDocument();
  });

  it('should finish setup from the summary and land on the overview', async () => {
    let status = STATUS.withProvider;
    const api = fakeApi({
      'GET /api/v1/setup/status': () => ({ data: status }),
      'GET /api/v1/auth/me': { data: ME_CEO },
      'GET /api/v1/company': {
        data: { name: 'Acme', template_name: 'startup', departments: [{ name: 'engineering' }] },
      },
      'GET /api/v1/providers': page([provider('fake')]),
      'GET /api/v1/setup/agents': {
        data: { agents: [agent('Ada', { model_provider: 'fake', model_id: 'mock-small' })], agent_count: 1 },
      },
      'POST /api/v1/setup/complete': () => {
        status = STATUS.done;
        return { data: { setup_complete: true, reinitialised: [] } };
      },
    });
    renderWizard('/setup/finish');
    const summary = await screen.findByRole('region', { name: 'Company' });
    expect(summary).toHaveTextContent('Acme');
    expect(screen.getByRole('region', { name: 'Providers' })).toHaveTextContent('fake');
    expect(screen.getByRole('region', { name: 'Agents' })).toHaveTextContent('Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Finish setup' }));
    expect(await screen.findByText('Overview page at /')).toBeInTheDocument();
    expect(api.calls.map((c) => c.route)).toContain('POST /api/v1/setup/complete');
  });

  it('should show why setup could not finish, with the code', async () => {
    fakeApi({
      'GET /api/v1/setup/status': { data: STATUS.withProvider },
      'GET /api/v1/auth/me': { data: ME_CEO },
      'GET /api/v1/company': { data: { name: 'Acme', template_name: null, departments: [] } },
      'GET /api/v1/providers': page([provider('fake')]),
      'GET /api/v1/setup/agents': { data: { agents: [agent('Ada')], agent_count: 1 } },
      'POST /api/v1/setup/complete': {
        error: 'Setup cannot complete: no model provider is registered',
        code: 2001,
        status: 400,
      },
    });
    renderWizard('/setup/finish');
    expect(await screen.findByText('1 agent has no model')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Finish setup' }));
    const alert = await screen.findByRole('alert', { name: 'Setup could not finish' });
    expect(within(alert).getByText('Setup cannot complete: no model provider is registered')).toBeInTheDocument();
    expect(alert).toHaveTextContent('2001');
  });
});
