import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import type { Schemas } from '@app/client';

import { fakeApi, OBSERVER, renderPage } from '../../test/render';
import TaskDetail from './TaskDetail';
import { aProject, aTask, anAgent, paged } from './taskFixtures';

const AGENT = anAgent();
const TASK = aTask({
  id: 't1',
  title: 'Build the pricing page',
  description: 'Three plans and a comparison table.',
  status: 'in_progress',
  assigned_to: AGENT.name,
  started_at: '2025-01-02T09:00:00.000Z',
  version: 3,
});

type Routes = Parameters<typeof fakeApi>[0];

const RECORDS_EMPTY = {
  data: [],
  pagination: { total: 0, offset: 0, limit: 200 },
};

/** The reads of the page, all answering with nothing; `overrides` change some. */
function emptyCompany(overrides: Routes = {}): Routes {
  return {
    'GET /api/v1/tasks/t1': { data: TASK },
    'GET /api/v1/agents': paged([AGENT]),
    'GET /api/v1/projects': paged([aProject()]),
    'GET /api/v1/agents/Ada%20Lovelace/activity': paged([]),
    'GET /api/v1/budget/records': RECORDS_EMPTY,
    'GET /api/v1/artifacts': paged([]),
    'GET /api/v1/approvals': paged([]),
    ...overrides,
  };
}

function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

const OPTIONS = { path: '/tasks/t1', route: '/tasks/:taskId' };

