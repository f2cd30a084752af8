import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, OBSERVER, renderPage } from '../../test/render';
import Reports from './Reports';

const SUMMARY = {
  id: 'r-1',
  period: 'weekly',
  template: 'comprehensive',
  start: '2026-01-01T00:00:00Z',
  end: '2026-01-08T00:00:00Z',
  generated_at: '2026-01-08T01:00:00Z',
  generated_by: 'ceo',
  trigger: 'manual',
  has_performance: true,
  has_risk_trends: false,
  has_spending: true,
  has_task_completion: true,
};
const REPORT = {
  ...SUMMARY,
  content: {
    spending: {
      total_cost_usd: 12.5,
      currency: 'USD',
      record_count: 40,
      total_input_tokens: 1000,
      total_output_tokens: 500,
      previous_period_cost_usd: 10,
      change_percent: 25,
      daily: [],
    },
    task_completion: { completed: 8, failed: 2, runs: 10, completion_rate: 0.8, by_department: [] },
    performance: {
      agents: [
        {
          agent_id: 'a-1',
          agent_name: 'Ada',
          department: 'executive',
          tasks_completed: 8,
          tasks_failed: 2,
          success_rate: 0.8,
          avg_duration_seconds: 60,
          avg_quality_score: null,
          total_cost_usd: 12.5,
        },
      ],
    },
  },
};

describe('Reports', () => {
  it('should show loading, an error with its code, and the empty list', async () => {
    fakeApi({ 'GET /api/v1/reports': { error: 'Down', code: 5003, status: 503 } });
    const first = renderPage(<Reports />, { path: '/reports' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the reports');
    expect(await screen.findByRole('alert', { name: 'The reports could not be loaded' })).toHaveTextContent('5003');
    first.unmount();
    fakeApi({ 'GET /api/v1/reports': { data: [], pagination: { total: 0, offset: 0, limit: 20 } } });
    renderPage(<Reports />, { me: OBSERVER, path: '/reports' });
    expect(await screen.findByRole('heading', { name: 'No reports yet' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate' })).not.toBeInTheDocument();
  });

  it('should generate a report for a period and template, then read it', async () => {
    let list: unknown[] = [];
    const api = fakeApi({
      'GET /api/v1/reports': () => ({ data: list, pagination: { total: list.length, offset: 0, limit: 20 } }),
      'POST /api/v1/reports/generate': () => {
        list = [SUMMARY];
        return { data: REPORT, status: 201 };
      },
      'GET /api/v1/reports/r-1': { data: REPORT },
    });
    renderPage(<Reports />, { path: '/reports' });
    await screen.findByRole('heading', { name: 'No reports yet' });
    await userEvent.selectOptions(screen.getByLabelText('Period'), 'monthly');
    await userEvent.selectOptions(screen.getByLabelText('Template'), 'spending_summary');
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.route === 'POST /api/v1/reports/generate')?.body).toEqual({
        period: 'monthly',
        template: 'spending_summary',
      }),
    );
    const report = await screen.findByRole('region', { name: 'Comprehensive, weekly' });
    expect(report).toHaveTextContent('$12.50 over 40 calls');
    expect(report).toHaveTextContent('8 completed and 2 failed of 10 runs (80.0%)');
    expect(within(report).getByRole('table', { name: 'Performance by agent' })).toHaveTextContent('Ada');
    expect(await screen.findByRole('table', { name: 'Reports' })).toBeInTheDocument();
  });
});
