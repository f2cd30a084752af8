import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import type { Schemas } from '@app/client';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import AgentDetail, { formatDuration } from './AgentDetail';
import { agentFixture, BUDGET_CONFIG, page } from './fixtures';

const GRACE = agentFixture({ id: 'a-2', name: 'Grace Hopper', role: 'CTO', department: 'engineering' });
const ROUTE = '/agents/:agentName';

const AUTONOMY: Schemas['AgentAutonomy'] = {
  agent_id: 'a-2',
  agent_name: 'Grace Hopper',
  level: 'semi',
  source: 'company',
  agent_level: null,
  department_level: null,
  company_level: 'semi',
  downgrade: null,
  auto_approve: ['code:read', 'code:write'],
  human_approval: ['deploy:production'],
  security_agent: true,
};

const TRUST: Schemas['AgentTrust'] = {
  agent_id: 'a-2',
  agent_name: 'Grace Hopper',
  strategy: 'weighted',
  access_level: 'standard',
  trust_score: 0.72,
  pending_level: 'elevated',
  pending_approval_id: 'ap-1',
  last_changed_at: '2026-11-20T10:00:00.000Z',
  last_verified_at: '2026-11-20T10:00:00.000Z',
  evaluated_at: '2026-11-21T10:00:00.000Z',
  changes: [
    {
      from_level: 'restricted',
      to_level: 'standard',
      outcome: 'applied',
      reason: 'Steady record',
      actor: 'system',
      timestamp: '2026-11-20T10:00:00.000Z',
    },
  ],
};

const PERFORMANCE: Schemas['AgentPerformanceSummary'] = {
  agent_name: 'Grace Hopper',
  tasks_completed_total: 12,
  tasks_completed_7d: 3,
  tasks_completed_30d: 9,
  avg_completion_time_seconds: 95,
  cost_per_task: 0.42,
  success_rate_percent: 91.7,
  quality_score: 8.4,
  collaboration_score: 7,
  trend_direction: 'improving',
  windows: [
    { window_size: '7d', data_point_count: 3, tasks_completed: 3, tasks_failed: 0, success_rate: 1 },
    { window_size: '30d', data_point_count: 10, tasks_completed: 9, tasks_failed: 1, success_rate: 0.9 },
  ],
  trends: [
    { metric_name: 'quality_score', window_size: '30d', direction: 'improving', slope: 0.1, data_point_count: 10 },
  ],
};

function base(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/v1/agents/Grace%20Hopper': { data: GRACE },
    'GET /api/v1/budget/config': { data: BUDGET_CONFIG },
    'GET /api/v1/agents/Grace%20Hopper/performance': { data: PERFORMANCE },
    ...extra,
  });
}

const render = (path = '/agents/Grace%20Hopper', me = CEO) => renderPage(<AgentDetail />, { path, route: ROUTE, me });

