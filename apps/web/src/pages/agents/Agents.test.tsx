import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, renderPage } from '../../test/render';
import Agents from './Agents';
import { agentFixture, page, STARTUP_AGENTS, STARTUP_DEPARTMENTS } from './fixtures';

describe('Agents', () => {
  it('should announce that it is loading', () => {
    fakeApi({ 'GET /api/v1/agents': { pending: true }, 'GET /api/v1/company/departments': { pending: true } });
    renderPage(<Agents />, { path: '/agents' });
    expect(screen.getByRole('heading', { level: 1, name: 'Agents' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the org chart');
  });

  it('should show the agents grouped by department along the reporting lines', async () => {
    fakeApi({
      'GET /api/v1/agents': page(STARTUP_AGENTS, 0, 200),
      'GET /api/v1/company/departments': { data: STARTUP_DEPARTMENTS },
    });
    renderPage(<Agents />, { path: '/agents' });
    const engineering = await screen.findByRole('region', { name: 'Engineering' });
    expect(within(engineering).getByText(/3 agents · Head: CTO · 60% of the budget/)).toBeInTheDocument();
    const team = within(engineering).getByRole('list', { name: 'Reports to Grace Hopper' });
    expect(
      within(team)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Linus Torvalds', 'Ken Thompson']);
    expect(within(engineering).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/agents/Grace%20Hopper',
    );
    expect(within(engineering).getByText(/reports to/)).toHaveTextContent('reports to Ada Lovelace (Executive)');
    expect(screen.getByRole('region', { name: 'Executive' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Product' })).getByText('Barbara Liskov')).toBeInTheDocument();
    expect(screen.getByText('5 agents in 3 departments, by department and reporting line')).toBeInTheDocument();
  });

  it('should fold and unfold a department with its button', async () => {
    fakeApi({
      'GET /api/v1/agents': page(STARTUP_AGENTS, 0, 200),
      'GET /api/v1/company/departments': { data: STARTUP_DEPARTMENTS },
    });
    renderPage(<Agents />, { path: '/agents' });
    const toggle = await screen.findByRole('button', { name: 'Hide Engineering agents' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Show Engineering agents' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: 'Linus Torvalds' })).not.toBeInTheDocument();
  });

  it('should fetch the whole roster page by page for the chart', async () => {
    const many = Array.from({ length: 250 }, (_, i) =>
      agentFixture({ id: `a-${i}`, name: `Agent ${i}`, role: 'Dev', department: 'engineering' }),
    );
    const api = fakeApi({
      'GET /api/v1/agents': (request) => {
        const url = new URL(request.url);
        const offset = Number(url.searchParams.get('offset'));
        return page(many.slice(offset, offset + 200), offset, 200, many.length);
      },
      'GET /api/v1/company/departments': { data: [] },
    });
    renderPage(<Agents />, { path: '/agents' });
    // More than 200 agents: the departments start folded.
    await userEvent.click(await screen.findByRole('button', { name: 'Show Engineering agents' }));
    expect(screen.getByRole('link', { name: 'Agent 249' })).toBeInTheDocument();
    expect(api.calls.map((c) => c.route)).toEqual(
      expect.arrayContaining(['GET /api/v1/agents?offset=0&limit=200', 'GET /api/v1/agents?offset=200&limit=200']),
    );
  });

  it('should say what fills an empty company', async () => {
    fakeApi({ 'GET /api/v1/agents': page([], 0, 200), 'GET /api/v1/company/departments': { data: [] } });
    renderPage(<Agents />, { path: '/agents' });
    expect(await screen.findByRole('heading', { name: 'No agents yet' })).toBeInTheDocument();
    expect(screen.getByText(/Agents join when the company is created from a template/)).toBeInTheDocument();
  });

  it('should show the message and code of a failed load', async () => {
    fakeApi({
      'GET /api/v1/agents': { error: 'The roster is unavailable', code: 5001, status: 503 },
      'GET /api/v1/company/departments': { data: [] },
    });
    renderPage(<Agents />, { path: '/agents' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The roster is unavailable');
    expect(alert).toHaveTextContent('5001');
  });

  it('should still chart the agents when the departments fail', async () => {
    fakeApi({
      'GET /api/v1/agents': page(STARTUP_AGENTS, 0, 200),
      'GET /api/v1/company/departments': { error: 'No company', code: 3001, status: 404 },
    });
    renderPage(<Agents />, { path: '/agents' });
    expect(await screen.findByRole('region', { name: 'Engineering' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('3001');
  });

  it('should list every agent in pages in the list view', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      agentFixture({ id: `a-${i}`, name: `Agent ${i}`, role: 'Dev', department: 'engineering' }),
    );
    const api = fakeApi({
      'GET /api/v1/agents': (request) => {
        const url = new URL(request.url);
        const offset = Number(url.searchParams.get('offset'));
        const limit = Number(url.searchParams.get('limit'));
        return page(many.slice(offset, offset + limit), offset, limit, many.length);
      },
      'GET /api/v1/company/departments': { data: [] },
    });
    renderPage(<Agents />, { path: '/agents?view=list' });
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(51);
    expect(screen.getByText('1–50 of 120')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByRole('link', { name: 'Agent 119' })).toBeInTheDocument();
    expect(screen.getByText('101–120 of 120')).toBeInTheDocument();
    await waitFor(() => expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/agents?offset=100&limit=50'));
    // The list view does not fetch the whole roster.
    expect(api.calls.map((c) => c.route)).not.toContain('GET /api/v1/agents?offset=0&limit=200');
  });
});
