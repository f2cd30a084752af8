import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import WebSocket from 'ws';

import { createTestDatabase, eventually, type TestDatabase, testBackends } from '@app/testing';
import { type ChildServer, type MockLlm, startChildServer, startMockLlm } from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(180_000);

const PASSWORD = 'correct-horse-battery-staple';
const ANSI = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

async function call(base: string, method: string, path: string, token: string | null, body?: Json): Promise<Json> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  }
  return text ? (JSON.parse(text) as Json) : {};
}

/** CEO, a provider on the fake, a company and a project: the token, an agent's name and the project. */
async function seedCompany(base: string, mock: MockLlm): Promise<{ token: string; agent: string; project: string }> {
  const token = (await call(base, 'POST', '/auth/setup', null, { username: 'ceo', password: PASSWORD })).data
    .token as string;
  await call(base, 'POST', '/providers', token, {
    name: 'mock',
    gateway_provider: 'openai',
    auth_type: 'none',
    base_url: `${mock.url}/v1`,
    models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
  });
  const company = await call(base, 'POST', '/setup/company', token, { company_name: 'Acme', template_name: 'startup' });
  const project = (await call(base, 'POST', '/projects', token, { name: 'Observed' })).data.id as string;
  return { token, agent: company.data.agents[0].name as string, project };
}

const taskBody = (project: string, agent: string, title: string): Json => ({
  title,
  description: 'Write notes.md',
  type: 'development',
  project,
  created_by: 'ceo',
  assigned_to: agent,
});

/** The metrics port a child server logged (`api.metrics.started`). */
async function metricsUrl(server: ChildServer): Promise<string> {
  const out = await eventually(
    () => Promise.resolve(server.output().replace(ANSI, '')),
    (text) => /api\.metrics\.started[^\n]*"port":\d+/.test(text),
  );
  const port = /api\.metrics\.started[^\n]*"port":(\d+)/.exec(out)![1];
  return `http://127.0.0.1:${port}/metrics`;
}

