import type { Page } from 'playwright-core';

import { eventually } from '@app/testing';

import {
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

jest.setTimeout(180_000);

const PASSWORD = 'correct-horse-battery-staple';
const OBSERVER_PASSWORD = 'quiet-observer-password-2';

const item = (page: Page, title: string) => page.getByRole('article', { name: title });

/** The dialog's opening transition over: colours are measured as they end up, not half faded in. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const dialog = document.querySelector('[role="dialog"]');
    return (
      dialog !== null &&
      getComputedStyle(dialog).opacity === '1' &&
      dialog.getAnimations({ subtree: true }).length === 0
    );
  });
}

describe('the overview and the approval queue in a browser', () => {
  let env: ConsoleEnv;
  let ceo: string;
  let page: Page;
  let errors: string[];
  let escalatedTitle: string;
  const tasks: Record<string, string> = {};

  beforeAll(async () => {
    env = await startConsole({ SYNTHORG_BUDGET_TOTAL_MONTHLY: '40' });
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
    const agents = company.agents.map((agent) => agent.name as string);
    const project = (await call<{ id: string }>(env, ceo, 'POST', '/projects', { name: 'Customer portal' })).id;
    const task = async (title: string, assignee?: string) => {
      const created = await call<{ id: string }>(env, ceo, 'POST', '/tasks', {
        title,
        description: `${title}.`,
        type: 'development',
        project,
        created_by: 'ceo',
        ...(assignee ? { assigned_to: assignee } : {}),
      });
      tasks[title] = created.id;
      return created.id;
    };

    // A real escalation: a locked agent's file write waits for a person, with the exact call.
    const careful = agents[0];
    await call(env, ceo, 'PUT', `/agents/${encodeURIComponent(careful)}/autonomy`, {
      level: 'locked',
      reason: 'New pricing is reviewed before it ships',
    });
    env.mock.enqueue({
      kind: 'tool_calls',
      calls: [
        {
          name: 'write_file',
          arguments: { path: 'config/pricing.yaml', content: 'plan: team\nprice_per_seat: 12\ncurrency: USD\n' },
        },
      ],
    });
    const pricing = await task('Update the pricing page', careful);
    const parked = await eventually(
      () => call<Json[]>(env, ceo, 'GET', '/approvals?status=pending'),
      (items) => items.some((x) => x.task_id === pricing),
      60_000,
    );
    escalatedTitle = parked.find((x) => x.task_id === pricing)?.title as string;

    // Work that ran (spend, activity) and work still open.
    const others = agents.slice(1);
    const finished = [
      await task('Write the onboarding emails', others[0] ?? careful),
      await task('Fix the login redirect', others[1] ?? others[0] ?? careful),
    ];
    await task('Draft the Q3 roadmap');
    await task('Review the accessibility audit');
    await eventually(
      () => Promise.all(finished.map((id) => call<Json>(env, ceo, 'GET', `/tasks/${id}`))),
      (rows) => rows.every((row) => ['completed', 'in_review', 'failed', 'blocked'].includes(row.status as string)),
      60_000,
    );

    await call(env, ceo, 'POST', '/approvals', {
      action_type: 'deploy:production',
      title: 'Deploy the customer portal to production',
      description: 'Release v2.4.0: the new onboarding flow and the login fix. All checks passed on staging.',
      risk_level: 'high',
      ttl_seconds: 2 * 3600,
      task_id: tasks['Fix the login redirect'],
      metadata: { environment: 'production', version: 'v2.4.0' },
    });

    ({ page } = await env.newPage());
    errors = watchErrors(page);
    await signIn(page, 'ceo', PASSWORD);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('should show the overview with spend, budget, staff, approvals, tasks and activity', async () => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const approvals = page.getByRole('region', { name: 'Pending approvals' });
    await approvals.getByText('2', { exact: true }).waitFor();
    const tasksPanel = page.getByRole('region', { name: 'Tasks by status' });
    expect(await tasksPanel.textContent()).toContain('5 tasks in all');
    const budget = page.getByRole('region', { name: 'Budget this period' });
    await budget.getByText(/% used/).waitFor();
    await budget.getByText(/Runs out in|Not on course|No spend yet/).waitFor();
    const feed = page.getByRole('list', { name: 'Recent activity' });
    await feed.getByRole('listitem').first().waitFor();
    await feed.getByRole('link', { name: 'Write the onboarding emails' }).first().waitFor();
    await live(page);
    await screenshot(page, 'overview');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('should list pending requests with the exact call an agent wants to run', async () => {
    await page.goto('/approvals');
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const escalated = item(page, escalatedTitle);
    await escalated.waitFor();
    await item(page, 'Deploy the customer portal to production').waitFor();
    const text = await escalated.textContent();
    expect(text).toContain('Wants to run write_file with these arguments');
    expect(text).toContain('"path": "config/pricing.yaml"');
    await escalated.getByRole('link', { name: 'Update the pricing page' }).waitFor();
    expect(await page.getByRole('article').first().getAttribute('aria-labelledby')).toBeTruthy();
    await live(page);
    await screenshot(page, 'approvals');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('should show a request filed through the API without a reload and approve it with a comment', async () => {
    await live(page);
    const filed = await call<Json>(env, ceo, 'POST', '/approvals', {
      action_type: 'comms:external',
      title: 'Send the launch announcement to 1,200 customers',
      description: 'The announcement email for v2.4.0, to every customer on the newsletter list.',
      risk_level: 'medium',
      ttl_seconds: 8 * 3600,
      metadata: { audience: 'newsletter (1,200 addresses)', template: 'launch-v2.4' },
    });
    const card = item(page, 'Send the launch announcement to 1,200 customers');
    await card.waitFor({ timeout: 15_000 });
    await page
      .getByRole('tab', { name: /Pending/ })
      .getByText('3')
      .waitFor();

    await card.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Comment').fill('Approved for the launch window');
    await settled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.waitFor({ state: 'detached' });

    const decided = await call<Json>(env, ceo, 'GET', `/approvals/${filed.id}`);
    expect(decided).toMatchObject({
      status: 'approved',
      decided_by: 'ceo',
      decision_reason: 'Approved for the launch window',
    });

    await page.getByRole('tab', { name: 'Approved' }).click();
    const history = item(page, 'Send the launch announcement to 1,200 customers');
    await history.waitFor();
    expect(await history.textContent()).toContain('Comment: Approved for the launch window');
    await page.getByRole('tab', { name: /Pending/ }).click();
  });

  it('should reject with a reason', async () => {
    const filed = await call<Json>(env, ceo, 'POST', '/approvals', {
      action_type: 'budget:exceed',
      title: 'Raise the research budget by $200',
      description: 'The market study needs more model calls than planned.',
      risk_level: 'critical',
      ttl_seconds: 1800,
    });
    const card = item(page, 'Raise the research budget by $200');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('Urgent: expires');
    await card.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Give a reason for the rejection').waitFor();
    await dialog.getByLabel('Reason').fill('Not this quarter');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.waitFor({ state: 'detached' });

    const decided = await call<Json>(env, ceo, 'GET', `/approvals/${filed.id}`);
    expect(decided).toMatchObject({ status: 'rejected', decision_reason: 'Not this quarter' });
  });

  it('should take a decision made elsewhere off the pending list without a reload', async () => {
    const card = item(page, 'Deploy the customer portal to production');
    await card.waitFor();
    const [pending] =
      (await call<Json[]>(env, ceo, 'GET', '/approvals?status=pending&action_type=deploy:production')) ?? [];
    await call(env, ceo, 'POST', `/approvals/${pending.id}/reject`, { reason: 'Wait for the security review' });
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('tab', { name: 'Rejected' }).click();
    const history = item(page, 'Deploy the customer portal to production');
    await history.waitFor();
    expect(await history.textContent()).toContain('Reason: Wait for the security review');
  });

  it('should show an Observer the requests without Approve or Reject', async () => {
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
    const { page: observer } = await env.newPage();
    const observerErrors = watchErrors(observer);
    await signIn(observer, 'watcher', OBSERVER_PASSWORD);
    await observer.goto('/approvals');
    const card = item(observer, escalatedTitle);
    await card.waitFor();
    expect(await observer.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await observer.getByRole('button', { name: 'Reject' }).count()).toBe(0);
    await observer.getByText(/Deciding them takes the CEO, Manager or Board member role/).waitFor();
    expect(await seriousViolations(observer)).toEqual([]);
    expect(observerErrors).toEqual([]);
  });

  it('should report no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
