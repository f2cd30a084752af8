import type { Locator, Page } from 'playwright-core';

import { eventually } from '@app/testing';

import {
  apiCall,
  call,
  type ConsoleEnv,
  live,
  screenshot,
  seriousViolations,
  signIn,
  startConsole,
  watchErrors,
} from './support/console';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(240_000);

const PASSWORD = 'correct-horse-battery-staple';
const OBSERVER_PASSWORD = 'quiet-observer-password-3';

const column = (page: Page, status: string): Locator => page.getByTestId(`column-${status}`);

describe('the tasks board, list and detail in a browser', () => {
  let env: ConsoleEnv;
  let ceo: string;
  let page: Page;
  let errors: string[];
  let agents: string[];
  let project: string;
  const ids: Record<string, string> = {};

  const task = async (title: string, extra: Json = {}): Promise<string> => {
    const created = await call<{ id: string }>(env, ceo, 'POST', '/tasks', {
      title,
      description: `${title}, with the details the team agreed on.`,
      type: 'development',
      project,
      created_by: 'ceo',
      ...extra,
    });
    ids[title] = created.id;
    return created.id;
  };
  const statusOf = (id: string) => call<Json>(env, ceo, 'GET', `/tasks/${id}`);

  beforeAll(async () => {
    env = await startConsole();
    ceo = (await call<{ token: string }>(env, '', 'POST', '/auth/setup', { username: 'ceo', password: PASSWORD }))
      .token;
    await call(env, ceo, 'POST', '/providers', {
      name: 'fake',
      gateway_provider: 'openai',
      auth_type: 'none',
      base_url: `${env.mock.url}/v1`,
      models: [{ id: 'mock-small', cost_per_1k_input: 0.5, cost_per_1k_output: 1.5, max_context: 8000 }],
    });
    const company = await call<{ agents: Json[] }>(env, ceo, 'POST', '/setup/company', {
      company_name: 'Northwind Labs',
      template_name: 'startup',
    });
    await call(env, ceo, 'POST', '/setup/complete');
    agents = company.agents.map((agent) => agent.name as string);
    project = (await call<{ id: string }>(env, ceo, 'POST', '/projects', { name: 'Website' })).id;
    await call(env, ceo, 'POST', '/projects', { name: 'Mobile app' });

    // Work that ran to its end: runs, model calls and cost; an artifact of it.
    const guide = await task('Write the onboarding guide', { assigned_to: agents[0], priority: 'high' });
    const billing = await task('Migrate the billing reports', { assigned_to: agents[1] ?? agents[0] });
    await eventually(
      () => Promise.all([guide, billing].map(statusOf)),
      (rows) => rows.every((row) => !['assigned', 'in_progress'].includes(row.status as string)),
      60_000,
    );
    const artifact = await call<{ id: string }>(env, ceo, 'POST', '/artifacts', {
      type: 'documentation',
      path: 'docs/onboarding.md',
      task_id: guide,
      created_by: agents[0],
      description: 'The guide for new hires',
    });
    const upload = await fetch(`${env.server.url}/api/v1/artifacts/${artifact.id}/content`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ceo}`, 'content-type': 'text/markdown' },
      body: '# Welcome\n\nYour first week, day by day.\n',
    });
    expect(upload.status).toBe(200);
    const billingRow = await statusOf(billing);
    if (['assigned', 'in_progress', 'in_review'].includes(billingRow.status as string)) {
      await call(env, ceo, 'POST', `/tasks/${billing}/cancel`, { reason: 'Finance moves to the new system first' });
    }

    // Open work: waiting for an agent, and one whose run is under way (its model call never answers).
    await task('Draft the Q3 roadmap', { priority: 'critical' });
    await task('Review the accessibility audit', { priority: 'low' });
    env.mock.enqueue({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const running = [
      await task('Fix the login redirect', { assigned_to: agents[2] ?? agents[0] }),
      await task('Build the pricing page', { assigned_to: agents[1] ?? agents[0], priority: 'high' }),
      await task('Refresh the brand colours', { assigned_to: agents[0], priority: 'low' }),
    ];
    await eventually(
      () => Promise.all(running.map(statusOf)),
      (rows) => rows.every((row) => row.status === 'in_progress'),
      30_000,
    );
    await call(env, ceo, 'POST', `/tasks/${ids['Refresh the brand colours']}/transition`, {
      target_status: 'in_review',
    });

    ({ page } = await env.newPage());
    errors = watchErrors(page);
    await signIn(page, 'ceo', PASSWORD);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('should create a task through New task and show it on the board as a link named by its title', async () => {
    await page.goto('/tasks');
    await column(page, 'created').getByRole('link', { name: 'Draft the Q3 roadmap' }).waitFor();
    await page.getByRole('button', { name: 'New task' }).click();
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.getByLabel('Title').fill('Plan the launch event');
    await dialog.getByLabel('Description').fill('Venue, guests and the running order.');
    await dialog.getByLabel('Project').fill('Website');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const link = column(page, 'created').getByRole('link', { name: 'Plan the launch event', exact: true });
    await link.waitFor();
    const created = (await call<Json[]>(env, ceo, 'GET', '/tasks?status=created')).find(
      (row) => row.title === 'Plan the launch event',
    );
    expect(created).toMatchObject({ project, created_by: 'ceo', status: 'created' });
    expect(await link.getAttribute('href')).toBe(`/tasks/${created?.id}`);
    ids['Plan the launch event'] = created?.id as string;
  });

  it('should show a task created through the API on the open board within 2 seconds', async () => {
    await live(page);
    await task('Translate the pricing page');
    await column(page, 'created')
      .getByRole('link', { name: 'Translate the pricing page', exact: true })
      .waitFor({ timeout: 2000 });
  });

  it('should move a card dragged onto an allowed column, asking for the assignee the move needs', async () => {
    const id = ids['Translate the pricing page'];
    const card = column(page, 'created').locator(`li[data-task-id="${id}"]`);
    await card.dragTo(column(page, 'assigned'));
    const dialog = page.getByRole('dialog', { name: 'Move “Translate the pricing page”' });
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: 'Assigned' }).isChecked()).toBe(true);
    await dialog.getByRole('combobox', { name: 'Assignee' }).click();
    await page.getByRole('option', { name: new RegExp(`^${agents[0]}`) }).click();
    await dialog.getByRole('button', { name: 'Move task' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const moved = await eventually(
      () => statusOf(id),
      (row) => row.status !== 'created',
    );
    expect(moved.assigned_to).toBe(agents[0]);
    await column(page, 'created')
      .getByRole('link', { name: 'Translate the pricing page' })
      .waitFor({ state: 'detached' });
  });

  it('should refuse a drop the state machine does not allow', async () => {
    const id = ids['Review the accessibility audit'];
    const card = column(page, 'created').locator(`li[data-task-id="${id}"]`);
    await card.dragTo(column(page, 'completed'));
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await statusOf(id)).status).toBe('created');
  });

  it('should move a task with the keyboard through its Move button, offering only the allowed moves', async () => {
    const running = column(page, 'in_progress');
    const move = running.getByRole('button', { name: 'Move Fix the login redirect' });
    await move.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Move “Fix the login redirect”' });
    await dialog.waitFor();
    const offered = await dialog
      .getByRole('radio')
      .evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value));
    expect(offered).toEqual(['in_review', 'blocked', 'cancelled', 'failed', 'interrupted']);
    await dialog.getByRole('radio', { name: 'Blocked' }).focus();
    await page.keyboard.press('Space');
    await dialog.getByRole('button', { name: 'Move task' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await eventually(
      () => statusOf(ids['Fix the login redirect']),
      (row) => row.status === 'blocked',
    );
    await column(page, 'blocked').getByRole('link', { name: 'Fix the login redirect' }).waitFor();
  });

  it('should show the board without serious accessibility findings', async () => {
    await page.goto('/tasks');
    await column(page, 'created').getByRole('link', { name: 'Plan the launch event' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'tasks-board');
  });

  it('should show the list with filters kept in the URL, without serious accessibility findings', async () => {
    await page.getByRole('radiogroup', { name: 'View' }).getByText('List').click();
    await page.waitForURL(/view=list/);
    const table = page.getByRole('table');
    await table.getByRole('link', { name: 'Write the onboarding guide' }).waitFor();
    expect(await table.getByRole('row').count()).toBeGreaterThan(5);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Created', exact: true }).click();
    await page.waitForURL(/status=created/);
    await table.getByRole('link', { name: 'Draft the Q3 roadmap' }).waitFor();
    await table.getByRole('link', { name: 'Write the onboarding guide' }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('table').getByRole('link', { name: 'Draft the Q3 roadmap' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('Created');
  });

  it('should show a task with its fields, runs, cost trail and artifacts', async () => {
    await page.goto('/tasks?view=list');
    await page.getByRole('link', { name: 'Write the onboarding guide' }).click();
    await page.waitForURL(`/tasks/${ids['Write the onboarding guide']}`);
    await page.getByRole('heading', { level: 1, name: 'Write the onboarding guide' }).waitFor();
    const runs = page.getByRole('region', { name: 'Runs, model calls and tool calls' });
    await runs.getByRole('cell', { name: 'Run started' }).first().waitFor();
    await runs.getByRole('cell', { name: 'Model call' }).first().waitFor();
    const costs = page.getByRole('region', { name: 'Cost trail' });
    await costs.getByRole('cell', { name: 'fake / mock-small' }).first().waitFor();
    const artifacts = page.getByRole('region', { name: 'Artifacts' });
    const download = artifacts.getByRole('link', { name: 'Download docs/onboarding.md' });
    await download.waitFor();
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toContain('onboarding');
    await page.getByRole('region', { name: 'Waiting on approval' }).getByText('Not waiting on an approval').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'task-detail');
  });

  it('should delete a task only after confirmation', async () => {
    const id = ids['Plan the launch event'];
    await page.goto(`/tasks/${id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Plan the launch event”?' });
    await dialog.getByRole('button', { name: 'Keep task' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await statusOf(id)).id).toBe(id);
    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete task' }).click();
    await page.waitForURL('/tasks');
    expect((await apiCall(env, ceo, 'GET', `/tasks/${id}`)).status).toBe(404);
  });

  it('should show an Observer the tasks pages without any write control', async () => {
    await call(env, ceo, 'POST', '/users', { username: 'watcher', password: 'initial-password-1', role: 'observer' });
    const token = (
      await call<{ token: string }>(env, '', 'POST', '/auth/login', {
        username: 'watcher',
        password: 'initial-password-1',
      })
    ).token;
    await call(env, token, 'POST', '/auth/change-password', {
      current_password: 'initial-password-1',
      new_password: OBSERVER_PASSWORD,
    });
    const { context, page: observer } = await env.newPage();
    const observerErrors = watchErrors(observer);
    await signIn(observer, 'watcher', OBSERVER_PASSWORD);
    await observer.goto('/tasks');
    const link = column(observer, 'created').getByRole('link', { name: 'Draft the Q3 roadmap' });
    await link.waitFor();
    expect(await observer.getByRole('button', { name: 'New task' }).count()).toBe(0);
    expect(await observer.getByRole('button', { name: /^Move / }).count()).toBe(0);
    expect(await observer.locator('li[draggable="true"]').count()).toBe(0);
    expect(await seriousViolations(observer)).toEqual([]);

    await link.click();
    await observer.getByRole('heading', { level: 1, name: 'Draft the Q3 roadmap' }).waitFor();
    await observer.getByRole('region', { name: 'Artifacts' }).getByText('No artifacts yet').waitFor();
    for (const name of ['Edit', 'Move…', 'Coordinate', 'Cancel task', 'Delete']) {
      expect(await observer.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    expect(await seriousViolations(observer)).toEqual([]);
    expect(observerErrors).toEqual([]);
    await context.close();
  });

  it('should render a board of 1,000 tasks within 100 ms of their data', async () => {
    // No other page open: each new task's live event would make them read again meanwhile.
    await page.goto('about:blank');
    const existing = (await apiCall<Json[]>(env, ceo, 'GET', '/tasks?status=created&limit=1')).body.pagination as Json;
    const wanted = 1000 - Number(existing.total);
    for (let i = 0; i < wanted; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, wanted - i) }, (_, j) =>
          call(env, ceo, 'POST', '/tasks', {
            title: `Backlog item ${i + j + 1}`,
            description: 'Filed in bulk.',
            type: 'research',
            project,
            created_by: 'ceo',
          }),
        ),
      );
    }
    const { page: board } = await env.newPage();
    const boardErrors = watchErrors(board);
    await signIn(board, 'ceo', PASSWORD);
    await board.goto('/tasks');
    const created = column(board, 'created');
    await created.getByText('1000 tasks').waitFor();
    await created.locator('li').nth(49).waitFor();
    await board.waitForTimeout(500);
    expect(await created.locator('li').count()).toBe(50);

    /**
     * From the moment the created column's data has arrived to the moment its `cards` cards are in
     * the page: the render alone, whatever the network took.
     */
    const renderAfterData = async (cards: number, act: () => Promise<void>): Promise<number> => {
      await board.evaluate((wanted) => {
        performance.clearResourceTimings();
        const count = () => document.querySelectorAll('[data-testid="column-created"] li').length;
        const probe = { below: count() < wanted, at: 0 };
        (window as unknown as { probe: typeof probe }).probe = probe;
        const observer = new MutationObserver(() => {
          const now = count();
          if (now < wanted) {
            probe.below = true;
          } else if (probe.below && !probe.at) {
            probe.at = performance.now();
            observer.disconnect();
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }, cards);
      await act();
      await created
        .locator('li')
        .nth(cards - 1)
        .waitFor();
      await board.waitForFunction(() => (window as unknown as { probe: { at: number } }).probe.at > 0);
      return board.evaluate(() => {
        const reads = performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('/api/v1/tasks?') && entry.name.includes('status=created'))
          .map((entry) => (entry as PerformanceResourceTiming).responseEnd);
        return (window as unknown as { probe: { at: number } }).probe.at - Math.max(...reads);
      });
    };
    const pickProject = async (name: string) => {
      await board.getByRole('combobox', { name: 'Project' }).click();
      await board.getByRole('option', { name, exact: true }).click();
    };
    const showMore = () => created.getByRole('button', { name: /Show more created tasks/ }).click();

    // Five renders of fresh data: a new filter (the board anew), then 50 cards more four times.
    const samples = [
      await renderAfterData(50, () => pickProject('Website')),
      await renderAfterData(100, showMore),
      await renderAfterData(150, showMore),
      await renderAfterData(200, showMore),
      await renderAfterData(250, showMore),
    ];
    // The median: a machine busy with other work can stretch any one sample.
    const median = [...samples].sort((a, b) => a - b)[2];
    expect({ samples, fast: (median ?? Infinity) < 100 }).toEqual({ samples, fast: true });
    expect(await created.getByText('1000 tasks').count()).toBe(1);
    expect(boardErrors).toEqual([]);
  });

  it('should have reported no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