describe('TaskDetail', () => {
  it('should say it is loading the task', () => {
    fakeApi(emptyCompany({ 'GET /api/v1/tasks/t1': { pending: true } }));
    renderPage(<TaskDetail />, OPTIONS);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the task');
  });

  it('should show why a task cannot be loaded, with its code', async () => {
    fakeApi(emptyCompany({ 'GET /api/v1/tasks/t1': { error: 'Task "t1" not found', code: 3004, status: 404 } }));
    renderPage(<TaskDetail />, OPTIONS);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Task "t1" not found');
    expect(alert).toHaveTextContent('3004');
    expect(screen.getByRole('link', { name: '← All tasks' })).toHaveAttribute('href', '/tasks');
  });

  it('should show the fields and say what fills each empty section', async () => {
    fakeApi(emptyCompany());
    renderPage(<TaskDetail />, OPTIONS);
    expect(await screen.findByRole('heading', { level: 1, name: 'Build the pricing page' })).toBeInTheDocument();
    expect(screen.getByText('Three plans and a comparison table.')).toBeInTheDocument();
    const details = section('Details');
    expect(within(details).getByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute(
      'href',
      '/agents/Ada%20Lovelace',
    );
    expect(await within(details).findByText('Website')).toBeInTheDocument();
    expect(await within(section('Runs, model calls and tool calls')).findByText('No runs yet')).toBeInTheDocument();
    expect(await within(section('Cost trail')).findByText('Nothing spent yet')).toBeInTheDocument();
    expect(await within(section('Artifacts')).findByText('No artifacts yet')).toBeInTheDocument();
    expect(await within(section('Waiting on approval')).findByText('Not waiting on an approval')).toBeInTheDocument();
    expect(within(section('Status history')).getByRole('cell', { name: 'Started' })).toBeInTheDocument();
  });

  it('should show the runs, the cost trail, the artifacts and the approval the task waits on', async () => {
    const api = fakeApi(
      emptyCompany({
        'GET /api/v1/agents/Ada%20Lovelace/activity': paged([
          {
            event_type: 'tool_used',
            timestamp: '2025-01-02T09:01:00.000Z',
            description: 'Tool read_file executed successfully',
            related_ids: { agent_id: AGENT.id, task_id: 't1' },
          },
          {
            event_type: 'cost_incurred',
            timestamp: '2025-01-02T09:00:30.000Z',
            description: 'API call to mock-small (100+50 tokens, $0.25)',
            related_ids: { agent_id: AGENT.id, task_id: 't1' },
          },
          {
            event_type: 'task_started',
            timestamp: '2025-01-02T09:00:00.000Z',
            description: 'Task other started',
            related_ids: { agent_id: AGENT.id, task_id: 'other' },
          },
        ] satisfies Array<Schemas['ActivityEvent']>),
        'GET /api/v1/budget/records': {
          data: [
            {
              agent_id: AGENT.id,
              task_id: 't1',
              provider: 'fake',
              model: 'mock-small',
              input_tokens: 1200,
              output_tokens: 300,
              total_tokens: 1500,
              cost_usd: 0.5,
              timestamp: '2025-01-02T09:00:30.000Z',
              call_category: 'productive',
            },
          ] satisfies Array<Schemas['CostRecord']>,
          pagination: { total: 1, offset: 0, limit: 200 },
        },
        'GET /api/v1/artifacts': paged([
          {
            id: 'art-1',
            type: 'code',
            path: 'src/pricing.tsx',
            task_id: 't1',
            created_by: AGENT.id,
            description: 'The page',
            created_at: '2025-01-02T09:02:00.000Z',
            project_id: null,
            content_type: 'text/plain',
            size_bytes: 2048,
            sha256: 'ab',
          },
        ] satisfies Array<Schemas['Artifact']>),
        'GET /api/v1/approvals': paged([
          anApproval({ id: 'ap-1', task_id: 't1', title: 'Deploy the pricing page' }),
          anApproval({ id: 'ap-2', task_id: 'other', title: 'Someone else’s' }),
        ]),
      }),
    );
    renderPage(<TaskDetail />, OPTIONS);
    const runs = await screen.findByRole('region', { name: 'Runs, model calls and tool calls' });
    expect(await within(runs).findByText('Tool read_file executed successfully')).toBeInTheDocument();
    expect(within(runs).getByText('Model call')).toBeInTheDocument();
    expect(within(runs).queryByText('Task other started')).toBeNull();

    const costs = section('Cost trail');
    expect(await within(costs).findByText('fake / mock-small')).toBeInTheDocument();
    expect(within(costs).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(costs).getByText('1,200 / 300')).toBeInTheDocument();

    const download = await within(section('Artifacts')).findByRole('link', { name: 'Download src/pricing.tsx' });
    expect(download).toHaveAttribute('href', '/api/v1/artifacts/art-1/content');
    expect(within(section('Artifacts')).getByText('2.0 KB')).toBeInTheDocument();

    const approvals = section('Waiting on approval');
    expect(await within(approvals).findByText('Deploy the pricing page')).toBeInTheDocument();
    expect(within(approvals).queryByText('Someone else’s')).toBeNull();

    expect(api.calls.map((c) => c.route)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/budget/records?task_id=t1&limit=200',
        'GET /api/v1/artifacts?task_id=t1&limit=200',
        'GET /api/v1/approvals?status=pending&limit=200',
      ]),
    );
  });

  it('should show a section that fails with its message and code while the others still show', async () => {
    fakeApi(
      emptyCompany({ 'GET /api/v1/artifacts': { error: 'Artifact storage unavailable', code: 8007, status: 507 } }),
    );
    renderPage(<TaskDetail />, OPTIONS);
    const alert = await within(await screen.findByRole('region', { name: 'Artifacts' })).findByRole('alert');
    expect(alert).toHaveTextContent('Artifact storage unavailable');
    expect(alert).toHaveTextContent('8007');
    expect(await within(section('Cost trail')).findByText('Nothing spent yet')).toBeInTheDocument();
  });

  it('should offer an Observer no write controls', async () => {
    fakeApi(emptyCompany());
    renderPage(<TaskDetail />, { ...OPTIONS, me: OBSERVER });
    await screen.findByRole('heading', { level: 1, name: 'Build the pricing page' });
    for (const name of ['Edit', 'Move…', 'Cancel task', 'Delete', 'Coordinate']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
  });

  it('should move the task to a status its state machine allows', async () => {
    const api = fakeApi(
      emptyCompany({ 'POST /api/v1/tasks/t1/transition': { data: { ...TASK, status: 'blocked' }, status: 201 } }),
    );
    renderPage(<TaskDetail />, OPTIONS);
    await userEvent.click(await screen.findByRole('button', { name: 'Move…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move “Build the pricing page”' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Blocked' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move task' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/tasks/t1/transition',
        body: { target_status: 'blocked' },
      }),
    );
  });

  it('should cancel the task with a reason', async () => {
    const api = fakeApi(
      emptyCompany({ 'POST /api/v1/tasks/t1/cancel': { data: { ...TASK, status: 'cancelled' }, status: 201 } }),
    );
    renderPage(<TaskDetail />, OPTIONS);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move “Build the pricing page”' });
    const submit = within(dialog).getByRole('button', { name: 'Cancel task' });
    expect(submit).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Plans changed');
    await userEvent.click(submit);
    await waitFor(() =>
      expect(api.calls).toContainEqual({ route: 'POST /api/v1/tasks/t1/cancel', body: { reason: 'Plans changed' } }),
    );
  });

  it('should show a refused move in the dialog with its code', async () => {
    fakeApi(
      emptyCompany({
        'POST /api/v1/tasks/t1/transition': {
          error: 'Invalid task transition in_progress -> blocked',
          code: 4015,
          status: 409,
        },
      }),
    );
    renderPage(<TaskDetail />, OPTIONS);
    await userEvent.click(await screen.findByRole('button', { name: 'Move…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move “Build the pricing page”' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Blocked' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move task' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Invalid task transition');
    expect(alert).toHaveTextContent('4015');
  });

  it('should edit the task as a compare-and-set on its version', async () => {
    const api = fakeApi(
      emptyCompany({ 'PATCH /api/v1/tasks/t1': (_req, body) => ({ data: { ...TASK, ...(body as object) } }) }),
    );
    renderPage(<TaskDetail />, OPTIONS);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit “Build the pricing page”' });
    const title = within(dialog).getByLabelText(/^Title/);
    await userEvent.clear(title);
    await userEvent.type(title, 'Build the plans page');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'PATCH /api/v1/tasks/t1',
        body: { expected_version: 3, title: 'Build the plans page' },
      }),
    );
  });

  it('should delete the task only after confirmation, then go back to the tasks', async () => {
    const api = fakeApi(emptyCompany({ 'DELETE /api/v1/tasks/t1': { data: null, status: 204 } }));
    renderPage(<TaskDetail />, OPTIONS);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Build the pricing page”?' });
    expect(api.calls.some((c) => c.route.startsWith('DELETE'))).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete task' }));
    await waitFor(() => expect(api.calls.map((c) => c.route)).toContain('DELETE /api/v1/tasks/t1'));
  });

  it('should coordinate a created task and show how each phase went', async () => {
    const created = { ...TASK, status: 'created' as const, assigned_to: null };
    const api = fakeApi(
      emptyCompany({
        'GET /api/v1/tasks/t1': { data: created },
        'POST /api/v1/tasks/t1/coordinate': {
          data: {
            parent_task_id: 't1',
            topology: 'centralized',
            total_duration_seconds: 4.2,
            total_cost_usd: 0.12,
            wave_count: 2,
            is_success: false,
            phases: [
              { phase: 'decompose', success: true, duration_seconds: 1 },
              { phase: 'dispatch', success: false, duration_seconds: 3, error: 'a subtask failed' },
            ],
          } satisfies Schemas['CoordinationResultResponse'],
        },
      }),
    );
    renderPage(<TaskDetail />, OPTIONS);
    expect(await screen.findByText('No runs yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel task' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Coordinate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Coordinate “Build the pricing page”' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Coordinate' }));
    expect(await within(dialog).findByText('Failed: a subtask failed')).toBeInTheDocument();
    expect(within(dialog).getByText('Coordination did not complete every phase')).toBeInTheDocument();
    expect(api.calls).toContainEqual({
      route: 'POST /api/v1/tasks/t1/coordinate',
      body: { max_subtasks: 10, agent_names: null, fail_fast: null },
    });
  });
});

function anApproval(overrides: Partial<Schemas['ApprovalResponse']>): Schemas['ApprovalResponse'] {
  return {
    id: 'ap',
    action_type: 'deploy:production',
    title: 'Approval',
    description: '',
    requested_by: 'Ada Lovelace',
    risk_level: 'high',
    status: 'pending',
    task_id: null,
    metadata: {},
    decided_by: null,
    decision_reason: null,
    created_at: '2025-01-02T09:00:00.000Z',
    decided_at: null,
    expires_at: null,
    seconds_remaining: null,
    urgency_level: 'no_expiry',
    ...overrides,
  };
}
