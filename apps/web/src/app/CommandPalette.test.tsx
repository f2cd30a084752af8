import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { fakeApi, OBSERVER, renderPage } from '../test/render';
import CommandPalette, { matching } from './CommandPalette';

const AGENTS = { data: [{ name: 'Grace Hopper' }], pagination: { total: 1, offset: 0, limit: 200 } };
const TASKS = {
  data: [{ id: 't-1', title: 'Write the launch plan' }],
  pagination: { total: 1, offset: 0, limit: 100 },
};

describe('CommandPalette', () => {
  it('should find pages, agents and tasks by any words of their names', async () => {
    fakeApi({ 'GET /api/v1/agents': AGENTS, 'GET /api/v1/tasks': TASKS });
    const onClose = vi.fn();
    renderPage(<CommandPalette onClose={onClose} />);
    const input = await screen.findByRole('combobox', { name: 'Page, agent or task' });
    await userEvent.type(input, 'grace');
    expect(await screen.findByRole('option', { name: /Grace Hopper/ })).toHaveAttribute('aria-selected', 'true');
    await userEvent.clear(input);
    await userEvent.type(input, 'launch plan');
    await screen.findByRole('option', { name: /Write the launch plan/ });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('should leave out the pages a role cannot use', async () => {
    fakeApi({ 'GET /api/v1/agents': AGENTS, 'GET /api/v1/tasks': TASKS });
    renderPage(<CommandPalette onClose={() => undefined} />, { me: OBSERVER });
    await userEvent.type(await screen.findByRole('combobox'), 'page');
    expect(screen.getByRole('option', { name: /Settings/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Hiring/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Memory/ })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /People/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Backups/ })).not.toBeInTheDocument();
  });

  it('should match every word', () => {
    const targets = [{ kind: 'Task' as const, label: 'Write the plan', to: '/tasks/1' }];
    expect(matching(targets, 'plan write')).toHaveLength(1);
    expect(matching(targets, 'plan read')).toHaveLength(0);
  });
});
