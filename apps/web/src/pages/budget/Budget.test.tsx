import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import type { Schemas } from '@app/client';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import { BUDGET_CONFIG, page } from '../agents/fixtures';
import Budget from './Budget';
import { FIELDS, settingText } from './BudgetConfigPanel';

const SUMMARY: Schemas['SpendingSummary'] = {
  period: {
    start: '2026-11-01T00:00:00.000Z',
    end: '2026-12-01T00:00:00.000Z',
    totals: { total_cost_usd: 80, total_input_tokens: 100_000, total_output_tokens: 20_000, record_count: 40 },
  },
  by_agent: [
    { agent_id: 'a-2', agent_name: 'Grace Hopper', total_cost_usd: 60, record_count: 30 },
    { agent_id: 'a-9', agent_name: null, total_cost_usd: 20, record_count: 10 },
  ],
  by_department: [
    { department: 'engineering', total_cost_usd: 60, record_count: 30 },
    { department: 'unassigned', total_cost_usd: 20, record_count: 10 },
  ],
  budget_total_monthly: 100,
  budget_used_percent: 80,
  alert_level: 'warning',
  currency: 'EUR',
  forecast: { avg_daily_spend_usd: 2.9, projected_period_total_usd: 87, days_until_exhausted: 7 },
};

const FORECAST: Schemas['ForecastResponse'] = {
  horizon_days: 14,
  projected_total_usd: 42,
  daily_projections: Array.from({ length: 14 }, (_, i) => ({
    day: `2026-11-${String(i + 10).padStart(2, '0')}`,
    projected_spend_usd: 3 * (i + 1),
  })),
  days_until_exhausted: 7,
  confidence: 0.8,
  avg_daily_spend_usd: 3,
  currency: 'EUR',
};

const RECORD: Schemas['CostRecord'] = {
  agent_id: 'a-2',
  task_id: 't-1',
  provider: 'fake',
  model: 'mock-small',
  input_tokens: 1000,
  output_tokens: 500,
  total_tokens: 1500,
  cost_usd: 2,
  timestamp: '2026-11-20T10:00:00.000Z',
  call_category: 'productive',
};

function routes(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/v1/budget/config': { data: BUDGET_CONFIG },
    'GET /api/v1/budget': { data: SUMMARY },
    'GET /api/v1/analytics/forecast': { data: FORECAST },
    'GET /api/v1/budget/records': page([RECORD], 0, 20, 1),
    ...extra,
  });
}

const EMPTY_SUMMARY: Schemas['SpendingSummary'] = {
  ...SUMMARY,
  period: {
    ...SUMMARY.period,
    totals: { total_cost_usd: 0, total_input_tokens: 0, total_output_tokens: 0, record_count: 0 },
  },
  by_agent: [],
  by_department: [],
  budget_total_monthly: 0,
  budget_used_percent: 0,
  alert_level: 'normal',
  forecast: { avg_daily_spend_usd: 0, projected_period_total_usd: 0, days_until_exhausted: null },
};

