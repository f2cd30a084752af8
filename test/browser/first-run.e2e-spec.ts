import type { Page } from 'playwright-core';

import { eventually } from '@app/testing';

import { call, type ConsoleEnv, screenshot, seriousViolations, startConsole, watchErrors } from './support/console';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(240_000);

const PASSWORD = 'correct-horse-battery-staple';
const NEW_PASSWORD = 'a-brand-new-passphrase-9';
const MANAGER_PASSWORD = 'given-by-the-ceo-123';
const MANAGER_OWN_PASSWORD = 'chosen-by-the-manager-456';

/**
 * The refusals a person meets on purpose here answer 400 (a loopback address before it is trusted)
 * or 401 (no session yet); the browser logs each as a failed resource. Anything else is an error.
 */
function unexpected(errors: string[]): string[] {
  return errors.filter((e) => !/^Failed to load resource: the server responded with a status of 40[01]/.test(e));
}

async function tokenFor(env: ConsoleEnv, username: string, password: string): Promise<string> {
  return (await call<{ token: string }>(env, '', 'POST', '/auth/login', { username, password })).token;
}

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { name, exact: true }).waitFor();
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

async function createAccount(page: Page): Promise<void> {
  await page.goto('/');
  await heading(page, 'Create the CEO account');
  await page.getByLabel('Username', { exact: true }).fill('ceo');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await heading(page, 'Create your company');
}

async function createCompany(page: Page): Promise<void> {
  await page.getByLabel('Company name', { exact: true }).fill('Northwind Labs');
  await page.getByLabel('Template', { exact: true }).selectOption('startup');
  await page.getByRole('region', { name: 'Preview: Tech Startup' }).waitFor();
  await page.getByRole('button', { name: 'Create company' }).click();
  await heading(page, 'Add a model provider');
}

