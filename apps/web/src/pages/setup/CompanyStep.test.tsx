import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { fakeApi, renderPage } from '../../test/render';
import { CompanyStep } from './CompanyStep';
import { STARTUP_DETAIL, STATUS, TEMPLATES } from './fixtures';

const CREATED = {
  company_name: 'Acme',
  description: '',
  template_applied: 'startup',
  department_count: 3,
  agent_count: 5,
  agents: [],
};

describe('CompanyStep', () => {
  it('should announce loading while the templates load', () => {
    fakeApi({ 'GET /api/v1/setup/templates': { pending: true } });
    renderPage(<CompanyStep hasCompany={false} onDone={vi.fn()} />, { me: null });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the templates');
  });

  it('should show why the templates could not be loaded, with the code', async () => {
    fakeApi({ 'GET /api/v1/setup/templates': { error: 'Not allowed', code: 1003, status: 403 } });
    renderPage(<CompanyStep hasCompany={false} onDone={vi.fn()} />, { me: null });
    const alert = await screen.findByRole('alert', { name: 'The templates could not be loaded' });
    expect(alert).toHaveTextContent('1003');
  });

  it('should preview the chosen template and create the company from it', async () => {
    const onDone = vi.fn();
    const api = fakeApi({
      'GET /api/v1/setup/templates': { data: TEMPLATES },
      'GET /api/v1/setup/templates/startup': { data: STARTUP_DETAIL },
      'GET /api/v1/setup/status': { data: STATUS.withCompany },
      'POST /api/v1/setup/company': { data: CREATED, status: 201 },
    });
    renderPage(<CompanyStep hasCompany={false} onDone={onDone} />, { me: null });
    const preview = await screen.findByRole('region', { name: 'Preview: Tech Startup' });
    expect(preview).toHaveTextContent('3 departments');
    expect(preview).toHaveTextContent('5 agents');
    expect(preview).toHaveTextContent('Autonomy: Semi');
    // The roster it would hire, department by department, before anything is created.
    expect(await within(preview).findByText(/Backend Developer \(Senior\)/)).toBeInTheDocument();
    expect(preview).toHaveTextContent('Engineering (60% of the budget, led by the CTO)');

    await userEvent.selectOptions(screen.getByLabelText('Template'), 'research_lab');
    expect(screen.getByRole('region', { name: 'Preview: Research Lab' })).toHaveTextContent('2 departments');
    await userEvent.selectOptions(screen.getByLabelText('Template'), 'startup');
    const budget = screen.getByLabelText('Budget');
    await userEvent.clear(budget);
    await userEvent.type(budget, '80');
    await userEvent.type(screen.getByLabelText(/^Company name/), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));

    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(api.calls).toContainEqual({
      route: 'POST /api/v1/setup/company',
      body: { company_name: 'Acme', template_name: 'startup', variables: { budget: 80 } },
    });
  });

  it('should create a blank company without a template', async () => {
    const api = fakeApi({
      'GET /api/v1/setup/templates': { data: TEMPLATES },
      'GET /api/v1/setup/status': { data: STATUS.withCompany },
      'POST /api/v1/setup/company': { data: { ...CREATED, template_applied: null, agent_count: 0 }, status: 201 },
    });
    renderPage(<CompanyStep hasCompany={false} onDone={vi.fn()} />, { me: null });
    await userEvent.selectOptions(await screen.findByLabelText('Template'), '__blank__');
    expect(screen.getByRole('region', { name: 'Preview: blank company' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Company name/), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({ route: 'POST /api/v1/setup/company', body: { company_name: 'Acme' } }),
    );
  });

  it('should ask for a name and show a refusal with its code', async () => {
    const api = fakeApi({
      'GET /api/v1/setup/templates': { data: TEMPLATES },
      'POST /api/v1/setup/company': { error: 'Setup is already complete', code: 4010, status: 409 },
    });
    renderPage(<CompanyStep hasCompany={false} onDone={vi.fn()} />, { me: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Create company' }));
    expect(screen.getByText('Give the company a name')).toBeInTheDocument();
    expect(api.calls.some((c) => c.route.startsWith('POST'))).toBe(false);

    await userEvent.type(screen.getByLabelText(/^Company name/), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));
    const alert = await screen.findByRole('alert', { name: 'The company was not created' });
    expect(alert).toHaveTextContent('Setup is already complete');
    expect(alert).toHaveTextContent('4010');
  });

  it('should bring back an existing company and let the person keep it', async () => {
    const onDone = vi.fn();
    fakeApi({
      'GET /api/v1/setup/templates': { data: TEMPLATES },
      'GET /api/v1/company': { data: { name: 'Acme', description: 'Makes things', template_name: 'research_lab' } },
    });
    renderPage(<CompanyStep hasCompany onDone={onDone} />, { me: null });
    expect(await screen.findByText('Acme already exists')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Company name/)).toHaveValue('Acme');
    expect(screen.getByLabelText('Template')).toHaveValue('research_lab');
    await userEvent.click(screen.getByRole('button', { name: 'Keep the company and continue' }));
    expect(onDone).toHaveBeenCalled();
  });
});
