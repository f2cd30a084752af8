import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { type Answer, fakeApi, OBSERVER, renderPage } from '../../test/render';
import { aProject, aTask, anAgent, paged } from './taskFixtures';
import Tasks from './Tasks';
import type { Task } from './taskModel';

const AGENTS = { 'GET /api/v1/agents': paged([anAgent()]) };
const PROJECTS = { 'GET /api/v1/projects': paged([aProject()]) };

/** Answers GET /tasks by its status filter, from a fixed set of tasks. */
function tasksByStatus(tasks: Task[]) {
  return (request: Request): Answer => {
    const url = new URL(request.url);
    const status = url.searchParams.get('status');
    const matching = tasks.filter((t) => !status || t.status === status);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    return paged(matching.slice(offset, offset + limit), matching.length, offset, limit);
  };
}

function column(status: string): HTMLElement {
  return screen.getByTestId(`column-${status}`);
}

describe('Tasks board', () => {
  it('should say it is loading while the columns are read', () => {
    fakeApi({ ...AGENTS, ...PROJECTS, 'GET /api/v1/tasks': { pending: true } });
    renderPage(<Tasks />, { path: '/tasks' });
    expect(within(column('created')).getByRole('status')).toHaveTextContent('Loading');
  });

  it('should say what fills an empty board', async () => {
    fakeApi({ 'GET /api/v1/agents': paged([]), 'GET /api/v1/projects': paged([]), 'GET /api/v1/tasks': paged([]) });
    renderPage(<Tasks />, { path: '/tasks' });
    expect(await screen.findByRole('heading', { name: 'No tasks yet' })).toBeInTheDocument();
    expect(screen.getByText(/creates one with New task/)).toBeInTheDocument();
  });

  it('should show the message and code when a column cannot be read', async () => {
    fakeApi({
      ...AGENTS,
      ...PROJECTS,
      'GET /api/v1/tasks': { error: 'Database unavailable', code: 8002, status: 503 },
    });
    renderPage(<Tasks />, { path: '/tasks' });
    const alert = await within(column('created')).findByRole('alert');
    expect(alert).toHaveTextContent('Database unavailable');
    expect(alert).toHaveTextContent('8002');
  });

  it('should show each task in its status column as a link named by its title', async () => {
    const api = fakeApi({
      ...AGENTS,
      ...PROJECTS,
      'GET /api/v1/tasks': tasksByStatus([
        aTask({ id: 'task-a', title: 'Draft the plan' }),
        aTask({ id: 'task-b', title: 'Fix the login bug', status: 'in_progress', assigned_to: 'Ada Lovelace' }),
      ]),
    });
    renderPage(<Tasks />, { path: '/tasks' });
    const link = await within(column('created')).findByRole('link', { name: 'Draft the plan' });
    expect(link).toHaveAttribute('href', '/tasks/task-a');
    expect(within(column('in_progress')).getByRole('link', { name: 'Fix the login bug' })).toHaveAttribute(
      'href',
      '/tasks/task-b',
    );
    expect(within(column('in_progress')).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(column('created')).getByText('1 task')).toBeInTheDocument();
    // One capped read per status, never the whole list.
    const reads = api.calls.filter((c) => c.route.startsWith('GET /api/v1/tasks?'));
    expect(reads).toHaveLength(9);
    expect(reads.every((c) => c.route.includes('limit=50'))).toBe(true);
  });

  it('should read 50 more of a column on Show more', async () => {
    const many = Array.from({ length: 120 }, (_, i) => aTask({ id: `task-${i}`, title: `Task number ${i}` }));
    const api = fakeApi({ ...AGENTS, ...PROJECTS, 'GET /api/v1/tasks': tasksByStatus(many) });
    renderPage(<Tasks />, { path: '/tasks' });
    await within(column('created')).findByRole('link', { name: 'Task number 49' });
    expect(within(column('created')).queryByRole('link', { name: 'Task number 50' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show more created tasks (70 more)' }));
    await within(column('created')).findByRole('link', { name: 'Task number 99' });
    expect(api.calls.some((c) => c.route.includes('status=created') && c.route.includes('limit=100'))).toBe(true);
  });

  it('should keep the filters in the URL and send them with every read', async () => {
    const api = fakeApi({ ...AGENTS, ...PROJECTS, 'GET /api/v1/tasks': paged([]) });
    renderPage(<Tasks />, { path: '/tasks?status=blocked&project=proj-1&assignee=Ada%20Lovelace' });
    expect(await screen.findByRole('heading', { name: 'No tasks match these filters' })).toBeInTheDocument();
    // Only the chosen status's column.
    expect(screen.queryByTestId('column-created')).toBeNull();
    const reads = api.calls.filter((c) => c.route.startsWith('GET /api/v1/tasks?'));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.route).toContain('status=blocked');
    expect(reads[0]?.route).toContain('project=proj-1');
    expect(reads[0]?.route).toContain('assigned_to=Ada%20Lovelace');
  });

  it('should create a task through the New task dialog, creating a project typed by a new name', async () => {
    const api = fakeApi({
      ...AGENTS,
      'GET /api/v1/projects': paged([]),
      'GET /api/v1/tasks': paged([]),
      'POST /api/v1/projects': { data: aProject({ id: 'proj-9', name: 'Launch' }), status: 201 },
      'POST /api/v1/tasks': (_req, body) => ({
        data: aTask({ id: 'task-9', title: (body as { title: string }).title, status: 'assigned' }),
        status: 201,
      }),
    });
    renderPage(<Tasks />, { path: '/tasks' });
    await userEvent.click(await screen.findByRole('button', { name: 'New task' }));
    const dialog = await screen.findByRole('dialog', { name: 'New task' });
    await userEvent.type(within(dialog).getByLabelText(/^Title/), 'Plan the launch');
    await userEvent.type(within(dialog).getByLabelText(/^Description/), 'Dates and owners.');
    await userEvent.type(within(dialog).getByLabelText(/^Project/), 'Launch');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Assignee/ }));
    await userEvent.click(
      await screen.findByRole('option', { name: 'Ada Lovelace (Backend Developer)', hidden: true }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create task' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/tasks',
        body: expect.objectContaining({
          title: 'Plan the launch',
          description: 'Dates and owners.',
          project: 'proj-9',
          assigned_to: 'Ada Lovelace',
          created_by: 'ceo',
          type: 'development',
        }) as unknown,
      }),
    );
    expect(api.calls).toContainEqual({
      route: 'POST /api/v1/projects',
      body: expect.objectContaining({ name: 'Launch' }) as unknown,
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New task' })).toBeNull());
  });

  it('should show a refused create in the dialog with its code', async () => {
    fakeApi({
      ...AGENTS,
      ...PROJECTS,
      'GET /api/v1/tasks': paged([]),
      'POST /api/v1/tasks': { error: 'No language-model provider is configured', code: 4014, status: 409 },
    });
    renderPage(<Tasks />, { path: '/tasks' });
    await userEvent.click(await screen.findByRole('button', { name: 'New task' }));
    const dialog = await screen.findByRole('dialog', { name: 'New task' });
    await userEvent.type(within(dialog).getByLabelText(/^Title/), 'A');
    await userEvent.type(within(dialog).getByLabelText(/^Description/), 'B');
    await userEvent.type(within(dialog).getByLabelText(/^Project/), 'Website');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create task' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('No language-model provider is configured');
    expect(alert).toHaveTextContent('4014');
  });

  it('should offer only the allowed moves from a card and send the transition', async () => {
    const task = aTask({ id: 'task-p', title: 'Ship it', status: 'in_progress', assigned_to: 'Ada Lovelace' });
    const api = fakeApi({
      ...AGENTS,
      ...PROJECTS,
      'GET /api/v1/tasks': tasksByStatus([task]),
      'POST /api/v1/tasks/task-p/transition': { data: { ...task, status: 'in_review' }, status: 201 },
    });
    renderPage(<Tasks />, { path: '/tasks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Move Ship it' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move “Ship it”' });
    const options = within(dialog)
      .getAllByRole('radio')
      .map((r) => r.getAttribute('value'));
    expect(options).toEqual(['in_review', 'blocked', 'cancelled', 'failed', 'interrupted']);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'In review' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move task' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/tasks/task-p/transition',
        body: { target_status: 'in_review' },
      }),
    );
  });

  it('should move a card dropped on a column that its status allows', async () => {
    const task = aTask({ id: 'task-r', title: 'Review docs', status: 'in_review', assigned_to: 'Ada Lovelace' });
    const api = fakeApi({
      ...AGENTS,
      ...PROJECTS,
      'GET /api/v1/tasks': tasksByStatus([task]),
      'POST /api/v1/tasks/task-r/transition': { data: { ...task, status: 'completed' }, status: 201 },
    });
    renderPage(<Tasks />, { path: '/tasks' });
    const card = (await screen.findByRole('link', { name: 'Review docs' })).closest('li')!;
    expect(card).toHaveAttribute('draggable', 'true');
    drag(card, column('completed'));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/tasks/task-r/transition',
        body: { target_status: 'completed' },
      }),
    );
  });

  it('should refuse a drop on a column the state machine does not allow', async () => {
    const task = aTask({ id: 'task-c', title: 'New idea' });
    const api = fakeApi({ ...AGENTS, ...PROJECTS, 'GET /api/v1/tasks': tasksByStatus([task]) });
    renderPage(<Tasks />, { path: '/tasks' });
    const card = (await screen.findByRole('link', { name: 'New idea' })).closest('li')!;
    drag(card, column('completed'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls.some((c) => c.route.startsWith('POST'))).toBe(false);
  });

  it('should ask for an assignee when a card without one is dropped on Assigned', async () => {
    const task = aTask({ id: 'task-c', title: 'New idea' });
    const api = fakeApi({
      ...AGENTS,
      ...PROJECTS,
      'GET /api/v1/tasks': tasksByStatus([task]),
      'POST /api/v1/tasks/task-c/transition': { data: { ...task, status: 'assigned' }, status: 201 },
    });
    renderPage(<Tasks />, { path: '/tasks' });
    const card = (await screen.findByRole('link', { name: 'New idea' })).closest('li')!;
    drag(card, column('assigned'));
    const dialog = await screen.findByRole('dialog', { name: 'Move “New idea”' });
    expect(within(dialog).getByRole('button', { name: 'Move task' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Assignee/ }));
    await userEvent.click(
      await screen.findByRole('option', { name: 'Ada Lovelace (Backend Developer)', hidden: true }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move task' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/tasks/task-c/transition',
        body: { target_status: 'assigned', assigned_to: 'Ada Lovelace' },
      }),
    );
  });

  it('should offer an Observer no write controls', async () => {
    fakeApi({
      ...AGENTS,
      ...PROJECTS,
      'GET /api/v1/tasks': tasksByStatus([aTask({ title: 'Read only' })]),
    });
    renderPage(<Tasks />, { path: '/tasks', me: OBSERVER });
    const link = await screen.findByRole('link', { name: 'Read only' });
    expect(link.closest('li')).toHaveAttribute('draggable', 'false');
    expect(screen.queryByRole('button', { name: 'New task' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Move/ })).toBeNull();
  });
});

