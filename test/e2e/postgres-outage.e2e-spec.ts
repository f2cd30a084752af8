import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { eventually, testBackends } from '@app/testing';

import {
  type ChildServer,
  type MockLlm,
  postgresBinaries,
  type PrivatePostgres,
  startChildServer,
  startMockLlm,
  startPrivatePostgres,
  TEST_PASSWORD,
} from '../support';

/**
 * Postgres unavailable: a private cluster (not the shared server) is stopped under a running replica
 * with a run in flight. Readiness turns false within 5 s, requests answer 503 with a code and
 * Retry-After, the process stays up; once Postgres is back the replica serves again without a
 * restart and the run in flight ends completed, once.
 */

jest.setTimeout(180_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PORT = 15432 + (process.pid % 500);

async function raw(server: ChildServer, method: string, path: string, token: string | null, body?: Json) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((error: unknown) => ({ status: 0, headers: new Headers(), text: () => Promise.resolve(String(error)) }));
  const text = await res.text();
  let json: Json;
  try {
    json = text ? (JSON.parse(text) as Json) : {};
  } catch {
    json = { text };
  }
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json };
}

async function call(server: ChildServer, method: string, path: string, token: string | null, body?: Json) {
  const res = await raw(server, method, path, token, body);
  if (res.status >= 300 || res.status === 0) {
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.json)}`);
  }
  return res.json;
}

const runs = testBackends().includes('postgres') && postgresBinaries() !== null ? describe : describe.skip;

runs('Postgres unavailable', () => {
  let pg: PrivatePostgres;
  let mock: MockLlm;
  let dir: string;
  let server: ChildServer | null = null;

  beforeAll(async () => {
    pg = await startPrivatePostgres(PORT);
    mock = await startMockLlm();
    dir = mkdtempSync(join(tmpdir(), 'synthorg-outage-'));
  });

  afterAll(async () => {
    await server?.kill();
    await mock?.close();
    pg?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should answer 503 with Retry-After while Postgres is down and serve again when it returns, without a restart', async () => {
    server = await startChildServer(dir, pg.database, { SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1' });
    const s = server;
    const token = (await call(s, 'POST', '/auth/setup', null, { username: 'ceo', password: TEST_PASSWORD })).data
      .token as string;
    await call(s, 'POST', '/providers', token, {
      name: 'mock',
      gateway_provider: 'openai',
      auth_type: 'none',
      base_url: `${mock.url}/v1`,
      models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
    });
    const company = await call(s, 'POST', '/setup/company', token, { company_name: 'Acme', template_name: 'startup' });
    const agent = company.data.agents[0].name as string;
    const project = (await call(s, 'POST', '/projects', token, { name: 'Outage' })).data.id as string;
    const task = (title: string): Json => ({
      title,
      description: `Answer ${title}.`,
      type: 'development',
      project,
      created_by: 'ceo',
      assigned_to: agent,
    });

    // A run in flight across the outage: its model answers 8 s after the call.
    mock.enqueue({ kind: 'text', text: 'Done across the outage.', delayMs: 8_000 });
    const inFlight = (await call(s, 'POST', '/tasks', token, task('across'))).data.id as string;
    await eventually(
      () => Promise.resolve(mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length),
      (n) => n === 1,
    );

    const stoppedAt = Date.now();
    pg.stop();
    const notReady = await eventually(
      () => raw(s, 'GET', '/health/ready', null),
      (r) => r.status === 503,
      10_000,
      100,
    );
    const readinessMs = Date.now() - stoppedAt;
    process.stdout.write(`postgres outage: readiness false ${readinessMs} ms after the stop\n`);
    expect(readinessMs).toBeLessThan(5_000);
    expect(notReady.retryAfter).not.toBeNull();
    const refused = await raw(s, 'GET', '/tasks', token);
    expect(refused.status).toBe(503);
    expect([8001, 8020]).toContain(refused.json.error_detail?.error_code);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    const write = await raw(s, 'POST', '/projects', token, { name: 'during the outage' });
    expect(write.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(s.proc.exitCode).toBeNull();

    pg.start();
    const back = await eventually(
      () => raw(s, 'GET', '/health/ready', null),
      (r) => r.status === 200,
      60_000,
      200,
    );
    expect(back.status).toBe(200);
    process.stdout.write(`postgres outage: ready again ${Date.now() - stoppedAt} ms after the stop\n`);

    // The run in flight ends completed (continued, or re-queued once), and new work runs.
    const done = await eventually(
      async () => (await call(s, 'GET', `/tasks/${inFlight}`, token)).data as Json,
      (x) => x.status === 'completed',
      90_000,
    );
    expect(done.status).toBe('completed');
    const started = s
      .output()
      .split('\n')
      .filter((line) => line.includes('engine.run.started') && line.includes(inFlight));
    expect(started.length).toBeGreaterThanOrEqual(1);
    expect(started.length).toBeLessThanOrEqual(2);
    const completions = s
      .output()
      .split('\n')
      .filter((line) => line.includes('"to":"completed"') && line.includes(inFlight));
    expect(completions).toHaveLength(1);
    const after = (await call(s, 'POST', '/tasks', token, task('after'))).data.id as string;
    await eventually(
      async () => (await call(s, 'GET', `/tasks/${after}`, token)).data as Json,
      (x) => x.status === 'completed',
      30_000,
    );
    expect(s.proc.exitCode).toBeNull();
  });
});
