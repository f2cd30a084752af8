import {
  apiCall,
  type ConsoleEnv,
  screenshot,
  seriousViolations,
  signIn,
  startConsole,
  watchErrors,
} from './support/console';

jest.setTimeout(180_000);

const CEO_PASSWORD = 'ceo-password-long-1';
const OBSERVER_PASSWORD = 'observer-password-1';

interface Agent {
  id: string;
  name: string;
  role: string;
  department: string;
}

/** Polls `read` until `done` holds (the engine works on its own time). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('agents and budget in the console', () => {
  let env: ConsoleEnv;
  let ceo: string;
  let agents: Agent[];

  beforeAll(async () => {
    env = await startConsole();
    const admin = await apiCall<{ token: string }>(env, null, 'POST', '/auth/setup', {
      username: 'ceo',
      password: CEO_PASSWORD,
    });
    expect(admin.status).toBe(201);
    ceo = admin.data.token;
    expect(
      (await apiCall(env, ceo, 'POST', '/setup/company', { company_name: 'Northwind Labs', template_name: 'startup' }))
        .status,
    ).toBe(201);
    const provider = await apiCall(env, ceo, 'POST', '/providers', {
      name: 'fake',
      gateway_provider: 'openai',
      auth_type: 'none',
      base_url: `${env.mock.url}/v1`,
      models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
    });
    expect(provider.status).toBe(201);
    const complete = await apiCall(env, ceo, 'POST', '/setup/complete');
    expect(complete.status).toBeLessThan(300);
    agents = (await apiCall<Agent[]>(env, ceo, 'GET', '/agents?limit=200')).data;

    // Some spend, so the records, the breakdown and the forecast have something to show.
    const project = await apiCall<{ id: string }>(env, ceo, 'POST', '/projects', { name: 'Launch' });
    const worker = agents.find((a) => a.department === 'engineering') ?? agents[0];
    const task = await apiCall<{ id: string }>(env, ceo, 'POST', '/tasks', {
      title: 'Draft the landing page copy',
      description: 'A first draft of the landing page copy.',
      type: 'development',
      project: project.data.id,
      created_by: 'ceo',
      assigned_to: worker?.name,
    });
    expect(task.status).toBe(201);
    await eventually(
      () => apiCall<unknown[]>(env, ceo, 'GET', '/budget/records'),
      (r) => Array.isArray(r.data) && r.data.length > 0,
    );

    const observer = await apiCall(env, ceo, 'POST', '/users', {
      username: 'watcher',
      password: OBSERVER_PASSWORD,
      role: 'observer',
    });
    expect(observer.status).toBe(201);
    const login = await apiCall<{ token: string }>(env, null, 'POST', '/auth/login', {
      username: 'watcher',
      password: OBSERVER_PASSWORD,
    });
    const changed = await apiCall(env, login.data.token, 'POST', '/auth/change-password', {
      current_password: OBSERVER_PASSWORD,
      new_password: `${OBSERVER_PASSWORD}-new`,
    });
    expect(changed.status).toBeLessThan(300);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('should show the template’s agents grouped by department, and an agent’s profile', async () => {
    const { page } = await env.newPage();
    const errors = watchErrors(page);
    await signIn(page, 'ceo', CEO_PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();

    for (const department of ['Executive', 'Engineering', 'Product']) {
      const section = page.getByRole('region', { name: department });
      await section.waitFor();
      const members = agents.filter((a) => a.department === department.toLowerCase());
      expect(members.length).toBeGreaterThan(0);
      for (const agent of members) {
        await section.getByRole('link', { name: agent.name, exact: true }).first().waitFor();
      }
    }
    expect(agents).toHaveLength(5);
    await screenshot(page, 'agents');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'All agents' }).click();
    await page
      .getByRole('table')
      .getByRole('link', { name: agents[4]?.name ?? '' })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Org chart' }).click();

    const cto = agents.find((a) => a.role === 'CTO') as Agent;
    await page
      .getByRole('region', { name: 'Engineering' })
      .getByRole('link', { name: cto.name, exact: true })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: cto.name }).waitFor();
    const profile = page.getByRole('region', { name: 'Profile' });
    await profile.getByText('CTO', { exact: true }).waitFor();
    await profile.getByText('Engineering', { exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Performance' }).waitFor();
    await page.getByRole('img', { name: /Tasks per window/ }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'agent-detail');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Autonomy and trust' }).click();
    await page.getByRole('region', { name: 'Autonomy' }).waitFor();
    await page.getByRole('button', { name: 'Save autonomy' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Budget and spend' }).click();
    await page.getByText('Spent in total').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('should show the configuration and the forecast, and save a budget edit made by the CEO', async () => {
    const { page } = await env.newPage();
    const errors = watchErrors(page);
    await signIn(page, 'ceo', CEO_PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budget' }).click();
    await page.getByRole('heading', { level: 1, name: 'Budget' }).waitFor();
    const config = page.getByRole('region', { name: 'Configuration' });
    await config.getByText('Limit per task').waitFor();
    const forecast = page.getByRole('region', { name: 'Forecast' });
    await forecast.getByText('Budget runs out').waitFor();

    await config.getByRole('button', { name: 'Edit configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit budget configuration' });
    await dialog.getByLabel(/^Monthly budget/).fill('50');
    await dialog.getByLabel(/^Warning at/).fill('70');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save configuration' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const stored = await apiCall<{ total_monthly: number; alerts: { warn_at: number } }>(
      env,
      ceo,
      'GET',
      '/budget/config',
    );
    expect(stored.data.total_monthly).toBe(50);
    expect(stored.data.alerts.warn_at).toBe(70);
    await config.getByText('warning 70%', { exact: false }).waitFor();
    await forecast.getByRole('img').first().waitFor();
    await page.getByText('2 budget settings saved').waitFor();
    await page.getByRole('button', { name: 'Close notification' }).click();
    await page.getByText('2 budget settings saved').waitFor({ state: 'hidden' });
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'budget');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('should offer an Observer no edit controls', async () => {
    const { page } = await env.newPage();
    const errors = watchErrors(page);
    await signIn(page, 'watcher', `${OBSERVER_PASSWORD}-new`);
    await page.goto('/budget');
    await page.getByRole('region', { name: 'Configuration' }).getByText('Limit per task').waitFor();
    expect(await page.getByRole('button', { name: 'Edit configuration' }).count()).toBe(0);

    await page.goto(`/agents/${encodeURIComponent(agents[0]?.name ?? '')}?tab=autonomy`);
    await page.getByRole('region', { name: 'Autonomy' }).waitFor();
    await page.getByRole('region', { name: 'Trust' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save autonomy' }).count()).toBe(0);
    expect(await page.getByLabel('Autonomy level').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
