import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import type { Schemas } from '@app/client';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import AgentDetail from './AgentDetail';
import { decisionText } from './AgentWorkforce';
import { agentFixture, BUDGET_CONFIG } from './fixtures';

const ROUTE = '/agents/:agentName';
const PERFORMANCE = {
  agent_name: 'Mara Quint',
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
const EVALUATION: Schemas['LevelEvaluation'] = {
  agent_name: 'Mara Quint',
  approval_id: null,
  criteria: [
    { name: 'quality_score', direction: 'promotion', comparison: '>=', threshold: 8, value: 8.5, met: true },
    { name: 'tasks_completed', direction: 'promotion', comparison: '>=', threshold: 10, value: 12, met: true },
    { name: 'success_rate', direction: 'demotion', comparison: '<', threshold: 50, value: null, met: false },
  ],
  decision: 'promoted',
  demotion_criteria_met: 0,
  evaluated_at: '2026-11-28T10:00:00.000Z',
  level: 'mid',
  min_criteria_met: 2,
  promotion_criteria_met: 2,
  reason: 'Two promotion criteria met',
  to_level: 'senior',
};

function base(agent: Schemas['AgentConfig'], extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/v1/agents/Mara%20Quint': { data: agent },
    'GET /api/v1/budget/config': { data: BUDGET_CONFIG },
    'GET /api/v1/agents/Mara%20Quint/performance': { data: PERFORMANCE },
    'GET /api/v1/agents/Mara%20Quint/history': { data: [] },
    ...extra,
  });
}

const MARA = agentFixture({
  id: 'a-9',
  name: 'Mara Quint',
  role: 'Developer',
  department: 'engineering',
  level: 'mid',
});
const render = (me = CEO, tab = 'career') =>
  renderPage(<AgentDetail />, { path: `/agents/Mara%20Quint?tab=${tab}`, route: ROUTE, me });

describe('An agent’s level and onboarding', () => {
  it('should state each decision', () => {
    expect(decisionText(EVALUATION)).toBe('Promoted to Senior.');
    expect(decisionText({ ...EVALUATION, decision: 'no_change', to_level: null })).toBe('Stays Mid-level.');
    expect(decisionText({ ...EVALUATION, decision: 'pending_approval' })).toContain('waits for a person');
  });

  it('should evaluate the level and show the criteria and the decision', async () => {
    const api = base(MARA, { 'POST /api/v1/agents/Mara%20Quint/evaluate-level': { data: EVALUATION } });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Evaluate level' }));
    expect(await screen.findByRole('status', { name: 'Decision' })).toHaveTextContent('Promoted to Senior.');
    const table = screen.getByRole('table', { name: 'Criteria of the evaluation' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(table).toHaveTextContent('no data');
    expect(api.calls.filter((c) => c.route === 'POST /api/v1/agents/Mara%20Quint/evaluate-level')).toHaveLength(1);
  });

  it('should link a move that waits for an approval to the queue', async () => {
    base(MARA, {
      'POST /api/v1/agents/Mara%20Quint/evaluate-level': {
        data: { ...EVALUATION, decision: 'pending_approval', approval_id: 'ap-1' },
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Evaluate level' }));
    expect(await screen.findByRole('link', { name: 'approvals queue' })).toHaveAttribute('href', '/approvals');
  });

  it('should show a refused evaluation with its code', async () => {
    base(MARA, {
      'POST /api/v1/agents/Mara%20Quint/evaluate-level': { error: 'Not your department', code: 1980, status: 403 },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Evaluate level' }));
    expect(await screen.findByText('Error code 1980')).toBeInTheDocument();
  });

  it('should offer an observer no evaluation', async () => {
    base(MARA);
    render(OBSERVER);
    await screen.findByRole('heading', { name: 'No career events yet' });
    expect(screen.queryByRole('button', { name: 'Evaluate level' })).not.toBeInTheDocument();
  });

  it('should show the onboarding checklist of an onboarding agent', async () => {
    base(
      { ...MARA, status: 'onboarding' },
      {
        'GET /api/v1/agents/Mara%20Quint/onboarding': {
          data: {
            agent_id: 'a-9',
            agent_name: 'Mara Quint',
            hiring_request_id: 'h-1',
            started_at: '2026-11-28T10:00:00.000Z',
            completed_at: null,
            steps: [
              {
                name: 'company_context',
                state: 'done',
                attempts: 1,
                completed_at: '2026-11-28T10:01:00.000Z',
                reason: null,
                summary: 'Read the company’s charter',
                task_id: 't-1',
              },
              {
                name: 'project_briefing',
                state: 'running',
                attempts: 1,
                completed_at: null,
                reason: null,
                summary: null,
                task_id: 't-2',
              },
            ],
          },
        },
      },
    );
    render(CEO, 'performance');
    const steps = await screen.findByRole('list', { name: 'Onboarding steps' });
    expect(within(steps).getAllByRole('listitem')).toHaveLength(2);
    expect(steps).toHaveTextContent('Read the company’s charter');
    expect(within(steps).getByRole('link', { name: 'The task of Project briefing' })).toHaveAttribute(
      'href',
      '/tasks/t-2',
    );
  });
});
