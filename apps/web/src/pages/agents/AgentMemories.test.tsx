import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import type { Schemas } from '@app/client';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import AgentDetail from './AgentDetail';
import { agentFixture, BUDGET_CONFIG, page } from './fixtures';

const ROUTE = '/agents/:agentName';
const GRACE = agentFixture({ id: 'a-2', name: 'Grace Hopper', role: 'CTO', department: 'engineering' });

function entry(id: string, content: string, overrides: Partial<Schemas['MemoryEntry']> = {}): Schemas['MemoryEntry'] {
  return {
    id,
    agent_id: 'a-2',
    archive_id: null,
    category: 'semantic',
    content,
    created_at: '2026-11-28T10:00:00.000Z',
    expires_at: null,
    level: 'persistent',
    metadata: {},
    project: null,
    task_id: null,
    updated_at: null,
    ...overrides,
  };
}

function base(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/v1/agents/Grace%20Hopper': { data: GRACE },
    'GET /api/v1/budget/config': { data: BUDGET_CONFIG },
    ...extra,
  });
}

const render = (me = CEO) =>
  renderPage(<AgentDetail />, { path: '/agents/Grace%20Hopper?tab=memories', route: ROUTE, me });

describe('An agent’s memories', () => {
  it('should say what fills an empty memory, and filter by category', async () => {
    const api = base({ 'GET /api/v1/agents/Grace%20Hopper/memories': page([], 0, 20) });
    render();
    expect(await screen.findByRole('heading', { name: 'No memories yet' })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'procedural');
    await waitFor(() =>
      expect(api.calls.map((c) => c.route)).toContain(
        'GET /api/v1/agents/Grace%20Hopper/memories?offset=0&limit=20&category=procedural',
      ),
    );
  });

  it('should show a failed load with its code', async () => {
    base({ 'GET /api/v1/agents/Grace%20Hopper/memories': { error: 'Not allowed', code: 1980, status: 403 } });
    render();
    expect(await screen.findByText('Error code 1980')).toBeInTheDocument();
  });

  it('should search, then delete a match', async () => {
    let entries = [entry('m-1', 'The API uses cursor pages'), entry('m-2', 'Old note', { archive_id: 'memarch-1' })];
    const api = base({
      'GET /api/v1/agents/Grace%20Hopper/memories': () => page(entries, 0, 20),
      'POST /api/v1/agents/Grace%20Hopper/memories/search': () => ({
        data: entries.filter((e) => e.id === 'm-1').map((e) => ({ ...e, relevance_score: 0.91 })),
      }),
      'DELETE /api/v1/agents/Grace%20Hopper/memories/m-1': () => {
        entries = entries.filter((e) => e.id !== 'm-1');
        return { data: null };
      },
    });
    render();
    const all = await screen.findByRole('list', { name: 'Memories, newest first' });
    expect(within(all).getAllByRole('listitem')).toHaveLength(2);
    // An archived memory is read-only.
    expect(within(all).getAllByRole('button', { name: /^Delete the memory/ })).toHaveLength(1);

    await userEvent.type(screen.getByLabelText('Search'), 'pagination');
    await userEvent.click(screen.getByRole('button', { name: 'Search memories' }));
    const matches = await screen.findByRole('list', { name: 'Matching memories, best first' });
    expect(matches).toHaveTextContent('relevance 0.91');
    expect(api.calls.find((c) => c.route.startsWith('POST'))?.body).toEqual({ query: 'pagination', limit: 20 });

    await userEvent.click(within(matches).getByRole('button', { name: /^Delete the memory “The API/ }));
    expect(await screen.findByRole('heading', { name: 'No memory matches' })).toBeInTheDocument();
  });

  it('should offer an observer no delete', async () => {
    base({ 'GET /api/v1/agents/Grace%20Hopper/memories': page([entry('m-1', 'A note')], 0, 20) });
    render(OBSERVER);
    await screen.findByRole('list', { name: 'Memories, newest first' });
    expect(screen.queryByRole('button', { name: /^Delete the memory/ })).not.toBeInTheDocument();
  });
});
