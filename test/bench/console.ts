// The console, as a browser meets it (BENCH_ONLY=console): the built service on SQLite with a company
// of 1,000 tasks and 20 pending approvals, Debian's Chromium driven by playwright-core. Prints
// (1) the JavaScript a cold first load of the overview fetches, gzipped, and how much of it came
// before the first paint; (2) how long the task board takes to render 1,000 tasks once their data is
// in (median of reloads); (3) Lighthouse's performance and accessibility scores (desktop preset) of
// the overview, the task board, the approvals and the operator's pages (providers, settings, people,
// audit, backups, meetings, messages, artifacts, reports, hiring with a request's candidates, memory,
// an agent's memories), run with `npx lighthouse` when the registry is reachable (it is not a
// dependency of the project). BENCH_CONSOLE_PAGES (a comma list of those names) audits only some.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { chromium, type Page } from 'playwright-core';

// eslint-disable-next-line no-restricted-imports
import { createTestDatabase } from '../../libs/testing/src/databases';
import { startMockLlm } from '../../apps/mock-llm/src';
import { CHROMIUM, CHROMIUM_FLAGS } from '../support/chromium';

import { median, releaseScratch, type RunningServer, startScratchService } from './harness';
import { setUpCompany } from './seeding';

const TASKS = Number(process.env.BENCH_CONSOLE_TASKS ?? 1000);
const RELOADS = Number(process.env.BENCH_CONSOLE_RELOADS ?? 5);
/** The bench prints its figures: one line each. */
const out = (line: string): void => void process.stdout.write(`${line}\n`);
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE ?? 'lighthouse@13.5.0';
/** The pages Lighthouse audits, by name; all when unset. */
const PAGES = (process.env.BENCH_CONSOLE_PAGES ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);