describe('Tasks list', () => {
  it('should list every status a page at a time with the API offset', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      aTask({ id: `task-${i}`, title: `Item ${i}`, status: i % 2 ? 'completed' : 'created' }),
    );
    const api = fakeApi({ ...AGENTS, ...PROJECTS, 'GET /api/v1/tasks': tasksByStatus(many) });
    renderPage(<Tasks />, { path: '/tasks?view=list' });
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Title' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Item 0' })).toHaveAttribute('href', '/tasks/task-0');
    expect(within(table).getAllByText('Website').length).toBeGreaterThan(0);
    expect(api.calls.some((c) => c.route.includes('status=&') && c.route.includes('offset=0'))).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await within(screen.getByRole('table')).findByRole('link', { name: 'Item 50' })).toBeInTheDocument();
    expect(api.calls.some((c) => c.route.includes('offset=50'))).toBe(true);
  });

  it('should show the empty list and an error with its code', async () => {
    fakeApi({ ...AGENTS, ...PROJECTS, 'GET /api/v1/tasks': paged([]) });
    const first = renderPage(<Tasks />, { path: '/tasks?view=list' });
    expect(await screen.findByRole('heading', { name: 'No tasks yet' })).toBeInTheDocument();
    first.unmount();
    fakeApi({
      ...AGENTS,
      ...PROJECTS,
      'GET /api/v1/tasks': { error: 'status: not a task status', code: 2001, status: 400 },
    });
    renderPage(<Tasks />, { path: '/tasks?view=list' });
    const alert = (await screen.findByText('status: not a task status')).closest('[role="alert"]');
    expect(alert).toHaveTextContent('The tasks could not be loaded');
    expect(alert).toHaveTextContent('2001');
  });

  it('should switch between board and list', async () => {
    fakeApi({ ...AGENTS, ...PROJECTS, 'GET /api/v1/tasks': tasksByStatus([aTask({ title: 'Switch me' })]) });
    renderPage(<Tasks />, { path: '/tasks' });
    await screen.findByTestId('column-created');
    await userEvent.click(screen.getByRole('radio', { name: 'List' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByTestId('column-created')).toBeNull();
  });
});

/** A native drag of `card` onto `target`, as the browser fires it. */
function drag(card: HTMLElement, target: HTMLElement): void {
  const data = new Map<string, string>();
  const dataTransfer = {
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    effectAllowed: 'all',
    dropEffect: 'none',
  };
  fireEvent.dragStart(card, { dataTransfer });
  fireEvent.dragEnter(target, { dataTransfer });
  const over = createEvent.dragOver(target, { dataTransfer });
  fireEvent(target, over);
  fireEvent.drop(target, { dataTransfer });
  fireEvent.dragEnd(card, { dataTransfer });
}