/** One sample's value from exposition text (labels in the order given), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const rendered = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const prefix = rendered === '' ? `${name} ` : `${name}{${rendered}} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

function taskStatus(base: string, token: string, id: string): Promise<string> {
  return call(base, 'GET', `/tasks/${id}`, token).then((res) => res.data.status as string);
}

describe.each(testBackends())('metrics on %s', (backend) => {
  let mock: MockLlm;
  let db: TestDatabase;
  let dir: string;
  let server: ChildServer | null = null;

  beforeEach(async () => {
    mock = await startMockLlm();
    db = await createTestDatabase(backend);
    dir = mkdtempSync(join(tmpdir(), 'synthorg-metrics-'));
  });

  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = null;
    await mock.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should serve the series on their own port with sane values after a little load', async () => {
    server = await startChildServer(dir, db, { SYNTHORG_METRICS_PORT: '0', SYNTHORG_METRICS_HOST: '127.0.0.1' });
    const scrapeUrl = await metricsUrl(server);
    const base = server.url;
    const { token, agent, project } = await seedCompany(base, mock);
    // The API port does not serve the metrics, and the metrics port serves nothing else.
    expect(await (await fetch(`${base}/metrics`)).text()).not.toContain('synthorg_');
    expect((await fetch(scrapeUrl.replace('/metrics', '/api/v1/health'))).status).toBe(404);

    mock.enqueue({
      kind: 'tool_calls',
      calls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'x' } }],
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await call(base, 'POST', '/tasks', token, taskBody(project, agent, `Task ${i}`))).data.id as string);
    }
    for (const id of ids) {
      await eventually(
        () => taskStatus(base, token, id),
        (s) => s === 'completed',
        60_000,
        200,
      );
    }
    await Promise.all(Array.from({ length: 40 }, () => call(base, 'GET', '/tasks?limit=5', token)));
    const ticket = (await call(base, 'POST', '/auth/ws-ticket', token)).data.ticket as string;
    const socket = new WebSocket(`${base.replace('http', 'ws')}/api/v1/ws?ticket=${ticket}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });

    const text = await (await fetch(scrapeUrl)).text();
    socket.close();

    const http = (method: string, route: string, status: string): number | undefined =>
      sample(text, 'synthorg_http_request_duration_seconds_count', { method, route, status });
    expect(http('POST', '/api/v1/tasks', '201')).toBe(3);
    expect(http('GET', '/api/v1/tasks', '200')).toBeGreaterThanOrEqual(40);
    expect(
      sample(text, 'synthorg_http_request_duration_seconds_sum', {
        method: 'GET',
        route: '/api/v1/tasks',
        status: '200',
      }),
    ).toBeGreaterThan(0);
    expect(sample(text, 'synthorg_runs_total', { outcome: 'completed' })).toBe(3);
    expect(sample(text, 'synthorg_run_duration_seconds_count', { outcome: 'completed' })).toBe(3);
    const model = { provider: 'mock', model: 'mock-small', kind: 'chat' };
    expect(sample(text, 'synthorg_model_calls_total', { ...model, result: 'success' })).toBe(4);
    expect(sample(text, 'synthorg_model_call_duration_seconds_count', model)).toBe(4);
    const input = sample(text, 'synthorg_model_tokens_total', {
      provider: 'mock',
      model: 'mock-small',
      direction: 'input',
    });
    expect(input).toBeGreaterThan(0);
    const cost = sample(text, 'synthorg_model_cost_total', { provider: 'mock', model: 'mock-small' })!;
    // 1 per 1k input tokens, 2 per 1k output tokens.
    expect(cost).toBeGreaterThanOrEqual(input! / 1000);
    expect(sample(text, 'synthorg_tool_calls_total', { tool: 'write_file', verdict: 'succeeded' })).toBe(1);
    expect(sample(text, 'synthorg_task_queue_jobs', { state: 'running' })).toBe(0);
    expect(sample(text, 'synthorg_task_queue_jobs', { state: 'queued' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'synthorg_task_queue_oldest_job_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'synthorg_approvals_pending')).toBe(0);
    expect(sample(text, 'synthorg_websocket_connections')).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    if (backend === 'postgres') {
      const inUse = sample(text, 'synthorg_db_pool_connections', { pool: 'service', state: 'in_use' });
      const idle = sample(text, 'synthorg_db_pool_connections', { pool: 'service', state: 'idle' });
      expect(inUse! + idle!).toBeGreaterThan(0);
      // Clients queued for a connection (one being opened counts): never more than the requests in flight.
      expect(sample(text, 'synthorg_db_pool_connections', { pool: 'service', state: 'waiting' })).toBeLessThanOrEqual(
        10,
      );
      // The job queue's own pool: its workers' fetches and completions.
      const queueInUse = sample(text, 'synthorg_db_pool_connections', { pool: 'queue', state: 'in_use' });
      const queueIdle = sample(text, 'synthorg_db_pool_connections', { pool: 'queue', state: 'idle' });
      expect(queueInUse! + queueIdle!).toBeGreaterThan(0);
      expect(queueInUse! + queueIdle!).toBeLessThanOrEqual(10);
      expect(sample(text, 'synthorg_db_pool_connections', { pool: 'queue', state: 'waiting' })).toBeGreaterThanOrEqual(
        0,
      );
    } else {
      expect(text).not.toContain('synthorg_db_pool_connections{');
    }
    // Bounded labels: no task, agent or user id appears anywhere.
    for (const id of ids) {
      expect(text).not.toContain(id);
    }
  });
});

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  instance: string;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP (JSON) trace receiver on loopback, keeping every span it is sent. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: HttpServer = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        const payload = JSON.parse(body) as Json;
        for (const resourceSpans of payload.resourceSpans ?? []) {
          const attrs = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                name: span.name,
                instance: String(attrs['service.instance.id']),
                attributes: attributesOf(span.attributes),
              });
            }
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function attributesOf(list: Json[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of list ?? []) {
    const value = entry.value ?? {};
    out[entry.key as string] = value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue;
  }
  return out;
}

const pgOnly = testBackends().includes('postgres') ? describe : describe.skip;
const sqliteOnly = testBackends().includes('sqlite') ? describe : describe.skip;

sqliteOnly('traces on sqlite', () => {
  let mock: MockLlm;
  let db: TestDatabase;
  let dir: string;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let server: ChildServer | null = null;

  beforeEach(async () => {
    mock = await startMockLlm();
    db = await createTestDatabase('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'synthorg-traces-'));
    receiver = await startOtlpReceiver();
  });

  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = null;
    await mock.close();
    await receiver.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("should make spans of a request's and a run's SQLite statements, without their values", async () => {
    server = await startChildServer(dir, db, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '200',
    });
    const { token, agent, project } = await seedCompany(server.url, mock);
    const title = `Traced-${Date.now()}-title`;
    const id = (await call(server.url, 'POST', '/tasks', token, taskBody(project, agent, title))).data.id as string;
    await eventually(
      () => taskStatus(server!.url, token, id),
      (s) => s === 'completed',
      60_000,
      200,
    );

    const isSqlite = (s: ReceivedSpan): boolean => s.attributes['db.system.name'] === 'sqlite';
    const spans = await eventually(
      () => Promise.resolve(receiver.spans),
      (all) =>
        all.some((s) => s.name === 'engine.run' && s.attributes['synthorg.task_id'] === id) &&
        all.some((s) => s.name === 'POST /api/v1/tasks'),
      20_000,
      200,
    );
    const post = spans.find((s) => s.name === 'POST /api/v1/tasks')!;
    const run = spans.find((s) => s.name === 'engine.run' && s.attributes['synthorg.task_id'] === id)!;
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    /** The statements under `root`, at any depth. */
    const statementsUnder = (root: ReceivedSpan): ReceivedSpan[] =>
      spans.filter((s) => {
        if (!isSqlite(s)) {
          return false;
        }
        for (let up = byId.get(s.parentSpanId ?? ''); up; up = byId.get(up.parentSpanId ?? '')) {
          if (up.spanId === root.spanId) {
            return true;
          }
        }
        return false;
      });

    // The request's insert of the task, and the run's statements, are spans under them.
    const inserts = statementsUnder(post).filter(
      (s) =>
        s.attributes['db.operation.name'] === 'INSERT' && String(s.attributes['db.query.text']).includes('"tasks"'),
    );
    expect(inserts.length).toBeGreaterThanOrEqual(1);
    expect(inserts[0].name).toBe('INSERT');
    expect(inserts[0].attributes['db.query.text']).toContain('?');
    expect(statementsUnder(run).length).toBeGreaterThan(0);
    // The bound values never travel with the spans.
    expect(JSON.stringify(spans.filter(isSqlite))).not.toContain(title);
  });
});

