import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { fakeApi, renderPage } from '../../test/render';
import { AgentsStep } from './AgentsStep';
import { agent, page, provider } from './fixtures';

function renderStep(onNext = vi.fn()) {
  renderPage(<AgentsStep onBack={vi.fn()} onNext={onNext} />, { me: null });
  return onNext;
}

describe('AgentsStep', () => {
  it('should announce loading while the team loads', () => {
    fakeApi({ 'GET /api/v1/setup/agents': { pending: true }, 'GET /api/v1/providers': { pending: true } });
    renderStep();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the team');
  });

  it('should show why the team could not be loaded, with the code', async () => {
    fakeApi({
      'GET /api/v1/setup/agents': { error: 'Not allowed', code: 1003, status: 403 },
      'GET /api/v1/providers': page([]),
    });
    renderStep();
    expect(await screen.findByRole('alert', { name: 'The team could not be loaded' })).toHaveTextContent('1003');
  });

  it('should say what fills an empty roster and still let the person continue', async () => {
    fakeApi({
      'GET /api/v1/setup/agents': { data: { agents: [], agent_count: 0 } },
      'GET /api/v1/providers': page([provider('fake')]),
    });
    const onNext = renderStep();
    expect(await screen.findByRole('heading', { name: 'No agents yet' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next: finish' }));
    expect(onNext).toHaveBeenCalled();
  });

  it('should list the team, rename an agent and give every agent without a model one', async () => {
    let agents = [agent('Ada'), agent('Grace', { role: 'CTO', level: 'c_suite', tier: 'large' })];
    const api = fakeApi({
      'GET /api/v1/setup/agents': () => ({ data: { agents, agent_count: agents.length } }),
      'GET /api/v1/providers': page([provider('fake', ['mock-small', 'mock-large'])]),
      'PUT /api/v1/setup/agents/0/name': (_request, body) => {
        agents = [{ ...agents[0], name: (body as { name: string }).name }, agents[1]];
        return { data: agents[0] };
      },
      'PUT /api/v1/setup/agents/0/model': (_request, body) => {
        agents = [{ ...agents[0], ...(body as object) }, agents[1]];
        return { data: agents[0] };
      },
      'PUT /api/v1/setup/agents/1/model': (_request, body) => {
        agents = [agents[0], { ...agents[1], ...(body as object) }];
        return { data: agents[1] };
      },
    });
    renderStep();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Role', 'Department', 'Level', 'Model', 'Actions']);
    expect(within(table).getByText('CTO')).toBeInTheDocument();
    expect(screen.getByText('2 of 2 agents have no model yet')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Rename Ada' }));
    const field = screen.getByRole('textbox', { name: 'New name for Ada' });
    await userEvent.clear(field);
    await userEvent.type(field, 'Ada Lovelace{Enter}');
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(api.calls).toContainEqual({ route: 'PUT /api/v1/setup/agents/0/name', body: { name: 'Ada Lovelace' } });

    await userEvent.selectOptions(screen.getByLabelText('Model for agents without one'), 'fake::mock-large');
    await userEvent.click(screen.getByRole('button', { name: 'Assign to 2 agents' }));
    await waitFor(() => expect(screen.queryByText(/have no model yet/)).not.toBeInTheDocument());
    expect(api.calls.filter((c) => c.route.endsWith('/model')).map((c) => c.body)).toEqual([
      { model_provider: 'fake', model_id: 'mock-large' },
      { model_provider: 'fake', model_id: 'mock-large' },
    ]);
    expect(screen.getByRole('combobox', { name: 'Model for Grace' })).toHaveValue('fake::mock-large');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Model for Grace' }), 'fake::mock-small');
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'PUT /api/v1/setup/agents/1/model',
        body: { model_provider: 'fake', model_id: 'mock-small' },
      }),
    );
  });

  it('should show a refused name with its code', async () => {
    fakeApi({
      'GET /api/v1/setup/agents': { data: { agents: [agent('Ada'), agent('Grace')], agent_count: 2 } },
      'GET /api/v1/providers': page([provider('fake')]),
      'PUT /api/v1/setup/agents/0/name': { error: 'The name Grace is taken', code: 4002, status: 409 },
    });
    renderStep();
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Ada' }));
    const field = screen.getByRole('textbox', { name: 'New name for Ada' });
    await userEvent.clear(field);
    await userEvent.type(field, 'Grace');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    const alert = await screen.findByRole('alert', { name: 'The name was not changed' });
    expect(alert).toHaveTextContent('The name Grace is taken');
    expect(alert).toHaveTextContent('4002');
  });
});
