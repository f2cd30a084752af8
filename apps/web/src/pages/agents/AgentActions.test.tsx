import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import { changes } from './AgentActions';
import AgentDetail from './AgentDetail';
import { agentFixture, BUDGET_CONFIG, departmentFixture, page } from './fixtures';

const GRACE = agentFixture({ id: 'a-2', name: 'Grace Hopper', role: 'CTO', department: 'engineering' });
const ROUTE = '/agents/:agentName';
const PERFORMANCE = {
  agent_name: 'Grace Hopper',
  tasks_completed_total: 0,
  tasks_completed_7d: 0,
  tasks_completed_30d: 0,
  avg_completion_time_seconds: null,
  cost_per_task: null,
  success_rate_percent: null,
  quality_score: null,
  collaboration_score: null,
  trend_direction: 'insufficient_data',
  windows: [],
  trends: [],
};
const PROVIDER = { name: 'fake', models: [{ id: 'mock-small' }, { id: 'mock-large' }] };

function base(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/v1/agents/Grace%20Hopper': { data: GRACE, headers: { etag: '"7"' } },
    'GET /api/v1/budget/config': { data: BUDGET_CONFIG },
    'GET /api/v1/agents/Grace%20Hopper/performance': { data: PERFORMANCE },
    'GET /api/v1/company/departments': {
      data: [departmentFixture({ name: 'engineering' }), departmentFixture({ name: 'product' })],
    },
    'GET /api/v1/providers': page([PROVIDER], 0, 200),
    ...extra,
  });
}

const render = (me = CEO) => renderPage(<AgentDetail />, { path: '/agents/Grace%20Hopper', route: ROUTE, me });

describe('Agent edit and fire', () => {
  it('should offer an observer neither', async () => {
    base();
    render(OBSERVER);
    await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' });
    expect(screen.queryByRole('button', { name: 'Edit agent' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Fire agent' })).not.toBeInTheDocument();
  });

  it('should send only what changed, with the version it read', async () => {
    let sent: { ifMatch: string | null; body: unknown } | null = null;
    base({
      'PATCH /api/v1/agents/Grace%20Hopper': (request, body) => {
        sent = { ifMatch: request.headers.get('if-match'), body };
        return { data: { ...GRACE, department: 'product' } };
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit agent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Grace Hopper' });
    await userEvent.selectOptions(await within(dialog).findByLabelText('Department'), 'product');
    await userEvent.selectOptions(within(dialog).getByLabelText('Model'), 'mock-large');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Moves to product');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).not.toBeNull());
    expect(sent).toEqual({
      ifMatch: '"7"',
      body: { department: 'product', model: { model_id: 'mock-large' }, reason: 'Moves to product' },
    });
  });

  it('should report an edit someone else made meanwhile as a conflict', async () => {
    base({
      'PATCH /api/v1/agents/Grace%20Hopper': { error: 'Agent changed since it was read', code: 4002, status: 409 },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit agent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Grace Hopper' });
    await userEvent.clear(await within(dialog).findByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Grace B. Hopper');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert', { name: 'Changed by someone else' });
    expect(alert).toHaveTextContent('was changed since you opened this form');
    expect(within(alert).getByRole('button', { name: 'Load the current version' })).toBeInTheDocument();
  });

  it('should fire with a reason and show the offboarding record', async () => {
    const api = base({
      'POST /api/v1/agents/Grace%20Hopper/fire': {
        status: 201,
        data: {
          agent_id: 'a-2',
          agent_name: 'Grace Hopper',
          completed_at: '2026-11-21T10:00:00Z',
          details: 'Budget cut',
          firing_request_id: 'f-1',
          memory_archive_id: 'm-1',
          org_memories_promoted: 2,
          reason: 'budget',
          requested_by: 'ceo',
          started_at: '2026-11-21T09:59:00Z',
          steps: [
            { name: 'reassign_tasks', state: 'done', detail: '1 task', completed_at: null },
            { name: 'notify_team', state: 'skipped', detail: '', completed_at: null },
          ],
          tasks_reassigned: ['t-1'],
          team_notification_sent: false,
        },
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Fire agent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fire Grace Hopper?' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'budget');
    await userEvent.type(within(dialog).getByLabelText(/^Details/), 'Budget cut');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Fire Grace Hopper' }));
    const done = await screen.findByRole('dialog', { name: 'Grace Hopper was offboarded' });
    expect(done).toHaveTextContent('1 task reassigned');
    expect(done).toHaveTextContent('Reassign tasks — 1 task');
    expect(api.calls.find((c) => c.route.startsWith('POST'))?.body).toEqual({
      reason: 'budget',
      details: 'Budget cut',
    });
  });

  it('should compute no change for an untouched form', () => {
    const f = {
      name: GRACE.name,
      department: GRACE.department,
      provider: 'fake',
      modelId: 'mock-small',
      temperature: 0.7,
      maxTokens: 4096,
      budget: '' as const,
      status: 'active' as const,
      reason: 'x',
    };
    expect(changes(GRACE, f)).toEqual({});
    expect(changes(GRACE, { ...f, budget: 50 })).toEqual({ budget_limit_monthly: 50, reason: 'x' });
  });
});