pgOnly('traces across replicas on postgres', () => {
  let mock: MockLlm;
  let db: TestDatabase;
  let dir: string;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  const servers: ChildServer[] = [];

  beforeEach(async () => {
    mock = await startMockLlm();
    db = await createTestDatabase('postgres');
    dir = mkdtempSync(join(tmpdir(), 'synthorg-traces-'));
    receiver = await startOtlpReceiver();
  });

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await server.kill('SIGKILL');
    }
    await mock.close();
    await receiver.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const tracing = (instance: string): Record<string, string> => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${instance}`,
    SYNTHORG_METRICS_PORT: '0',
    SYNTHORG_METRICS_HOST: '127.0.0.1',
  });

  it("should link a POST /tasks on one replica to its run's model calls on another", async () => {
    // Replica A runs one job at a time; its slot is held by a run whose model call hangs.
    const a = await startChildServer(join(dir), db, { ...tracing('replica-a'), SYNTHORG_ENGINE_CONCURRENCY: '1' });
    servers.push(a);
    const { token, agent, project } = await seedCompany(a.url, mock);
    mock.enqueue({ kind: 'hang' });
    const busy = (await call(a.url, 'POST', '/tasks', token, taskBody(project, agent, 'Hold the slot'))).data;
    await eventually(
      () => taskStatus(a.url, token, busy.id as string),
      (s) => s === 'in_progress',
      30_000,
      100,
    );
    const b = await startChildServer(join(dir), db, tracing('replica-b'));
    servers.push(b);

    // Queued by A's request, taken by B's worker (A has no free slot).
    const created = (await call(a.url, 'POST', '/tasks', token, taskBody(project, agent, 'Traced'))).data;
    const id = created.id as string;
    await eventually(
      () => taskStatus(a.url, token, id),
      (s) => s === 'completed',
      60_000,
      200,
    );

    const spans = await eventually(
      () => Promise.resolve(receiver.spans),
      (all) =>
        all.some((s) => s.name === 'POST /api/v1/tasks' && s.instance === 'replica-a') &&
        all.some((s) => s.name === 'chat mock-small' && s.instance === 'replica-b'),
      20_000,
      200,
    );
    const posts = spans.filter((s) => s.name === 'POST /api/v1/tasks' && s.instance === 'replica-a');
    const runs = spans.filter((s) => s.name === 'engine.run' && s.attributes['synthorg.task_id'] === id);
    expect(runs).toHaveLength(1);
    const run = runs[0];
    expect(run.instance).toBe('replica-b');
    // The run continues the trace of the request that queued it (its creation), on the other replica.
    const post = posts.find((p) => p.traceId === run.traceId);
    expect(post).toBeDefined();
    expect(post!.attributes['http.response.status_code']).toBe(201);
    const byId = new Map(spans.filter((s) => s.traceId === run.traceId).map((s) => [s.spanId, s]));
    const calls = [...byId.values()].filter((s) => s.name === 'chat mock-small');
    expect(calls.length).toBeGreaterThanOrEqual(1);
    for (const modelCall of calls) {
      expect(modelCall.instance).toBe('replica-b');
      // Up the parent chain from the model call: the run, then (across replicas) the request.
      const chain: string[] = [];
      let cursor: ReceivedSpan | undefined = modelCall;
      while (cursor) {
        chain.push(cursor.name);
        cursor = cursor.parentSpanId ? byId.get(cursor.parentSpanId) : undefined;
      }
      expect(chain).toContain('engine.run');
      expect(chain[chain.length - 1]).toBe('POST /api/v1/tasks');
    }
    // Database statements of the request are spans of the trace too.
    expect(
      [...byId.values()].some(
        (s) => s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql',
      ),
    ).toBe(true);

    // Every log line of the run on B carries its trace id, and A's lines of the request do too.
    const logsOf = (server: ChildServer): string[] => server.output().replace(ANSI, '').split('\n');
    const runLines = logsOf(b).filter((l) => l.includes(`"task_id":"${id}"`) && l.includes('synthorg.engine.runner'));
    expect(runLines.length).toBeGreaterThan(0);
    for (const line of runLines) {
      expect(line).toContain(`"trace_id":"${run.traceId}"`);
    }
    expect(logsOf(a).some((l) => l.includes(`"trace_id":"${run.traceId}"`))).toBe(true);

    // B received A's events over the bus: its lag between replicas is measured.
    const text = await (await fetch(await metricsUrl(b))).text();
    expect(sample(text, 'synthorg_event_bus_lag_seconds_count')).toBeGreaterThan(0);
    const lagSum = sample(text, 'synthorg_event_bus_lag_seconds_sum')!;
    expect(lagSum / sample(text, 'synthorg_event_bus_lag_seconds_count')!).toBeLessThan(5);
  });
});
