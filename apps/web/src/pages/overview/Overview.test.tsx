import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { applyEvent } from '../../app/live';
import { type Answer, fakeApi, renderPage } from '../../test/render';
import Overview, { heldLimit } from './Overview';

const DAY = 86_400_000;
const days = (values: number[]) =>
  values.map((value, i) => ({ timestamp: new Date(Date.now() - (6 - i) * DAY).toISOString(), value }));

const EMPTY_METRICS = {
  total_tasks: 0,
  tasks_by_status: {
    created: 0,
    assigned: 0,
    in_progress: 0,
    in_review: 0,
    completed: 0,
    blocked: 0,
    failed: 0,
    interrupted: 0,
    cancelled: 0,
  },
  total_agents: 0,
  total_cost_usd: 0,
  budget_remaining_usd: 0,
  budget_used_percent: 0,
  cost_7d_trend: days([0, 0, 0, 0, 0, 0, 0]),
  active_agents_count: 0,
  idle_agents_count: 0,
  currency: 'USD',
};

const METRICS = {
  ...EMPTY_METRICS,
  total_tasks: 6,
  tasks_by_status: { ...EMPTY_METRICS.tasks_by_status, completed: 3, in_progress: 2, blocked: 1 },
  total_agents: 5,
  active_agents_count: 2,
  idle_agents_count: 3,
  total_cost_usd: 12.5,
  budget_remaining_usd: 80,
  budget_used_percent: 20,
  cost_7d_trend: days([1, 2, 0, 3, 1, 2, 1]),
};

const FORECAST = {
  horizon_days: 14,
  projected_total_usd: 20,
  daily_projections: [],
  days_until_exhausted: 12,
  confidence: 0.8,
  avg_daily_spend_usd: 1.5,
  currency: 'USD',
};

const pendingItem = (id: string, title: string, minutes: number | null) => ({
  id,
  action_type: 'deploy:production',
  title,
  description: '',
  requested_by: 'ceo',
  risk_level: 'high',
  status: 'pending',
  task_id: null,
  metadata: {},
  decided_by: null,
  decision_reason: null,
  created_at: new Date().toISOString(),
  decided_at: null,
  expires_at: minutes === null ? null : new Date(Date.now() + minutes * 60_000).toISOString(),
  seconds_remaining: minutes === null ? null : minutes * 60,
  urgency_level: minutes === null ? 'no_expiry' : 'critical',
});
const PENDING = [pendingItem('p1', 'Publish the pricing page', null), pendingItem('p2', 'Deploy to production', 30)];

const page = (data: unknown[], total = data.length): Answer => ({ data, pagination: { total, offset: 0, limit: 12 } });

function routes(overrides: Record<string, Answer> = {}): Record<string, Answer> {
  return {
    'GET /api/v1/analytics/overview': { data: METRICS },
    'GET /api/v1/analytics/forecast': { data: FORECAST },
    'GET /api/v1/approvals': page(PENDING),
    'GET /api/v1/agents': page([{ id: 'ag1', name: 'Ada Lovelace' }]),
    'GET /api/v1/activities': page([
      {
        event_type: 'task_completed',
        timestamp: new Date(Date.now() - 120_000).toISOString(),
        description: 'Task t1 succeeded (3.2s, $0.01)',
        related_ids: { task_id: 't1', agent_id: 'ag1' },
      },
      {
        event_type: 'hired',
        timestamp: new Date(Date.now() - 3_600_000).toISOString(),
        description: 'Hired as backend developer',
        related_ids: { agent_id: 'ag1' },
      },
    ]),
    'GET /api/v1/tasks/t1': { data: { id: 't1', title: 'Write the release notes' } },
    'GET /api/v1/tasks': page([]),
    ...overrides,
  };
}

