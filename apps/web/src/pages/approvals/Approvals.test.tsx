import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { applyEvent } from '../../app/live';
import { type Answer, fakeApi, OBSERVER, renderPage } from '../../test/render';
import Approvals from './Approvals';
import type { Approval } from './queries';

const NOW = Date.now();
const inMinutes = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

function approval(overrides: Partial<Approval>): Approval {
  return {
    id: 'a1',
    action_type: 'deploy:staging',
    title: 'Deploy the billing service to staging',
    description: 'The release candidate passed its checks.',
    requested_by: 'ceo',
    risk_level: 'medium',
    status: 'pending',
    task_id: null,
    metadata: {},
    decided_by: null,
    decision_reason: null,
    created_at: inMinutes(-30),
    decided_at: null,
    expires_at: inMinutes(24 * 60),
    seconds_remaining: 24 * 3600,
    urgency_level: 'normal',
    ...overrides,
  };
}

const ESCALATED = approval({
  id: 'a2',
  title: 'backend-dev asks to run write_file',
  description: 'writes outside the workspace\n\narguments: {"path":"deploy/prod.env","content":"KEY=1"}',
  requested_by: 'agent-uuid-1',
  risk_level: 'high',
  action_type: 'code:write',
  task_id: 't1',
  metadata: { tool_name: 'write_file', agent_name: 'backend-dev', ticket: 'OPS-12' },
  expires_at: inMinutes(20),
  seconds_remaining: 1200,
  urgency_level: 'critical',
});

/** The list route answering from `items` by status, offset and limit, as the API pages them. */
function listOf(items: Approval[]) {
  return (request: Request): Answer => {
    const query = new URL(request.url).searchParams;
    const matching = items.filter(
      (item) =>
        (!query.get('status') || item.status === query.get('status')) &&
        (!query.get('risk_level') || item.risk_level === query.get('risk_level')),
    );
    const offset = Number(query.get('offset') ?? 0);
    const limit = Number(query.get('limit') ?? 50);
    return {
      data: matching.slice(offset, offset + limit),
      pagination: { total: matching.length, offset, limit },
    };
  };
}

const TASK = { data: { id: 't1', title: 'Rotate the production keys' } };