type Json = Record<string, unknown>;

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as { data?: Json };
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(parsed).slice(0, 300)}`);
  }
  return parsed.data ?? {};
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(
  items: T[],
  width: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

/** 1,000 tasks spread over the board's columns (the engine is off, so nothing runs), 20 approvals. */
async function seed(base: string, token: string, agents: string[]): Promise<void> {
  const projects = ['Website', 'Onboarding', 'Billing', 'Mobile app'];
  for (const name of projects) {
    await call(base, token, 'POST', '/projects', { name, description: 'Seeded for the console benchmark.' });
  }
  await inParallel(
    Array.from({ length: TASKS }, (_, i) => i),
    8,
    async (i) => {
      const task = await call(base, token, 'POST', '/tasks', {
        title: `Task ${i + 1}: ${['Fix', 'Write', 'Review', 'Plan', 'Ship'][i % 5]} ${projects[i % 4].toLowerCase()} item`,
        description: 'Seeded for the console benchmark.',
        project: projects[i % 4],
        type: 'development',
        created_by: 'bench',
      });
      const id = String(task.id);
      const path = ['assigned', 'in_progress', 'in_review', 'completed'].slice(0, i % 5);
      for (const status of path) {
        await call(base, token, 'POST', `/tasks/${id}/transition`, {
          target_status: status,
          ...(status === 'assigned' ? { assigned_to: agents[i % agents.length] } : {}),
        });
      }
    },
  );
  for (let i = 0; i < 20; i += 1) {
    await call(base, token, 'POST', '/approvals', {
      title: `Deploy release 1.${i} to production`,
      description: 'Seeded for the console benchmark.',
      action_type: 'deploy:production',
      risk_level: ['low', 'medium', 'high', 'critical'][i % 4],
    });
  }
}

/**
 * What the workforce and memory pages show: a hiring request with its candidates (the CEO's own,
 * so approved at once) and an organization fact. Returns the request's id.
 */
async function seedWorkforce(base: string, token: string): Promise<string> {
  const request = await call(base, token, 'POST', '/hiring/requests', {
    department: 'engineering',
    role: 'Backend Developer',
    level: 'senior',
    required_skills: ['typescript', 'postgres'],
    reason: 'Seeded for the console benchmark.',
    budget_limit_monthly: 40,
  });
  await call(base, token, 'POST', '/memory/org', {
    category: 'procedure',
    content: 'Releases ship on Tuesdays after the review meeting.',
  });
  return String(request.id);
}

async function sessionCookies(base: string): Promise<Array<{ name: string; value: string }>> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-password-0123' }),
  });
  return res.headers.getSetCookie().map((raw) => {
    const [pair] = raw.split(';');
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1) };
  });
}

/** Cold load of the overview: every script fetched, gzipped, and those that arrived before the first paint. */
async function firstLoad(page: Page, base: string): Promise<void> {
  const scripts: Array<{ url: string; bytes: number; gzip: number }> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      void response.body().then(
        (body) => scripts.push({ url: response.url(), bytes: body.length, gzip: gzipSync(body, { level: 9 }).length }),
        () => undefined,
      );
    }
  });
  await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  // Evaluated in the page (a string: this file is compiled without the DOM's types).
  const timing = await page.evaluate<{ fcp: number | null; scripts: Array<{ name: string; end: number }> }>(`(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      fcp: paint ? paint.startTime : null,
      scripts: performance.getEntriesByType('resource')
        .filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'))
        .map((r) => ({ name: r.name, end: r.responseEnd })),
    };
  })()`);
  const before = new Set(timing.scripts.filter((s) => timing.fcp !== null && s.end <= timing.fcp).map((s) => s.name));
  const kb = (n: number) => (n / 1024).toFixed(1);
  const all = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const early = scripts.filter((s) => before.has(s.url)).reduce((sum, s) => sum + s.gzip, 0);
  out(
    `  first load of the overview (cold): ${scripts.length} scripts, ${kb(all)} KB gzipped in all ` +
      `(${kb(scripts.reduce((sum, s) => sum + s.bytes, 0))} KB raw); before the first paint ` +
      `(${timing.fcp === null ? 'n/a' : `${timing.fcp.toFixed(0)} ms`}): ${kb(early)} KB gzipped (goal <= 200 KB)`,
  );
}

/** From the last task list answer to the board's last card: the render the person waits for. */
async function boardRender(page: Page, base: string): Promise<void> {
  const samples: number[] = [];
  let cards = 0;
  for (let round = 0; round < RELOADS; round += 1) {
    await page.addInitScript(`
      window.__lastCardChange = 0;
      new MutationObserver(() => { window.__lastCardChange = performance.now(); })
        .observe(document, { childList: true, subtree: true });
    `);
    await page.goto(`${base}/tasks`, { waitUntil: 'networkidle' });
    const result = await page.evaluate<{ render: number; cards: number }>(`(() => {
      const lists = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/v1/tasks'));
      const dataIn = Math.max(...lists.map((r) => r.responseEnd));
      return {
        render: window.__lastCardChange - dataIn,
        cards: document.querySelectorAll('main a[href^="/tasks/"]').length,
      };
    })()`);
    cards = result.cards;
    samples.push(Math.max(0, result.render));
  }
  out(
    `  task board over ${TASKS} tasks: ${cards} cards rendered, last DOM change ${median(samples).toFixed(1)} ms ` +
      `after the last task list answer (median of ${RELOADS} loads; goal < 100 ms)`,
  );
}

interface Scores {
  performance: number;
  accessibility: number;
  /** The accessibility audits that failed (those that count towards the score), by id. */
  failed: string[];
  /** Where the audited page ended up (the sign-in page if the session was not taken). */
  landed: string;
}

function lighthouse(url: string, cookie: string): Promise<Scores | string> {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        '--yes',
        LIGHTHOUSE,
        url,
        '--preset=desktop',
        '--only-categories=performance,accessibility',
        '--output=json',
        '--output-path=stdout',
        '--quiet',
        `--chrome-flags=${CHROMIUM_FLAGS.join(' ')}`,
        `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => {
      try {
        const report = JSON.parse(out) as {
          categories: Record<string, { score: number; auditRefs: Array<{ id: string; weight: number }> }>;
          audits: Record<string, { score: number | null }>;
          finalDisplayedUrl?: string;
        };
        resolve({
          performance: Math.round(report.categories.performance.score * 100),
          accessibility: Math.round(report.categories.accessibility.score * 100),
          failed: report.categories.accessibility.auditRefs
            .filter((ref) => {
              const score = report.audits[ref.id]?.score;
              return ref.weight > 0 && typeof score === 'number' && score < 1;
            })
            .map((ref) => ref.id),
          landed: report.finalDisplayedUrl ?? url,
        });
      } catch {
        resolve(`lighthouse did not run (exit ${code}): ${err.trim().split('\n').slice(-2).join(' ')}`);
      }
    });
  });
}