describe('Overview', () => {
  it('should announce the loading overview', () => {
    fakeApi(routes({ 'GET /api/v1/analytics/overview': { pending: true } }));
    renderPage(<Overview />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the overview');
  });

  it('should show the message and code of a failed load', async () => {
    fakeApi(
      routes({ 'GET /api/v1/analytics/overview': { error: 'Analytics are unavailable', code: 5001, status: 503 } }),
    );
    renderPage(<Overview />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Analytics are unavailable');
    expect(alert).toHaveTextContent('5001');
  });

  it('should not crash on an empty company and say what fills each part', async () => {
    fakeApi(
      routes({
        'GET /api/v1/analytics/overview': { data: EMPTY_METRICS },
        'GET /api/v1/analytics/forecast': { data: { ...FORECAST, days_until_exhausted: null, avg_daily_spend_usd: 0 } },
        'GET /api/v1/approvals': page([], 0),
        'GET /api/v1/agents': page([]),
        'GET /api/v1/activities': page([]),
      }),
    );
    renderPage(<Overview />);
    expect(await screen.findByText('No tasks yet')).toBeInTheDocument();
    expect(screen.getByText(/No agents yet/)).toBeInTheDocument();
    expect(screen.getByText(/No monthly budget is set/)).toBeInTheDocument();
    expect(screen.getByText('Nothing spent this week')).toBeInTheDocument();
    expect(await screen.findByText('No activity this week')).toBeInTheDocument();
    expect(await screen.findByText('Nothing waits for a decision')).toBeInTheDocument();
    expect(await screen.findByText(/Nothing waits. When an agent asks/)).toBeInTheDocument();
  });

  it('should show spend, budget with its forecast, agents, approvals, tasks by status and the activity', async () => {
    fakeApi(routes());
    renderPage(<Overview />);
    const spend = await screen.findByRole('region', { name: 'Spend, last 7 days' });
    expect(spend).toHaveTextContent('$10.00');
    expect(within(spend).getByRole('img', { name: /Daily spend: .*\$3\.00/ })).toBeInTheDocument();
    expect(spend).toHaveTextContent('$12.50 since the start');

    const budget = screen.getByRole('region', { name: 'Budget this period' });
    expect(budget).toHaveTextContent('20% used');
    expect(within(budget).getByRole('progressbar', { name: 'Budget used this period: 20%' })).toBeInTheDocument();
    expect(budget).toHaveTextContent('$80.00 left');
    expect(await within(budget).findByText(/Runs out in 12 days .* at \$1\.50 a day/)).toBeInTheDocument();

    const agents = screen.getByRole('region', { name: 'Agents' });
    expect(agents).toHaveTextContent('5');
    expect(agents).toHaveTextContent('2 working on a task');
    expect(agents).toHaveTextContent('3 idle');

    const approvals = screen.getByRole('region', { name: 'Pending approvals' });
    expect(await within(approvals).findByText('2')).toBeInTheDocument();
    expect(within(approvals).getByRole('link', { name: 'Review the approvals' })).toHaveAttribute('href', '/approvals');
    const waiting = await screen.findByRole('list', { name: 'Waiting for a decision' });
    expect(
      within(waiting)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Deploy to production', 'Publish the pricing page']);
    expect(waiting).toHaveTextContent('Urgent: expires in 30 minutes');

    const tasks = screen.getByRole('region', { name: 'Tasks by status' });
    expect(tasks).toHaveTextContent('6 tasks in all');
    expect(tasks).toHaveTextContent('Completed3');
    expect(tasks).toHaveTextContent('In progress2');
    expect(tasks).toHaveTextContent('Blocked1');

    const feed = await screen.findByRole('list', { name: 'Recent activity' });
    expect(await within(feed).findByRole('link', { name: 'Write the release notes' })).toHaveAttribute(
      'href',
      '/tasks/t1',
    );
    expect(feed).toHaveTextContent('succeeded (3.2s, $0.01)');
    expect(await within(feed).findAllByText(/Ada Lovelace/)).toHaveLength(2);
    expect(feed).toHaveTextContent('Hired as backend developer');
  });

  it('should say when the budget is spent', async () => {
    fakeApi(
      routes({
        'GET /api/v1/analytics/overview': { data: { ...METRICS, budget_used_percent: 104, budget_remaining_usd: 0 } },
        'GET /api/v1/analytics/forecast': { data: { ...FORECAST, days_until_exhausted: 0 } },
      }),
    );
    renderPage(<Overview />);
    expect(await screen.findByText('104% used')).toBeInTheDocument();
    expect(await screen.findByText('The budget for this period is spent')).toBeInTheDocument();
  });

  it('should list the tasks a budget limit holds, and leave out other blocked work', async () => {
    const api = fakeApi({
      ...routes(),
      'GET /api/v1/tasks': (request) =>
        new URL(request.url).searchParams.get('status') === 'blocked'
          ? page([
              {
                id: 'h1',
                title: 'Draft the pricing page',
                status: 'blocked',
                assigned_to: 'Ada Lovelace',
                status_reason: 'budget_exhausted: department limit [4051] engineering spent its share',
              },
              {
                id: 'b1',
                title: 'Waits on a review',
                status: 'blocked',
                assigned_to: null,
                status_reason: 'dependency',
              },
            ])
          : page([
              {
                id: 'h2',
                title: 'Summarise the interviews',
                status: 'in_progress',
                assigned_to: null,
                status_reason: 'budget_exhausted: monthly limit [4050] the month is spent',
              },
            ]),
    });
    renderPage(<Overview />);
    // It mounts after the overview's figures, then asks for two pages: give a loaded machine time.
    const held = await screen.findByRole('list', { name: 'Held by a budget limit' }, { timeout: 5000 });
    const items = within(held).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Draft the pricing pageheld by its department’s budget · Ada Lovelace',
      'Summarise the interviewsheld by the monthly budget',
    ]);
    expect(within(held).getByRole('link', { name: 'Draft the pricing page' })).toHaveAttribute('href', '/tasks/h1');
    expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/tasks?status=blocked&offset=0&limit=100');
  });

  it('should read the limit out of a task’s status reason', () => {
    expect(heldLimit('budget_exhausted: agent_daily limit [4052] spent')).toBe('agent_daily');
    expect(heldLimit('budget_exhausted:')).toBe('spend');
    expect(heldLimit('cancelled by ceo')).toBeNull();
    expect(heldLimit(null)).toBeNull();
  });

  it('should refresh its figures on a live event', async () => {
    let pending = 1;
    const api = fakeApi({ ...routes(), 'GET /api/v1/approvals': () => page([], pending) });
    const { client } = renderPage(<Overview />);
    const approvals = await screen.findByRole('region', { name: 'Pending approvals' });
    expect(await within(approvals).findByText('1')).toBeInTheDocument();
    pending = 3;
    act(() =>
      applyEvent(client, {
        channel: 'approvals',
        event_type: 'approval.submitted',
        timestamp: new Date().toISOString(),
        payload: {},
      }),
    );
    expect(await within(approvals).findByText('3')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.route.startsWith('GET /api/v1/analytics/overview')).length).toBeGreaterThan(
      1,
    );
  });
});