describe('Approvals', () => {
  it('should announce the loading queue', () => {
    fakeApi({ 'GET /api/v1/approvals': { pending: true } });
    renderPage(<Approvals />, { path: '/approvals' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading approvals');
  });

  it('should say what fills an empty queue', async () => {
    fakeApi({ 'GET /api/v1/approvals': listOf([]) });
    renderPage(<Approvals />, { path: '/approvals' });
    expect(await screen.findByText('Nothing waits for a decision')).toBeInTheDocument();
    expect(screen.getByText(/When an agent wants to take an action/)).toBeInTheDocument();
  });

  it('should show the message and code of a failed load', async () => {
    fakeApi({ 'GET /api/v1/approvals': { error: 'Invalid status filter', code: 2001, status: 400 } });
    renderPage(<Approvals />, { path: '/approvals' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid status filter');
    expect(alert).toHaveTextContent('2001');
  });

  it('should list pending items most urgent first, with the exact call, its task, risk and time left', async () => {
    fakeApi({
      'GET /api/v1/approvals': listOf([approval({}), ESCALATED]),
      'GET /api/v1/tasks/t1': TASK,
    });
    renderPage(<Approvals />, { path: '/approvals' });
    const items = await screen.findAllByRole('article');
    // Each item is named by its heading.
    expect(
      items.map((item) => document.getElementById(item.getAttribute('aria-labelledby') ?? '')?.textContent),
    ).toEqual(['backend-dev asks to run write_file', 'Deploy the billing service to staging']);
    const urgent = screen.getByRole('article', { name: 'backend-dev asks to run write_file' });
    expect(urgent).toHaveTextContent('Urgent: expires in 20 minutes');
    expect(urgent).toHaveTextContent('High risk');
    expect(urgent).toHaveTextContent('code:write');
    expect(urgent).toHaveTextContent('Wants to run write_file with these arguments');
    expect(urgent).toHaveTextContent('"path": "deploy/prod.env"');
    expect(urgent).toHaveTextContent('writes outside the workspace');
    expect(urgent).toHaveTextContent('backend-dev');
    expect(urgent).toHaveTextContent('OPS-12');
    expect(await within(urgent).findByRole('link', { name: 'Rotate the production keys' })).toHaveAttribute(
      'href',
      '/tasks/t1',
    );
    const calm = screen.getByRole('article', { name: 'Deploy the billing service to staging' });
    expect(calm).toHaveTextContent(/Expires in 2[34] hours/);
    expect(within(calm).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(calm).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Pending/ })).toHaveTextContent('2');
  });

  it('should approve with an optional comment', async () => {
    const api = fakeApi({
      'GET /api/v1/approvals': listOf([approval({})]),
      'POST /api/v1/approvals/a1/approve': () => ({ data: approval({ status: 'approved', decided_by: 'ceo' }) }),
    });
    renderPage(<Approvals />, { path: '/approvals' });
    const item = await screen.findByRole('article', { name: 'Deploy the billing service to staging' });
    await userEvent.click(within(item).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Comment'), 'Go ahead');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({ route: 'POST /api/v1/approvals/a1/approve', body: { comment: 'Go ahead' } }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/Approved: Deploy the billing service/)).toBeInTheDocument();
  });

  it('should approve without a comment with an empty body', async () => {
    const api = fakeApi({
      'GET /api/v1/approvals': listOf([approval({})]),
      'POST /api/v1/approvals/a1/approve': () => ({ data: approval({ status: 'approved' }) }),
    });
    renderPage(<Approvals />, { path: '/approvals' });
    const item = await screen.findByRole('article', { name: 'Deploy the billing service to staging' });
    await userEvent.click(within(item).getByRole('button', { name: 'Approve' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.calls).toContainEqual({ route: 'POST /api/v1/approvals/a1/approve', body: {} }));
  });

  it('should require a reason to reject, then send it', async () => {
    const api = fakeApi({
      'GET /api/v1/approvals': listOf([approval({})]),
      'POST /api/v1/approvals/a1/reject': () => ({ data: approval({ status: 'rejected' }) }),
    });
    renderPage(<Approvals />, { path: '/approvals' });
    const item = await screen.findByRole('article', { name: 'Deploy the billing service to staging' });
    await userEvent.click(within(item).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Give a reason for the rejection')).toBeInTheDocument();
    expect(api.calls.some((call) => call.route.startsWith('POST'))).toBe(false);
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Not before the freeze ends');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/approvals/a1/reject',
        body: { reason: 'Not before the freeze ends' },
      }),
    );
  });

  it('should show a refused decision in the dialog with its code', async () => {
    fakeApi({
      'GET /api/v1/approvals': listOf([approval({})]),
      'POST /api/v1/approvals/a1/approve': { error: 'Approval item "a1" was already decided', code: 4006, status: 409 },
    });
    renderPage(<Approvals />, { path: '/approvals' });
    const item = await screen.findByRole('article', { name: 'Deploy the billing service to staging' });
    await userEvent.click(within(item).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('already decided');
    expect(alert).toHaveTextContent('4006');
  });

  it('should show an Observer the items read-only', async () => {
    fakeApi({ 'GET /api/v1/approvals': listOf([approval({})]) });
    renderPage(<Approvals />, { path: '/approvals', me: OBSERVER });
    const item = await screen.findByRole('article', { name: 'Deploy the billing service to staging' });
    expect(within(item).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText(/Deciding them takes the CEO, Manager or Board member role/)).toBeInTheDocument();
  });

  it('should show the history newest first, with who decided and why', async () => {
    const api = fakeApi({
      'GET /api/v1/approvals': listOf([
        approval({
          id: 'old',
          title: 'Older rejection',
          status: 'rejected',
          decided_by: 'ceo',
          decision_reason: 'Too early',
        }),
        approval({
          id: 'new',
          title: 'Newer rejection',
          status: 'rejected',
          decided_by: 'board',
          decision_reason: 'Costs too much',
          decided_at: inMinutes(-5),
        }),
      ]),
    });
    renderPage(<Approvals />, { path: '/approvals?status=rejected' });
    const items = await screen.findAllByRole('article');
    expect(items.map((item) => item.querySelector('h2')?.textContent)).toEqual(['Newer rejection', 'Older rejection']);
    expect(items[0]).toHaveTextContent('Rejected by board 5 minutes ago');
    expect(items[0]).toHaveTextContent('Reason: Costs too much');
    expect(within(items[0]).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Rejected' })).toHaveAttribute('aria-selected', 'true');
    expect(api.calls.some((call) => call.route.includes('status=rejected'))).toBe(true);
  });

  it('should filter by risk level', async () => {
    const api = fakeApi({ 'GET /api/v1/approvals': listOf([approval({}), ESCALATED]), 'GET /api/v1/tasks/t1': TASK });
    renderPage(<Approvals />, { path: '/approvals' });
    await screen.findAllByRole('article');
    await userEvent.selectOptions(screen.getByLabelText('Risk level'), 'high');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(screen.getByRole('article', { name: 'backend-dev asks to run write_file' })).toBeInTheDocument();
    expect(api.calls.some((call) => call.route.includes('risk_level=high'))).toBe(true);
  });

  it('should show an item filed elsewhere when the live channel says so', async () => {
    const items = [approval({})];
    fakeApi({ 'GET /api/v1/approvals': listOf(items), 'GET /api/v1/tasks/t1': TASK });
    const { client } = renderPage(<Approvals />, { path: '/approvals' });
    await screen.findByRole('article', { name: 'Deploy the billing service to staging' });
    items.push(ESCALATED);
    act(() =>
      applyEvent(client, {
        channel: 'approvals',
        event_type: 'approval.submitted',
        timestamp: new Date().toISOString(),
        payload: {},
      }),
    );
    expect(await screen.findByRole('article', { name: 'backend-dev asks to run write_file' })).toBeInTheDocument();
  });

  it('should page through a long history', async () => {
    const many = Array.from({ length: 45 }, (_, i) =>
      approval({ id: `x${i}`, title: `Item ${i}`, status: 'approved', decided_by: 'ceo' }),
    );
    fakeApi({ 'GET /api/v1/approvals': listOf(many) });
    renderPage(<Approvals />, { path: '/approvals?status=approved' });
    expect(await screen.findByRole('article', { name: 'Item 44' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(20);
    expect(screen.getByText(/1–20 of 45, newest first/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('article', { name: 'Item 0' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