describe('first run in a browser: from an empty database to a running company', () => {
  let env: ConsoleEnv;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    // As installed: loopback provider addresses are refused until the CEO trusts them.
    env = await startConsole({ SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'true' });
    ({ page } = await env.newPage());
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('should create the CEO account from the first page, signed in at once', async () => {
    await page.goto('/');
    await heading(page, 'Create the CEO account');
    expect(new URL(page.url()).pathname).toBe('/setup/account');
    await page.getByRole('banner').getByRole('heading', { level: 1, name: 'SynthOrg' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Setup progress' }).textContent()).toContain('Step 1 of 5');
    await expectAccessible(page);
    await screenshot(page, 'setup-1-account');

    await page.getByLabel('Username', { exact: true }).fill('ceo');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await heading(page, 'Create your company');
    expect(new URL(page.url()).pathname).toBe('/setup/company');
    expect(await page.getByRole('banner').textContent()).toContain('Signed in as ceo');
  });

  it('should preview a template and create the company from it', async () => {
    await page.getByLabel('Template', { exact: true }).selectOption('research_lab');
    await page.getByRole('region', { name: /Preview: Research/ }).waitFor();
    await page.getByLabel('Template', { exact: true }).selectOption('startup');
    const preview = page.getByRole('region', { name: 'Preview: Tech Startup' });
    expect(await preview.textContent()).toMatch(/3 departments.*\d+ agents/);
    // The roster it would hire, by department, before anything is created.
    await preview
      .getByText(/Full-Stack Developer/)
      .first()
      .waitFor();
    expect(await preview.textContent()).toMatch(/Engineering \(\d+% of the budget, led by the CTO\)/);
    await page.getByLabel('Company name', { exact: true }).fill('Northwind Labs');
    await expectAccessible(page);
    await screenshot(page, 'setup-2-company');

    await page.getByRole('button', { name: 'Create company' }).click();
    await heading(page, 'Add a model provider');
    expect(new URL(page.url()).pathname).toBe('/setup/provider');
  });

  it('should add the fake provider from a preset: trust its local address, test it, add it', async () => {
    await page.getByLabel('Preset', { exact: true }).selectOption('lm-studio');
    expect(await page.getByLabel('Base URL', { exact: true }).inputValue()).toBe('http://localhost:1234/v1');
    await page.getByLabel('Provider name', { exact: true }).fill('fake');
    await page.getByLabel('Base URL', { exact: true }).fill(`${env.mock.url}/v1`);
    await page.getByRole('button', { name: 'Test connection' }).click();

    const refused = page.getByRole('alert', { name: 'The provider was not saved' });
    await refused.waitFor();
    expect(await refused.textContent()).toContain('2014');
    await expectAccessible(page);
    await screenshot(page, 'setup-3-provider-refused');

    await page.getByRole('checkbox', { name: 'Trust this local address' }).check();
    await page.getByRole('button', { name: 'Test connection' }).click();
    const works = page.getByRole('status', { name: 'Connection to fake works' });
    await works.waitFor();
    expect(await works.textContent()).toMatch(/Answered in \d+ ms using mock-/);
    await expectAccessible(page);
    await screenshot(page, 'setup-3-provider-tested');

    await page.getByRole('button', { name: 'Add provider' }).click();
    await heading(page, 'Providers added (1)');
    expect(await page.getByRole('listitem').filter({ hasText: 'fake' }).textContent()).toMatch(/\d+ models?: mock-/);
    await page.getByRole('button', { name: 'Next: review agents' }).click();
    await heading(page, 'Review your agents');
  });

  it('should review the team: give the agents a model and rename one', async () => {
    const table = page.getByRole('table');
    await table.waitFor();
    const rows = await table.getByRole('row').count();
    expect(rows).toBeGreaterThan(2);
    const assign = page.getByRole('button', { name: /^Assign to \d+ agents?$/ });
    if (await assign.isVisible()) {
      await page.getByLabel('Model for agents without one', { exact: true }).selectOption('fake::mock-small');
      await assign.click();
      await assign.waitFor({ state: 'detached' });
    }
    await expectAccessible(page);

    const rename = page.getByRole('button', { name: /^Rename / }).first();
    const before = ((await rename.getAttribute('aria-label')) ?? '').replace(/^Rename /, '');
    await rename.click();
    await page.getByRole('textbox', { name: `New name for ${before}` }).fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: 'Rename Ada Lovelace' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'setup-4-agents');
    await page.getByRole('button', { name: 'Next: finish' }).click();
    await heading(page, 'Check and finish');
  });

  it('should finish setup and land on the overview with the navigation', async () => {
    expect(await page.getByRole('region', { name: 'Company' }).textContent()).toContain('Northwind Labs');
    expect(await page.getByRole('region', { name: 'Agents' }).textContent()).toContain('Ada Lovelace');
    await expectAccessible(page);
    await screenshot(page, 'setup-5-finish');

    await page.getByRole('button', { name: 'Finish setup' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    for (const link of ['Overview', 'Tasks', 'Approvals', 'Agents', 'Budget']) {
      expect(await nav.getByRole('link', { name: link }).isVisible()).toBe(true);
    }
    await screenshot(page, 'setup-6-overview');

    const token = await tokenFor(env, 'ceo', PASSWORD);
    const status = await call<Json>(env, token, 'GET', '/setup/status');
    expect(status).toMatchObject({ needs_admin: false, needs_setup: false, has_company: true, has_providers: true });
    const roster = await call<{ agents: Json[] }>(env, token, 'GET', '/setup/agents');
    expect(roster.agents.map((a) => a.name)).toContain('Ada Lovelace');
    expect(roster.agents.every((a) => a.model_provider === 'fake' && typeof a.model_id === 'string')).toBe(true);
  });

  it('should list the own sessions, sign out another one and change the password', async () => {
    // A second session of the CEO, as from another device.
    await tokenFor(env, 'ceo', PASSWORD);
    await page.goto('/account');
    await heading(page, 'Your sessions');
    const table = page.getByRole('table');
    await table.getByRole('row').nth(2).waitFor();
    expect(await table.getByRole('row').filter({ hasText: 'This session' }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'account');

    const before = await table.getByRole('row').count();
    await table
      .getByRole('button', { name: /^Sign out the session on / })
      .first()
      .click();
    await eventually(
      () => table.getByRole('row').count(),
      (count) => count === before - 1,
    );

    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password was changed').waitFor();
    expect(await page.getByLabel('Current password', { exact: true }).inputValue()).toBe('');
    // The new session the change gave this tab still works.
    await page.reload();
    await heading(page, 'Your sessions');
  });

  it('should sign out and sign in again with the new password', async () => {
    await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await heading(page, 'Sign in to SynthOrg');
    await expectAccessible(page);
    await screenshot(page, 'sign-in');

    await page.getByLabel('Username', { exact: true }).fill('ceo');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert', { name: 'Sign-in failed' }).waitFor();

    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  });

  it('should make a person with a password set by the CEO choose their own first', async () => {
    const token = await tokenFor(env, 'ceo', NEW_PASSWORD);
    await call(env, token, 'POST', '/users', { username: 'mia', password: MANAGER_PASSWORD, role: 'manager' });
    const { page: other } = await env.newPage();
    const otherErrors = watchErrors(other);
    // Until the password is changed the service refuses everything else (403): the console asks for
    // nothing it would refuse, the live-update ticket included.
    const refused: string[] = [];
    other.on('response', (response) => {
      if (response.status() === 403) {
        refused.push(new URL(response.url()).pathname);
      }
    });
    await other.goto('/login');
    await other.getByLabel('Username', { exact: true }).fill('mia');
    await other.getByLabel('Password', { exact: true }).fill(MANAGER_PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL((url) => url.pathname === '/account' && url.search.includes('change_password=1'));
    await other.getByText('Choose a new password to continue').waitFor();
    await expectAccessible(other);
    await screenshot(other, 'account-change-password');

    await other.getByLabel('Current password', { exact: true }).fill(MANAGER_PASSWORD);
    await other.getByLabel('New password', { exact: true }).fill(MANAGER_OWN_PASSWORD);
    await other.getByLabel('Confirm new password', { exact: true }).fill(MANAGER_OWN_PASSWORD);
    await other.getByRole('button', { name: 'Change password' }).click();
    await other.waitForURL((url) => url.pathname === '/');
    await other.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(refused).toEqual([]);
    expect(unexpected(otherErrors)).toEqual([]);
  });

  it('should have reported no errors in the page (no Content-Security-Policy refusals among them)', () => {
    expect(errors.filter((e) => /Content.Security.Policy/i.test(e))).toEqual([]);
    expect(unexpected(errors)).toEqual([]);
  });
});

describe('first run in a browser: closing the tab mid-way continues at the right step', () => {
  let env: ConsoleEnv;

  beforeAll(async () => {
    env = await startConsole();
  });

  afterAll(async () => {
    await env?.close();
  });

  it('should continue at the provider step after a reload, in a new tab, and after signing in again', async () => {
    const { context, page } = await env.newPage();
    const errors = watchErrors(page);
    await createAccount(page);
    await createCompany(page);

    await page.reload();
    await heading(page, 'Add a model provider');
    expect(new URL(page.url()).pathname).toBe('/setup/provider');
    expect(await page.getByRole('navigation', { name: 'Setup progress' }).textContent()).toContain('Step 3 of 5');

    // A new tab opened at the start: the service's state, not the address, says where to continue.
    const tab = await context.newPage();
    await tab.goto('/');
    await heading(tab, 'Add a model provider');
    expect(new URL(tab.url()).pathname).toBe('/setup/provider');
    // An address ahead of what exists gives way to the step that is next.
    await tab.goto('/setup/finish');
    await heading(tab, 'Add a model provider');
    await tab.close();

    // Another browser, without the session: sign in first, then the same step.
    const { page: fresh } = await env.newPage();
    await fresh.goto('/setup');
    await fresh.waitForURL((url) => url.pathname === '/login');
    await expectAccessible(fresh);
    await fresh.getByLabel('Username', { exact: true }).fill('ceo');
    await fresh.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    await heading(fresh, 'Add a model provider');
    expect(new URL(fresh.url()).pathname).toBe('/setup/provider');
    expect(unexpected(errors)).toEqual([]);
  });
});