describe('AgentDetail', () => {
  it('should announce that it is loading', () => {
    fakeApi({ 'GET /api/v1/agents/Grace%20Hopper': { pending: true }, 'GET /api/v1/budget/config': { pending: true } });
    render();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the agent');
  });

  it('should show the profile and the performance with its trend', async () => {
    base();
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    const profile = screen.getByRole('region', { name: 'Profile' });
    expect(within(profile).getByText('CTO')).toBeInTheDocument();
    expect(within(profile).getByText('Engineering')).toBeInTheDocument();
    expect(within(profile).getByText('C-suite')).toBeInTheDocument();
    expect(within(profile).getByText('mock-small (fake)')).toBeInTheDocument();
    expect(within(profile).getByText('Active')).toBeInTheDocument();
    expect(await screen.findByText('Overall trend:')).toBeInTheDocument();
    expect(screen.getAllByText('Improving')).toHaveLength(2);
    expect(screen.getByText('91.7%')).toBeInTheDocument();
    expect(screen.getByText('8.4 / 10')).toBeInTheDocument();
    expect(screen.getByText('Average time 1 min 35 s')).toBeInTheDocument();
    const windows = screen.getByRole('table', { name: 'Performance by window' });
    expect(within(windows).getByRole('row', { name: /Last 30 days 9 1 90%/ })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Trends of each metric' })).toHaveTextContent('Quality score');
  });

  it('should say what fills the performance of an agent without task runs', async () => {
    base({
      'GET /api/v1/agents/Grace%20Hopper/performance': {
        data: {
          ...PERFORMANCE,
          tasks_completed_total: 0,
          windows: [],
          trends: [],
          trend_direction: 'insufficient_data',
        },
      },
    });
    render();
    expect(await screen.findByRole('heading', { name: 'No task runs recorded yet' })).toBeInTheDocument();
  });

  it('should show a missing agent with the message and code', async () => {
    fakeApi({
      'GET /api/v1/agents/Nobody': { error: 'Agent "Nobody" not found', code: 3004, status: 404 },
      'GET /api/v1/budget/config': { data: BUDGET_CONFIG },
    });
    render('/agents/Nobody');
    expect(await screen.findByRole('heading', { level: 1, name: 'No such agent' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Agent "Nobody" not found');
    expect(screen.getByRole('alert')).toHaveTextContent('3004');
    expect(screen.getByRole('link', { name: 'All agents' })).toHaveAttribute('href', '/agents');
  });

  it('should page through the activity and link its tasks', async () => {
    const events = Array.from({ length: 20 }, (_, i) => ({
      event_type: 'task_completed' as const,
      timestamp: new Date(Date.now() - i * 60_000).toISOString(),
      description: `Completed task ${i}`,
      related_ids: { agent_id: 'a-2', task_id: `t-${i}` },
    }));
    const api = base({
      'GET /api/v1/agents/Grace%20Hopper/activity': (request) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        return page(offset === 0 ? events : [{ ...events[0], description: 'The oldest one' }], offset, 20, 21);
      },
    });
    render('/agents/Grace%20Hopper?tab=activity');
    expect(await screen.findByText('Completed task 0')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Open task' })[1]).toHaveAttribute('href', '/tasks/t-1');
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('The oldest one')).toBeInTheDocument();
    expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/agents/Grace%20Hopper/activity?offset=20&limit=20');
  });

  it('should say what fills an empty activity and career history', async () => {
    base({
      'GET /api/v1/agents/Grace%20Hopper/activity': page([], 0, 20),
      'GET /api/v1/agents/Grace%20Hopper/history': { data: [] },
    });
    render('/agents/Grace%20Hopper?tab=activity');
    expect(await screen.findByRole('heading', { name: 'No activity yet' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Career history' }));
    expect(await screen.findByRole('heading', { name: 'No career events yet' })).toBeInTheDocument();
  });

  it('should show the career history, oldest first', async () => {
    base({
      'GET /api/v1/agents/Grace%20Hopper/history': {
        data: [
          {
            event_type: 'hired',
            timestamp: '2026-11-01T09:00:00.000Z',
            description: 'Hired as CTO',
            initiated_by: 'setup',
            metadata: {},
          },
          {
            event_type: 'promoted',
            timestamp: '2026-11-10T09:00:00.000Z',
            description: 'Promoted',
            initiated_by: 'ceo',
            metadata: {},
          },
        ],
      },
    });
    render('/agents/Grace%20Hopper?tab=career');
    const list = await screen.findByRole('list', { name: 'Career events, oldest first' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual([expect.stringContaining('Hired as CTO'), expect.stringContaining('Promoted')]);
    expect(list).toHaveTextContent('by ceo');
  });

  it('should let the CEO set the agent’s autonomy, and show the trust', async () => {
    const api = base({
      'GET /api/v1/agents/Grace%20Hopper/autonomy': { data: AUTONOMY },
      'GET /api/v1/agents/Grace%20Hopper/trust': { data: TRUST },
      'PUT /api/v1/agents/Grace%20Hopper/autonomy': (_request, body) => ({
        data: {
          ...AUTONOMY,
          level: (body as { level: 'supervised' }).level,
          agent_level: 'supervised',
          source: 'agent',
        },
      }),
    });
    render('/agents/Grace%20Hopper?tab=autonomy');
    const autonomy = await screen.findByRole('region', { name: 'Autonomy' });
    expect(within(autonomy).getByText(/inherited from the company/)).toBeInTheDocument();
    const trust = await screen.findByRole('region', { name: 'Trust' });
    expect(within(trust).getByText('72 / 100')).toBeInTheDocument();
    expect(within(trust).getByText(/A promotion to Elevated access waits/)).toBeInTheDocument();
    expect(within(trust).getByRole('table')).toHaveTextContent('Restricted → Standard');

    await userEvent.click(within(autonomy).getByLabelText(/Autonomy level/));
    await userEvent.click(await screen.findByRole('option', { name: /^Supervised/, hidden: true }));
    await userEvent.type(within(autonomy).getByLabelText(/Reason/), 'New to the codebase');
    await userEvent.click(within(autonomy).getByRole('button', { name: 'Save autonomy' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'PUT /api/v1/agents/Grace%20Hopper/autonomy',
        body: { level: 'supervised', reason: 'New to the codebase' },
      }),
    );
    expect(await screen.findByText('Grace Hopper now works at Supervised autonomy')).toBeInTheDocument();
  });

  it('should show a refused autonomy change with its code', async () => {
    base({
      'GET /api/v1/agents/Grace%20Hopper/autonomy': { data: { ...AUTONOMY, agent_level: 'semi', source: 'agent' } },
      'GET /api/v1/agents/Grace%20Hopper/trust': { data: TRUST },
      'PUT /api/v1/agents/Grace%20Hopper/autonomy': { error: 'Not allowed here', code: 1001, status: 403 },
    });
    render('/agents/Grace%20Hopper?tab=autonomy');
    const autonomy = await screen.findByRole('region', { name: 'Autonomy' });
    await userEvent.click(within(autonomy).getByRole('button', { name: 'Save autonomy' }));
    const alert = await within(autonomy).findByRole('alert');
    expect(alert).toHaveTextContent('Your role does not allow this: Not allowed here');
    expect(alert).toHaveTextContent('1001');
  });

  it('should offer no autonomy controls to an Observer, nor to a manager of another department', async () => {
    base({
      'GET /api/v1/agents/Grace%20Hopper/autonomy': {
        data: {
          ...AUTONOMY,
          downgrade: {
            original_level: 'full',
            current_level: 'supervised',
            reason: 'high_error_rate',
            detail: '5 failures in a row',
            downgraded_at: '2026-11-20T10:00:00.000Z',
            requires_human_recovery: true,
          },
        },
      },
      'GET /api/v1/agents/Grace%20Hopper/trust': { data: { ...TRUST, changes: [], pending_level: null } },
    });
    const { unmount } = render('/agents/Grace%20Hopper?tab=autonomy', OBSERVER);
    const autonomy = await screen.findByRole('region', { name: 'Autonomy' });
    expect(within(autonomy).getByText(/Lowered from Full to Supervised/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save autonomy' })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No trust changes yet' })).toBeInTheDocument();
    unmount();

    render('/agents/Grace%20Hopper?tab=autonomy', { ...CEO, role: 'manager', department: 'product' });
    await screen.findByRole('region', { name: 'Autonomy' });
    expect(screen.queryByRole('button', { name: 'Save autonomy' })).not.toBeInTheDocument();
  });

  it('should offer a manager the autonomy of their own department’s agents', async () => {
    base({
      'GET /api/v1/agents/Grace%20Hopper/autonomy': { data: AUTONOMY },
      'GET /api/v1/agents/Grace%20Hopper/trust': { data: TRUST },
    });
    render('/agents/Grace%20Hopper?tab=autonomy', { ...CEO, role: 'manager', department: 'engineering' });
    expect(await screen.findByRole('button', { name: 'Save autonomy' })).toBeInTheDocument();
  });

  it('should show the agent’s spend, limits and model calls', async () => {
    const api = base({
      'GET /api/v1/budget/agents/a-2': { data: { agent_id: 'a-2', total_cost_usd: 3.5, currency: 'EUR' } },
      'GET /api/v1/budget/records': page(
        [
          {
            agent_id: 'a-2',
            task_id: 'task-0123456789abcdef',
            provider: 'fake',
            model: 'mock-small',
            input_tokens: 1200,
            output_tokens: 300,
            total_tokens: 1500,
            cost_usd: 0.25,
            timestamp: '2026-11-20T10:00:00.000Z',
            call_category: 'productive',
          },
        ],
        0,
        10,
      ),
    });
    render('/agents/Grace%20Hopper?tab=spend');
    expect(await screen.findByText('€3.50')).toBeInTheDocument();
    expect(screen.getByText('€10.00')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Model calls and their cost, newest first' });
    expect(within(table).getByRole('link', { name: 'task-01234567…' })).toHaveAttribute(
      'href',
      '/tasks/task-0123456789abcdef',
    );
    expect(table).toHaveTextContent('1,500');
    expect(table).toHaveTextContent('€0.25');
    expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/budget/records?agent_id=a-2&offset=0&limit=10');
  });

  it('should survive spend a role may not see (figures left out or null)', async () => {
    base({
      'GET /api/v1/budget/agents/a-2': { data: { agent_id: 'a-2', total_cost_usd: null, currency: 'EUR' } },
      'GET /api/v1/budget/records': page(
        [
          {
            agent_id: 'a-2',
            task_id: null,
            provider: 'fake',
            model: 'mock-small',
            input_tokens: 10,
            output_tokens: 5,
            total_tokens: 15,
            cost_usd: null,
            timestamp: '2026-11-20T10:00:00.000Z',
            call_category: 'system',
          } as unknown as Schemas['CostRecord'],
        ],
        0,
        10,
      ),
    });
    render('/agents/Grace%20Hopper?tab=spend', OBSERVER);
    const table = await screen.findByRole('table', { name: 'Model calls and their cost, newest first' });
    expect(within(table).getAllByText('—').length).toBeGreaterThan(0);
    expect(screen.getByText('Spent in total')).toBeInTheDocument();
  });

  it('should say what fills an agent’s spend when it has none', async () => {
    base({
      'GET /api/v1/budget/agents/a-2': { data: { agent_id: 'a-2', total_cost_usd: 0, currency: 'EUR' } },
      'GET /api/v1/budget/records': page([], 0, 10),
    });
    render('/agents/Grace%20Hopper?tab=spend');
    expect(await screen.findByRole('heading', { name: 'No spend recorded yet' })).toBeInTheDocument();
  });
});

describe('formatDuration', () => {
  it('should read as seconds, minutes or hours', () => {
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(95)).toBe('1 min 35 s');
    expect(formatDuration(7260)).toBe('2 h 1 min');
    expect(formatDuration(null)).toBe('—');
  });
});