describe('Budget', () => {
  it('should announce that it is loading', () => {
    fakeApi({
      'GET /api/v1/budget/config': { pending: true },
      'GET /api/v1/budget': { pending: true },
      'GET /api/v1/analytics/forecast': { pending: true },
      'GET /api/v1/budget/records': { pending: true },
    });
    renderPage(<Budget />, { path: '/budget' });
    expect(screen.getByRole('heading', { level: 1, name: 'Budget' })).toBeInTheDocument();
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Loading the spending summary'),
        expect.stringContaining('Loading the forecast'),
      ]),
    );
  });

  it('should show the standing, the alert, the forecast, the breakdown and the records in the company’s currency', async () => {
    routes();
    renderPage(<Budget />, { path: '/budget' });
    const alert = await screen.findByText(/80% of the monthly budget is used this period/);
    expect(alert).toHaveTextContent('this alert starts at 75%');
    expect(screen.getByText('Budget warning')).toBeInTheDocument();
    expect(screen.getByText('€80.00')).toBeInTheDocument();
    expect(screen.getByText('€20.00 left')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Budget used: 80%' })).toBeInTheDocument();

    const forecast = screen.getByRole('region', { name: 'Forecast' });
    expect(await within(forecast).findByText(/^in 7 days/)).toBeInTheDocument();
    expect(within(forecast).getByText(/At €3.00 a day, €42.00 over the next 14 days/)).toBeInTheDocument();
    expect(within(forecast).getByText('80%')).toBeInTheDocument();

    const byDepartment = screen.getByRole('table', { name: 'By department' });
    expect(within(byDepartment).getByRole('row', { name: /Engineering €60.00 75% 30/ })).toBeInTheDocument();
    const byAgent = screen.getByRole('table', { name: 'By agent' });
    expect(within(byAgent).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/agents/Grace%20Hopper',
    );
    expect(byAgent).toHaveTextContent('a-9');

    const records = await screen.findByRole('table', { name: 'Model calls and their cost, newest first' });
    expect(within(records).getByRole('link', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(records).toHaveTextContent('€2.00');

    const config = screen.getByRole('region', { name: 'Configuration' });
    expect(within(config).getByText('€100.00')).toBeInTheDocument();
    expect(within(config).getByText('warning 75%, critical 90%, stop 100%')).toBeInTheDocument();
  });

  it('should ask the forecast for another horizon', async () => {
    const api = routes();
    renderPage(<Budget />, { path: '/budget' });
    const forecast = await screen.findByRole('region', { name: 'Forecast' });
    await userEvent.click(within(forecast).getByLabelText('Horizon'));
    await userEvent.click(await screen.findByRole('option', { name: '30 days', hidden: true }));
    await waitFor(() =>
      expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/analytics/forecast?horizon_days=30'),
    );
  });

  it('should say what fills an empty company: no budget, no spend, no records', async () => {
    routes({
      'GET /api/v1/budget/config': { data: { ...BUDGET_CONFIG, total_monthly: 0 } },
      'GET /api/v1/budget': { data: EMPTY_SUMMARY },
      'GET /api/v1/analytics/forecast': {
        data: {
          ...FORECAST,
          projected_total_usd: 0,
          avg_daily_spend_usd: 0,
          days_until_exhausted: null,
          confidence: 0,
          daily_projections: [],
        },
      },
      'GET /api/v1/budget/records': page([], 0, 20, 0),
    });
    renderPage(<Budget />, { path: '/budget' });
    expect(await screen.findByRole('heading', { name: 'No spend this period' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No spend recorded yet' })).toBeInTheDocument();
    expect(screen.getAllByText('Not set').length).toBeGreaterThan(0);
    expect(await screen.findByText(/No spend in the last 14 days, so nothing is projected yet/)).toBeInTheDocument();
    expect(screen.getByText('No budget set')).toBeInTheDocument();
    expect(screen.queryByText('Budget warning')).not.toBeInTheDocument();
  });

  it('should show failed loads with their messages and codes', async () => {
    routes({
      'GET /api/v1/budget': { error: 'Spending is unavailable', code: 5002, status: 503 },
      'GET /api/v1/analytics/forecast': { error: 'Forecast refused', code: 2001, status: 400 },
    });
    renderPage(<Budget />, { path: '/budget' });
    const alerts = await screen.findAllByRole('alert');
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    expect(alerts[0]).toHaveTextContent('Spending is unavailable');
    expect(
      screen
        .getAllByRole('alert')
        .map((a) => a.textContent)
        .join(' '),
    ).toMatch(/5002.*Forecast refused.*2001|Forecast refused.*2001.*5002/);
    // The configuration still shows.
    expect(await screen.findByRole('region', { name: 'Configuration' })).toBeInTheDocument();
  });

  it('should survive figures a role may not see (left out or null)', async () => {
    routes({
      'GET /api/v1/budget': {
        data: {
          ...SUMMARY,
          period: { start: SUMMARY.period.start, end: SUMMARY.period.end },
          by_agent: [{ agent_id: 'a-2', agent_name: 'Grace Hopper', total_cost_usd: null, record_count: 3 }],
          by_department: undefined,
          budget_used_percent: null,
          forecast: undefined,
        },
      },
      'GET /api/v1/analytics/forecast': {
        data: { ...FORECAST, projected_total_usd: null, avg_daily_spend_usd: null, daily_projections: [] },
      },
      'GET /api/v1/budget/records': page([{ ...RECORD, cost_usd: null }], 0, 20, 1),
    });
    renderPage(<Budget />, { me: OBSERVER, path: '/budget' });
    expect(await screen.findByText('Not shown for your role')).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Model calls and their cost, newest first' })).toHaveTextContent(
      '—',
    );
    expect(screen.getByRole('table', { name: 'By agent' })).toHaveTextContent('—');
  });

  it('should offer an Observer no edit control', async () => {
    routes();
    renderPage(<Budget />, { me: OBSERVER, path: '/budget' });
    await screen.findByRole('region', { name: 'Configuration' });
    expect(screen.queryByRole('button', { name: 'Edit configuration' })).not.toBeInTheDocument();
  });

  it('should save the changed settings one by one as the CEO', async () => {
    const api = routes({
      'PUT /api/v1/settings/budget/total_monthly': (_request, body) => ({
        data: { value: (body as { value: string }).value },
      }),
      'PUT /api/v1/settings/budget/auto_downgrade_enabled': (_request, body) => ({
        data: { value: (body as { value: string }).value },
      }),
    });
    renderPage(<Budget />, { me: CEO, path: '/budget' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit configuration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit budget configuration' });
    const monthly = within(dialog).getByLabelText(/^Monthly budget/);
    await userEvent.clear(monthly);
    await userEvent.type(monthly, '250');
    await userEvent.click(within(dialog).getByLabelText('Switch to cheaper models near the limit'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save configuration' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.route.startsWith('PUT'))).toEqual([
        { route: 'PUT /api/v1/settings/budget/total_monthly', body: { value: '250' } },
        { route: 'PUT /api/v1/settings/budget/auto_downgrade_enabled', body: { value: 'true' } },
      ]),
    );
    expect(await screen.findByText('2 budget settings saved')).toBeInTheDocument();
  });

  it('should show a refused setting at its field with the code, and check the alert order first', async () => {
    const api = routes({
      'PUT /api/v1/settings/budget/reset_day': { error: 'reset_day: must be at most 28', code: 2001, status: 400 },
    });
    renderPage(<Budget />, { me: CEO, path: '/budget' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit configuration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit budget configuration' });

    const warn = within(dialog).getByLabelText(/^Warning at/);
    await userEvent.clear(warn);
    await userEvent.type(warn, '95');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save configuration' }));
    expect(
      await within(dialog).findByText('The warning must come at or before the critical alert'),
    ).toBeInTheDocument();
    expect(api.calls.filter((c) => c.route.startsWith('PUT'))).toEqual([]);

    await userEvent.clear(warn);
    await userEvent.type(warn, '75');
    const day = within(dialog).getByLabelText(/^Reset day of the month/);
    await userEvent.clear(day);
    await userEvent.type(day, '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save configuration' }));
    expect(await within(dialog).findByText('reset_day: must be at most 28 (code 2001)')).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('2001');
  });
});

describe('settingText', () => {
  it('should write each kind of setting as the API stores it', () => {
    const field = (key: string) => FIELDS.find((f) => f.key === key)!;
    expect(settingText(field('total_monthly'), 12.5)).toBe('12.5');
    expect(settingText(field('alert_warn_at'), 70.4)).toBe('70');
    expect(settingText(field('auto_downgrade_enabled'), false)).toBe('false');
    expect(settingText(field('currency'), ' usd ')).toBe('USD');
  });
});
