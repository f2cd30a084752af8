import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

import { createTestDatabase, type TestDatabase } from '@app/testing';

import { type ChildServer, type MockLlm, startChildServer, startMockLlm } from '../../support';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../support/chromium';

// A built server, the fake provider and Chromium per file; a flow clicks through several pages.
jest.setTimeout(90_000);

export { CHROMIUM };
/** The built console; SYNTHORG_TEST_WEB_DIR points at another build. */
const WEB_DIR = process.env.SYNTHORG_TEST_WEB_DIR ?? resolve(__dirname, '../../../dist/web');
/** Where the browser tests leave their screenshots (the README shows two of them). */
export const SCREENSHOTS = resolve(__dirname, '../../../docs/screenshots');

export interface ConsoleEnv {
  server: ChildServer;
  mock: MockLlm;
  browser: Browser;
  db: TestDatabase;
  /** A fresh browser profile (own cookies) with a page on the console. */
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * The built server (dist/, with the console in dist/web) on a fresh SQLite database, the fake
 * provider on loopback, and Chromium: the console as a person meets it.
 */
export async function startConsole(extraEnv: Record<string, string> = {}): Promise<ConsoleEnv> {
  if (!existsSync(join(WEB_DIR, 'index.html'))) {
    throw new Error(`${WEB_DIR}/index.html does not exist: run npm run build first`);
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: bash .ci/provision.sh installs Debian's chromium`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'synthorg-console-'));
  const db = await createTestDatabase('sqlite');
  const mock = await startMockLlm();
  const server = await startChildServer(dir, db, { SYNTHORG_WEB_DIR: WEB_DIR, ...extraEnv });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS], headless: true });
  const contexts: BrowserContext[] = [];
  return {
    server,
    mock,
    browser,
    db,
    async newPage() {
      // Reduced motion: dialogs and menus appear at once, so axe never judges a half-faded colour.
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 1280, height: 860 },
        reducedMotion: 'reduce',
      });
      contexts.push(context);
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await Promise.allSettled(contexts.map((c) => c.close()));
      await browser.close().catch(() => undefined);
      await server.kill('SIGTERM');
      await mock.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Saves what the person sees, for review and for the README. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Collects what the page reports wrong: console errors (CSP refusals among them) and failed scripts. */
/** axe finds nothing serious or critical on the page as it stands. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** Waits for the page's title: its one level-1 heading. */
export async function pageTitle(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The API, called as a script would (bearer token), to set up what a test then watches in the UI. */
export async function apiCall<T = unknown>(
  env: ConsoleEnv,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: T; body: Record<string, unknown> }> {
  const response = await fetch(`${env.server.url}/api/v1${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, data: parsed.data as T, body: parsed };
}

/** An API call that must succeed: the envelope's data, or an error naming the call and its answer. */
export async function call<T = Record<string, unknown>>(
  env: ConsoleEnv,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await apiCall<T>(env, token, method, path, body);
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return res.data;
}

/** Signs in through the sign-in page and waits until it has left it. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Live updates connected: what happens elsewhere from now on reaches the page. */
export async function live(page: Page): Promise<void> {
  await page.getByRole('status', { name: 'Live updates: Live' }).waitFor();
}
