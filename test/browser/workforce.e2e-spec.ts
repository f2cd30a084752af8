import type { Page } from 'playwright-core';

import { eventually } from '@app/testing';

import {
  apiCall,
  call,
  type ConsoleEnv,
  expectAccessible,
  pageTitle,
  screenshot,
  signIn,
  startConsole,
  watchErrors,
} from './support/console';

jest.setTimeout(240_000);

const CEO_PASSWORD = 'ceo-password-long-1';

/** The workforce without curl: a hiring request filed, a candidate chosen by cost, hired, then fired. */
describe('hiring and firing in the console', () => {
  let env: ConsoleEnv;
  let ceo: string;
  let page: Page;
  let errors: string[];
  let department: string;

  beforeAll(async () => {
    // Memory wired to the fake provider's embeddings, so organization facts can be kept.
    env = await startConsole({
      SYNTHORG_MEMORY_EMBEDDER_PROVIDER: 'fake',
      SYNTHORG_MEMORY_EMBEDDER_MODEL: 'mock-embed',
    });
    const admin = await apiCall<{ token: string }>(env, null, 'POST', '/auth/setup', {
      username: 'ceo',
      password: CEO_PASSWORD,
    });
    expect(admin.status).toBe(201);
    ceo = admin.data.token;
    await call(env, ceo, 'POST', '/setup/company', { company_name: 'Northwind Labs', template_name: 'startup' });
    await call(env, ceo, 'POST', '/providers', {
      name: 'fake',
      gateway_provider: 'openai',
      auth_type: 'none',
      base_url: `${env.mock.url}/v1`,
      models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
    });
    await call(env, ceo, 'POST', '/setup/complete');
    const departments = await call<Array<{ name: string }>>(env, ceo, 'GET', '/company/departments');
    department = (departments.find((d) => d.name !== 'executive') ?? departments[0]).name;
    ({ page } = await env.newPage());
    errors = watchErrors(page);
    await signIn(page, 'ceo', CEO_PASSWORD);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('should hire an agent from the Agents page and then fire it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
    await pageTitle(page, 'Agents');
    await page.getByRole('link', { name: 'Hire an agent' }).click();
    await pageTitle(page, 'Hiring');
    const form = page.getByRole('region', { name: 'Hire an agent' });
    await form.getByLabel(/^Department/).selectOption(department);
    await form.getByLabel(/^Role/).fill('Full-Stack Developer');
    await form.getByLabel(/^Level/).selectOption('senior');
    await form.getByLabel(/^Required skills/).fill('typescript, testing');
    await form.getByLabel(/^Reason/).fill('The backlog outgrew the team');
    await form.getByLabel(/^Monthly budget limit/).fill('40');
    await expectAccessible(page);
    await form.getByRole('button', { name: 'File the request' }).click();

    const detail = page.getByRole('region', { name: /Full-Stack Developer/ });
    await detail.waitFor();
    const candidates = detail.getByRole('radio');
    await candidates.first().waitFor();
    expect(await detail.getByText(/^\$[\d,.]+ a month$/).count()).toBe(await candidates.count());
    expect(await candidates.first().isChecked()).toBe(true);
    // The request appears in the list, approved by the CEO's own act.
    await page.getByRole('region', { name: 'Hiring requests' }).getByRole('table').getByText('Approved').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'hiring');

    await detail.getByRole('button', { name: 'Hire the selected candidate' }).click();
    const hired = detail.getByRole('status').getByRole('link');
    await hired.waitFor();
    const name = (await hired.textContent()) ?? '';
    expect(name).not.toBe('');
    const agent = await call<{ status: string; department: string }>(
      env,
      ceo,
      'GET',
      `/agents/${encodeURIComponent(name)}`,
    );
    expect(agent.department).toBe(department);

    await hired.click();
    await pageTitle(page, name);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Fire agent' }).click();
    const fire = page.getByRole('dialog', { name: `Fire ${name}?` });
    await fire.getByLabel('Reason').selectOption('project_completion');
    await fire.getByLabel(/^Details/).fill('Hired for the launch only');
    await fire.getByRole('button', { name: `Fire ${name}` }).click();
    const done = page.getByRole('dialog', { name: `${name} was offboarded` });
    await done.waitFor();
    expect(await done.textContent()).toContain('Hired for the launch only');
    await done.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('region', { name: 'Offboarding' }).waitFor();
  });

  it('should filter the hiring requests by status', async () => {
    await page.goto('/hiring');
    await pageTitle(page, 'Hiring');
    const list = page.getByRole('region', { name: 'Hiring requests' });
    await list.getByRole('table').getByText('Instantiated').waitFor();
    await list.getByLabel('Status').selectOption('pending');
    await list.getByText('No hiring requests').waitFor();
    await expectAccessible(page);
  });

  it('should show the memory status and keep an organization fact', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Memory' }).click();
    await pageTitle(page, 'Memory');
    await page
      .getByRole('status', { name: 'Memory status' })
      .getByText(/^Wired/)
      .waitFor();
    const form = page.getByRole('form', { name: 'Add a fact' });
    await form.getByLabel(/^Category/).selectOption('procedure');
    await form.getByLabel(/^Fact/).fill('Deploys happen on Tuesdays');
    await form.getByRole('button', { name: 'Add fact' }).click();
    const table = page.getByRole('table', { name: 'Organization facts' });
    await table.getByText('Deploys happen on Tuesdays').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'memory');
    await table.getByRole('button', { name: /^Delete the fact “Deploys/ }).click();
    await table.getByText('Deploys happen on Tuesdays').waitFor({ state: 'detached' });
  });

  it('should evaluate an agent’s level and show the criteria and the decision', async () => {
    const agents = await call<Array<{ name: string; department: string; status: string }>>(
      env,
      ceo,
      'GET',
      '/agents?limit=200',
    );
    const agent = agents.find((a) => a.status === 'active' && a.department !== 'executive') ?? agents[0];
    await page.goto(`/agents/${encodeURIComponent(agent.name)}?tab=career`);
    await pageTitle(page, agent.name);
    const panel = page.getByRole('region', { name: 'Level evaluation' });
    await panel.getByRole('button', { name: 'Evaluate level' }).click();
    const decision = panel.getByRole('status', { name: 'Decision' });
    await decision.waitFor();
    expect(await decision.textContent()).toMatch(/^(Stays|Promoted to|Demoted to|A move to) /);
    const criteria = panel.getByRole('table', { name: 'Criteria of the evaluation' });
    expect(await criteria.getByRole('row').count()).toBeGreaterThan(1);
    expect(await panel.textContent()).toMatch(/\d+ promotion and \d+ demotion criteria met of the \d+ needed/);
    await expectAccessible(page);
    await screenshot(page, 'agent-level-evaluation');
  });

  it('should search an agent’s memories and delete one', async () => {
    const agents = await call<Array<{ name: string; department: string; status: string }>>(
      env,
      ceo,
      'GET',
      '/agents?limit=200',
    );
    const agent = agents.find((a) => a.status === 'active' && a.department !== 'executive') ?? agents[0];
    const path = `/agents/${encodeURIComponent(agent.name)}/memories`;
    // Two finished tasks: each leaves an episodic memory (the fake provider answers and embeds).
    const project = await call<{ id: string }>(env, ceo, 'POST', '/projects', { name: 'Operations' });
    const ids: string[] = [];
    for (const title of ['Find when the staging database rotation runs', 'Draft the landing page headline']) {
      const task = await call<{ id: string }>(env, ceo, 'POST', '/tasks', {
        title,
        description: `${title}.`,
        type: 'research',
        project: project.id,
        created_by: 'ceo',
        assigned_to: agent.name,
      });
      ids.push(task.id);
    }
    await eventually(
      () => call<Array<{ task_id: string | null }>>(env, ceo, 'GET', path),
      (rows) => ids.every((id) => rows.some((m) => m.task_id === id)),
      90_000,
    );

    await page.goto(`/agents/${encodeURIComponent(agent.name)}?tab=memories`);
    await pageTitle(page, agent.name);
    const newest = page.getByRole('list', { name: 'Memories, newest first' });
    await newest.getByText(/staging database rotation/).waitFor();
    await newest.getByText(/landing page headline/).waitFor();
    const search = page.getByRole('search', { name: `Search the memories of ${agent.name}` });
    await search.getByLabel('Search').fill('staging database rotation');
    await search.getByRole('button', { name: 'Search memories' }).click();
    const matches = page.getByRole('list', { name: 'Matching memories, best first' });
    await matches.waitFor();
    expect(await matches.getByRole('listitem').first().textContent()).toContain('staging database rotation');
    expect(await matches.getByRole('listitem').first().textContent()).toMatch(/relevance \d\.\d\d/);
    await expectAccessible(page);
    await screenshot(page, 'agent-memories');

    await matches
      .getByRole('listitem')
      .first()
      .getByRole('button', { name: /^Delete the memory “Task "Find when the staging/ })
      .click();
    await page.getByText('The memory was deleted').waitFor();
    await matches.getByText(/staging database rotation/).waitFor({ state: 'detached' });
    await search.getByRole('button', { name: 'Show all' }).click();
    await newest.getByText(/landing page headline/).waitFor();
    expect(await newest.getByText(/staging database rotation/).count()).toBe(0);
    const left = await call<Array<{ task_id: string | null }>>(env, ceo, 'GET', path);
    expect(left.some((m) => m.task_id === ids[0])).toBe(false);
    expect(left.some((m) => m.task_id === ids[1])).toBe(true);
  });

  it('should keep the new pages accessible in the dark theme and usable at 768 px', async () => {
    const pages = [
      ['/hiring', 'Hiring'],
      ['/memory', 'Memory'],
    ] as const;
    await page.getByRole('switch', { name: 'Dark theme' }).check();
    try {
      for (const [path, title] of pages) {
        await page.goto(path);
        await pageTitle(page, title);
        await page
          .getByRole('status')
          .filter({ hasText: /Loading/ })
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        await expectAccessible(page);
      }
    } finally {
      await page.getByRole('switch', { name: 'Dark theme' }).uncheck();
    }
    await page.setViewportSize({ width: 768, height: 1024 });
    try {
      for (const [path, title] of pages) {
        await page.goto(path);
        await pageTitle(page, title);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect({ path, width: width <= 768 }).toEqual({ path, width: true });
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('should have reported no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