export async function runConsoleBench(): Promise<void> {
  out(`\n== console (Chromium, SQLite, ${TASKS} tasks)`);
  if (!existsSync(CHROMIUM)) {
    out(`  skipped: no Chromium at ${CHROMIUM}`);
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'synthorg-bench-console-'));
  const mock = await startMockLlm();
  const db = await createTestDatabase('sqlite');
  let server: RunningServer | null = null;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS] });
  try {
    server = await startScratchService(scratch, {
      env: {
        ...db.env,
        SYNTHORG_ENGINE_ENABLED: 'false',
        // Memory wired to the fake's embeddings, so the Memory page shows a working store.
        SYNTHORG_MEMORY_EMBEDDER_PROVIDER: 'mock',
        SYNTHORG_MEMORY_EMBEDDER_MODEL: 'mock-embed',
      },
    });
    const base = `http://127.0.0.1:${server.port}`;
    const { token, agents } = await setUpCompany(server.port, `${mock.url}/v1`);
    await call(base, token, 'POST', '/setup/complete', {});
    const seeded = Date.now();
    await seed(base, token, agents);
    const hiring = await seedWorkforce(base, token);
    out(
      `  seeded ${TASKS} tasks, 20 approvals, a hiring request and a fact in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
    );
    const cookies = await sessionCookies(base);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies(cookies.map((c) => ({ ...c, url: base })));
    await firstLoad(await context.newPage(), base);
    await boardRender(await context.newPage(), base);
    await context.close();
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (const [name, path] of [
      ['overview', '/'],
      ['tasks', '/tasks'],
      ['approvals', '/approvals'],
      ['providers', '/providers'],
      ['settings', '/settings'],
      ['people', '/people'],
      ['audit', '/audit'],
      ['backups', '/backups'],
      ['meetings', '/meetings'],
      ['messages', '/messages'],
      ['artifacts', '/artifacts'],
      ['reports', '/reports'],
      ['hiring', `/hiring?request=${encodeURIComponent(hiring)}`],
      ['memory', '/memory'],
      ['agent-memories', `/agents/${encodeURIComponent(agents[1] ?? agents[0])}?tab=memories`],
    ]) {
      if (PAGES.length > 0 && !PAGES.includes(name)) {
        continue;
      }
      const scores = await lighthouse(`${base}${path}`, cookie);
      out(
        typeof scores === 'string'
          ? `  lighthouse ${name}: ${scores}`
          : `  lighthouse ${name}: performance ${scores.performance} (goal >= 90), accessibility ${scores.accessibility} (goal >= 95)` +
              (scores.failed.length > 0 ? `; failed: ${scores.failed.join(', ')}` : '') +
              (new URL(scores.landed).pathname === path.split('?')[0] ? '' : `; landed on ${scores.landed}`),
      );
    }
  } finally {
    await browser.close();
    await mock.close();
    await releaseScratch({ server, db, scratch });
  }
}
