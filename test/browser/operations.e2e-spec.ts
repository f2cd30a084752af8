import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

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
const AUDITOR_PASSWORD = 'auditor-first-pass-1';

interface Agent {
  name: string;
  department: string;
  status: string;
}

/**
 * What an operator does without curl: providers, settings (and a conflicting edit), people and a
 * second person's limits, the audit trail, an agent's edit and firing, backups taken and restored.
 */
describe('operating the company in the console', () => {
  let env: ConsoleEnv;
  let ceo: string;
  let page: Page;
  let errors: string[];
  let backups: string;

  beforeAll(async () => {
    backups = mkdtempSync(join(tmpdir(), 'synthorg-console-backups-'));
    env = await startConsole({ SYNTHORG_BACKUP_PATH: backups });
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
    ({ page } = await env.newPage());
    errors = watchErrors(page);
    await signIn(page, 'ceo', CEO_PASSWORD);
  });

  afterAll(async () => {
    await env?.close();
    rmSync(backups, { recursive: true, force: true });
  });

  it('should add a provider from the fake’s preset, test it and discover its models', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Providers' }).click();
    await pageTitle(page, 'Providers');
    await page.getByRole('table', { name: 'Providers' }).getByRole('button', { name: 'fake' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Add provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a provider' });
    await dialog.getByLabel('Preset', { exact: true }).selectOption('lm-studio');
    await dialog.getByLabel('Provider name', { exact: true }).fill('studio');
    await dialog.getByLabel('Base URL', { exact: true }).fill(`${env.mock.url}/v1`);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    const refused = dialog.getByRole('alert', { name: 'The provider was not added' });
    // Where the service refuses loopback addresses, the person trusts this one and adds it again.
    if (await refused.isVisible({ timeout: 3000 }).catch(() => false)) {
      await dialog.getByRole('checkbox', { name: 'Trust this local address' }).check();
      await dialog.getByRole('button', { name: 'Add provider' }).click();
    }
    const detail = page.getByRole('region', { name: 'studio' });
    await detail.waitFor();
    await detail.getByRole('button', { name: 'Test connection' }).click();
    const works = detail.getByRole('status', { name: 'Connection to studio works' });
    await works.waitFor();
    expect(await works.textContent()).toMatch(/Answered in \d+ ms/);
    await detail.getByRole('button', { name: 'Discover models' }).click();
    await detail.getByText(/(Added \d+ models? to studio|No new models found for studio)/).waitFor();
    const models = detail.getByRole('table', { name: 'Models of studio' });
    await models.waitFor();
    expect(await models.getByRole('row').count()).toBeGreaterThan(1);
    await expectAccessible(page);
    await screenshot(page, 'providers');
  });

  it('should tune the launch settings of a local model, refusing a value out of range', async () => {
    await page.getByRole('button', { name: 'Add provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a provider' });
    await dialog.getByLabel('Preset', { exact: true }).selectOption('ollama');
    await dialog.getByLabel('Provider name', { exact: true }).fill('box');
    await dialog.getByLabel('Base URL', { exact: true }).fill(env.mock.url);
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    const refused = dialog.getByRole('alert', { name: 'The provider was not added' });
    if (await refused.isVisible({ timeout: 3000 }).catch(() => false)) {
      await dialog.getByRole('checkbox', { name: 'Trust this local address' }).check();
      await dialog.getByRole('button', { name: 'Add provider' }).click();
    }
    const detail = page.getByRole('region', { name: 'box' });
    await detail.waitFor();
    await detail.getByRole('button', { name: 'Discover models' }).click();
    await detail.getByText(/(Added \d+ models? to box|No new models found for box)/).waitFor();
    const models = detail.getByRole('table', { name: 'Models of box' });
    const tune = models.getByRole('button', { name: /^Edit the launch settings of / }).first();
    await tune.waitFor();
    const model = ((await tune.getAttribute('aria-label')) ?? '').replace('Edit the launch settings of ', '');
    const row = models
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: `Edit the launch settings of ${model}`, exact: true }) });
    expect(await row.textContent()).toContain('Runtime defaults');

    await tune.click();
    const form = page.getByRole('dialog', { name: `Launch settings of ${model}` });
    await form.getByLabel('Context window (tokens)').fill('64');
    await form.getByLabel('GPU layers').fill('0');
    await form.getByRole('button', { name: 'Save launch settings' }).click();
    await form.getByText('A whole number from 128 to 1,048,576, or empty for the runtime’s default').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'provider-launch-settings');
    await form.getByLabel('Context window (tokens)').fill('8192');
    await form.getByLabel('Repeat penalty').fill('1.1');
    await form.getByRole('button', { name: 'Save launch settings' }).click();
    await form.waitFor({ state: 'detached' });
    await row.getByText('context 8,192 · GPU layers 0 · repeat penalty 1.1').waitFor();
    const served = await call<Array<{ id: string; local_params: Record<string, number | null> | null }>>(
      env,
      ceo,
      'GET',
      '/providers/box/models',
    );
    expect(served.find((m) => m.id === model)?.local_params).toEqual({
      num_ctx: 8192,
      num_gpu_layers: 0,
      num_threads: null,
      num_batch: null,
      repeat_penalty: 1.1,
    });
    // Reopened, the form shows what was saved.
    await tune.click();
    expect(await form.getByLabel('Context window (tokens)').inputValue()).toBe('8192');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('should change a hot-applied setting and see it applied', async () => {
    const sinks = await call<Array<{ identifier: string; level: string; sink_type: string }>>(
      env,
      ceo,
      'GET',
      '/settings/observability/sinks',
    );
    const target = sinks.find((s) => s.sink_type === 'file') ?? sinks[0];
    const level = target.level === 'ERROR' ? 'WARNING' : 'ERROR';

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await pageTitle(page, 'Settings');
    await page.getByRole('tab', { name: 'Logging' }).click();
    const table = page.getByRole('table', { name: 'Log sinks' });
    const row = table.getByRole('row').filter({ hasText: target.identifier });
    await row.waitFor();
    expect(await row.textContent()).toContain(target.level);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Edit Sink overrides' }).click();
    const input = page.getByLabel('New value of Sink overrides');
    await input.fill(JSON.stringify({ [target.identifier]: { level } }));
    await page.getByRole('button', { name: 'Save Sink overrides' }).click();
    await page.getByText('Sink overrides was saved and applies now').waitFor();
    await row.filter({ hasText: level }).waitFor({ timeout: 10_000 });
    const item = page.getByRole('listitem', { name: 'Sink overrides' });
    expect(await item.textContent()).toContain('Saved here');
    await expectAccessible(page);
    await screenshot(page, 'settings');
  });

  it('should show a conflicting edit as a conflict', async () => {
    await page.getByRole('tab', { name: 'Backup' }).click();
    await page.getByRole('button', { name: 'Edit Schedule hours' }).click();
    const input = page.getByLabel('New value of Schedule hours');
    await input.waitFor();
    // Someone else saves the same setting meanwhile.
    await call(env, ceo, 'PUT', '/settings/backup/schedule_hours', { value: '12' });
    await input.fill('6');
    await page.getByRole('button', { name: 'Save Schedule hours' }).click();
    const conflict = page.getByRole('alert', { name: 'Changed by someone else' });
    await conflict.waitFor();
    expect(await conflict.textContent()).toContain('it is now 12');
    await expectAccessible(page);
    await screenshot(page, 'settings-conflict');
    // Loading the current value and saving again works.
    await page.getByRole('button', { name: 'Load the current value' }).click();
    await conflict.waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe('12');
    await input.fill('6');
    await page.getByRole('button', { name: 'Save Schedule hours' }).click();
    await page.getByText('Schedule hours was saved and applies now').waitFor();
  });

  it('should create a person who, signed in elsewhere, meets the limits of the role', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
    await pageTitle(page, 'People');
    await page.getByRole('table', { name: 'People' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'New person' }).click();
    const dialog = page.getByRole('dialog', { name: 'New person' });
    await dialog.getByLabel('Username').fill('auditor');
    await dialog.getByLabel(/^First password/).fill(AUDITOR_PASSWORD);
    await dialog.getByLabel('Role').selectOption('board_member');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('table', { name: 'People' }).getByText('auditor').waitFor();
    await screenshot(page, 'people');

    const second = await env.newPage();
    const other = second.page;
    await other.goto('/login');
    await other.getByLabel(/^Username/).fill('auditor');
    await other.getByLabel(/^Password/).fill(AUDITOR_PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByLabel(/^Current password/).fill(AUDITOR_PASSWORD);
    await other.getByLabel(/^New password/).fill(`${AUDITOR_PASSWORD}-own`);
    await other.getByLabel(/^Confirm new password/).fill(`${AUDITOR_PASSWORD}-own`);
    await other.getByRole('button', { name: 'Change password' }).click();
    await other.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    const nav = other.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Audit' }).waitFor();
    expect(await nav.getByRole('link', { name: 'People' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Backups' }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Settings' }).click();
    await other.getByText('Your role can read the settings but not change them.').waitFor();
    expect(await other.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Providers' }).click();
    await other.getByRole('table', { name: 'Providers' }).waitFor();
    expect(await other.getByRole('button', { name: 'Add provider' }).count()).toBe(0);
    await other.goto('/people');
    await other.getByText('Only the CEO manages people').waitFor();
    // The board member reads the audit trail, and it verifies.
    await nav.getByRole('link', { name: 'Audit' }).click();
    await other.getByRole('table', { name: 'Audit trail' }).waitFor();
    await screenshot(other, 'board-member-limits');
    await second.context.close();
  });

  it('should filter the audit trail, open a row and verify the chain', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await pageTitle(page, 'Audit');
    const table = page.getByRole('table', { name: 'Audit trail' });
    await table.waitFor();
    await page.getByLabel('Actor').fill('ceo');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/actor=ceo/);
    await table
      .getByRole('button', { name: /^Details of row/ })
      .first()
      .click();
    const detail = page.getByRole('dialog', { name: /^Audit row \d+/ });
    await detail.waitFor();
    expect(await detail.textContent()).toContain('ceo');
    await expectAccessible(page);
    await detail.getByRole('button', { name: 'Close dialog' }).click();
    await page.getByRole('button', { name: 'Verify' }).click();
    const verified = page.getByRole('status', { name: 'Verified' });
    await verified.waitFor();
    expect(await verified.textContent()).toMatch(/The trail is intact: \d+ rows checked/);
    await expectAccessible(page);
    await screenshot(page, 'audit');
  });

  it('should keep every new page accessible in both themes and usable at 768 px, and jump with Ctrl-K', async () => {
    const pages = [
      ['/providers', 'Providers'],
      ['/settings', 'Settings'],
      ['/people', 'People'],
      ['/audit', 'Audit'],
      ['/backups', 'Backups'],
      ['/meetings', 'Meetings'],
      ['/messages', 'Messages'],
      ['/artifacts', 'Artifacts'],
      ['/reports', 'Reports'],
    ] as const;
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
    // Dark theme: the switch, then the same pages again.
    await page.getByRole('switch', { name: 'Dark theme' }).check();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    try {
      for (const [path, title] of pages) {
        await page.goto(path);
        await pageTitle(page, title);
        await expectAccessible(page);
      }
      await screenshot(page, 'reports-dark');
    } finally {
      await page.getByRole('switch', { name: 'Dark theme' }).uncheck();
    }

    // A 768 px tablet: nothing wider than the screen.
    await page.setViewportSize({ width: 768, height: 1024 });
    for (const [path, title] of pages) {
      await page.goto(path);
      await pageTitle(page, title);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect({ path, width: width <= 768 }).toEqual({ path, width: true });
    }
    await screenshot(page, 'settings-tablet');
    await page.setViewportSize({ width: 1280, height: 860 });

    // The command palette: to an agent by part of its name.
    const agents = await call<Agent[]>(env, ceo, 'GET', '/agents?limit=200');
    await page.goto('/');
    await pageTitle(page, 'Overview');
    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Go to' });
    await palette.getByRole('combobox', { name: 'Page, agent or task' }).fill(agents[0].name.split(' ')[0]);
    await palette.getByRole('option', { name: new RegExp(agents[0].name) }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Enter');
    await pageTitle(page, agents[0].name);
  });

  it('should trigger a meeting and read its minutes', async () => {
    await call(env, ceo, 'PUT', '/settings/coordination/meeting_types', {
      value: JSON.stringify([{ name: 'kickoff', trigger: 'sprint_start', participants: ['all'] }]),
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Meetings' }).click();
    await pageTitle(page, 'Meetings');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Trigger a meeting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trigger a meeting' });
    await dialog.getByLabel('Event', { exact: true }).selectOption('sprint_start');
    await dialog.getByLabel(/^Agenda/).fill('Plan the launch');
    await dialog.getByRole('button', { name: 'Hold the meeting' }).click();
    const held = dialog.getByRole('status', { name: 'Held' });
    await held.waitFor({ timeout: 60_000 });
    await held.getByRole('link', { name: 'kickoff' }).click();
    await pageTitle(page, 'kickoff');
    await page.getByRole('region', { name: 'Token use' }).waitFor();
    await page.getByRole('region', { name: 'Contributions' }).waitFor();
    expect(await page.getByRole('region', { name: 'Contributions' }).getByRole('listitem').count()).toBeGreaterThan(0);
    await page.getByRole('region', { name: 'Decisions' }).waitFor();
    await page.getByRole('region', { name: 'Action items' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'meeting-minutes');
  });

  it('should edit an agent and then fire it, showing the offboarding record', async () => {
    const agents = await call<Agent[]>(env, ceo, 'GET', '/agents?limit=200');
    const agent = agents.find((a) => a.department !== 'executive' && a.status === 'active') ?? agents[1];
    await page.goto(`/agents/${encodeURIComponent(agent.name)}`);
    await pageTitle(page, agent.name);
    await page.getByRole('button', { name: 'Edit agent' }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${agent.name}` });
    await edit.getByLabel('Monthly budget').fill('75');
    await edit.getByLabel('Reason').fill('A budget of its own');
    await expectAccessible(page);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page
      .getByRole('region', { name: 'Profile' })
      .getByText(/75\.00/)
      .waitFor();

    await page.getByRole('button', { name: 'Fire agent' }).click();
    const fire = page.getByRole('dialog', { name: `Fire ${agent.name}?` });
    await fire.getByLabel('Reason').selectOption('performance');
    await fire.getByLabel(/^Details/).fill('Missed every deadline');
    await expectAccessible(page);
    await fire.getByRole('button', { name: `Fire ${agent.name}` }).click();
    const done = page.getByRole('dialog', { name: `${agent.name} was offboarded` });
    await done.waitFor();
    expect(await done.textContent()).toContain('Missed every deadline');
    await screenshot(page, 'agent-fired');
    await done.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('region', { name: 'Offboarding' }).waitFor();
    expect(await page.getByRole('button', { name: 'Fire agent' }).count()).toBe(0);
  });

  it('should take a backup and restore it, showing the safety backup', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Backups' }).click();
    await pageTitle(page, 'Backups');
    await page.getByRole('button', { name: 'Back up now' }).click();
    const table = page.getByRole('table', { name: 'Backups' });
    await table.waitFor();
    const restore = table.getByRole('button', { name: /^Restore backup / }).first();
    await restore.waitFor();
    await expectAccessible(page);
    await screenshot(page, 'backups');
    const label = (await restore.getAttribute('aria-label')) ?? '';
    const id = label.replace('Restore backup ', '');
    await restore.click();
    const dialog = page.getByRole('dialog', { name: `Restore backup ${id}?` });
    await dialog.getByRole('button', { name: `Restore ${id}` }).click();
    const restored = page
      .getByRole('dialog', { name: `Backup ${id} restored` })
      .getByRole('status', { name: 'Restored' });
    await restored.waitFor({ timeout: 30_000 });
    expect(await restored.textContent()).toMatch(/Safety backup taken first: [0-9a-f]{12}/);
    await expectAccessible(page);
    await screenshot(page, 'backup-restored');
  });

  it('should have reported no errors in the page', () => {
    // A refused request is reported by the browser as a console error; only those the flow meant.
    expect(errors.filter((e) => !/status of (409|400)/.test(e))).toEqual([]);
  });
});
