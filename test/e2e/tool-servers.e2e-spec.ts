import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { ErrorCode, HumanRole } from '@app/domain';
import { AuditEntryEntity, CostRecordEntity, ToolServerEntity } from '@app/persistence';
import { DatabaseService, ReplicaIdentity, SecretCipher, secretKeyId } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import type { Test } from 'supertest';

import { TaskEngine } from '../../apps/api/src/modules/engine';
import { bearer, type MockLlm, startTestApp, TEST_JWT_SECRET, type TestApp, userWithRole } from '../support';
import { type LoopbackServer, startMcpHttpFixture, startRedirector, startSink } from '../support/mcp-http-fixture';
import { type Json, type SceneAgent, SecurityScene } from './security-scene';

jest.setTimeout(120_000);

const FIXTURE = join(__dirname, '..', 'support', 'mcp-fixture-server.ts');
const TOKEN = 'tok-fixture-9f3a1c';
const HTTP_KEY = 'key-fixture-77d2e0';
/** Requests a minute of one user to the service's MCP endpoint in this spec. */
const MCP_PER_MINUTE = 30;

/** The request is refused with this status and, when given, this error code. */
async function expectError(request: Test, status: number, code?: number): Promise<void> {
  const response = await request.expect(status);
  if (code !== undefined) {
    expect((response.body as Json).error_detail.error_code).toBe(code);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Tool servers registered through the API and used by runs on the fake model: offering, calling,
// approvals, crashes, HTTP with its redirect rule, removal.
describe.each(testBackends())('tool servers on %s', (backend) => {
  // Private addresses are refused here (the test default lets them through): loopback needs trusting.
  const scene = new SecurityScene(backend, {
    env: { SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'true', SYNTHORG_RATE_LIMIT_MCP_PER_MINUTE: String(MCP_PER_MINUTE) },
    listen: true,
  });
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let agent: SceneAgent;
  let outsider: SceneAgent & { department: string };
  const loopbacks: LoopbackServer[] = [];
  let httpFixture: Awaited<ReturnType<typeof startMcpHttpFixture>>;

  const api = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, token = ceo) =>
    t.http[method](`/api/v1${path}`).set(bearer(token));

  /** The tool names offered in the first model request of the last run, and the tool replies of its last one. */
  const lastRun = (): { offered: string[]; replies: string[] } => {
    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const first = chats[0].body as Json;
    const last = chats[chats.length - 1].body as Json;
    return {
      offered: ((first.tools ?? []) as Json[]).map((tool) => tool.function.name as string),
      replies: (last.messages as Json[]).filter((m) => m.role === 'tool').map((m) => String(m.content)),
    };
  };

  const createTask = async (assignee: string, extra: Json = {}): Promise<string> =>
    (
      await api('post', '/tasks')
        .send({
          title: 'Use the fixture',
          description: 'Call the fixture tools.',
          type: 'development',
          project: scene.project,
          created_by: 'ceo',
          assigned_to: assignee,
          ...extra,
        })
        .expect(201)
    ).body.data.id as string;

  const runToEnd = async (assignee = agent.name): Promise<Json> => {
    const id = await createTask(assignee);
    return eventually(
      () => scene.getTask(id),
      (x) => x.status === 'completed',
    );
  };

  const stdioServer = (name = 'fixture') => ({
    name,
    transport: 'stdio',
    command: process.execPath,
    args: ['--no-warnings', FIXTURE, '--stdio'],
    env: { FIXTURE_TOKEN: TOKEN },
    allowed_agents: [agent.name],
  });

  beforeAll(async () => {
    ({ t, mock, ceo, agent } = await scene.start());
    outsider = scene.productAgent;
    // Server tools are in the `mcp` category: granted by elevated access (or an explicit allow).
    for (const name of [agent.name, outsider.name]) {
      await api('patch', `/agents/${encodeURIComponent(name)}`)
        .send({ tools: { access_level: 'elevated' } })
        .expect(200);
    }
  });

  afterEach(() => mock.reset());

  afterAll(async () => {
    await scene.close();
    await Promise.all(loopbacks.map((server) => server.close()));
  });

  it('should register a stdio server (CEO only), list its tools with action types, and never show its secrets', async () => {
    const observer = await scene.observer();
    await expectError(api('post', '/tools/servers', observer).send(stdioServer()), 403);
    const created = await api('post', '/tools/servers').send(stdioServer()).expect(201);
    expect(created.body.data).toMatchObject({
      name: 'fixture',
      transport: 'stdio',
      env_names: ['FIXTURE_TOKEN'],
      tool_count: 5,
      health: { connected: true, last_error: null, restarts: 0, replica: t.app.get(ReplicaIdentity).owner },
      allowed_agents: [agent.name],
    });
    // The server's stderr reaches the agent-activity log with its secret redacted.
    const activity = join(t.logDir, 'agent_activity.log');
    const logged = await eventually(
      () => Promise.resolve(existsSync(activity) ? readFileSync(activity, 'utf8') : ''),
      (text) => text.includes('fixture starting with token'),
    );
    expect(logged).toContain('fixture starting with token [REDACTED]');
    expect(logged).not.toContain(TOKEN);
    const read = await api('get', '/tools/servers/fixture', observer).expect(200);
    const listed = await api('get', '/tools/servers').expect(200);
    expect(JSON.stringify([created.body, read.body, listed.body])).not.toContain(TOKEN);

    const tools = (await api('get', '/tools/servers/fixture/tools').expect(200)).body.data as Json[];
    expect(tools.map((tool) => [tool.name, tool.action_type, tool.action_source])).toEqual([
      ['fixture__echo', 'code:read', 'read_only_hint'],
      ['fixture__wipe', 'code:delete', 'destructive_hint'],
      ['fixture__crash', 'code:read', 'read_only_hint'],
      ['fixture__whoami', 'code:read', 'read_only_hint'],
      ['fixture__priced', 'code:read', 'read_only_hint'],
    ]);
    expect(tools[0].input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    await expectError(api('post', '/tools/servers').send(stdioServer()), 409, ErrorCode.ToolServerExists);
    await expectError(
      api('post', '/tools/servers').send({ ...stdioServer('bad__name') }),
      400,
      ErrorCode.ToolServerInvalid,
    );
    await expectError(
      api('post', '/tools/servers').send({ ...stdioServer('other'), env: { LD_PRELOAD: '/x.so' } }),
      400,
      ErrorCode.ToolServerInvalid,
    );
  });

  it('should offer the tools to an allowed agent and hand the result to the model', async () => {
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'fixture__echo', arguments: { text: 'hello' } }] },
      { kind: 'tool_calls', calls: [{ name: 'fixture__whoami', arguments: {} }] },
      { kind: 'text', text: 'Done.' },
    );
    await runToEnd();
    const { offered, replies } = lastRun();
    expect(offered).toEqual(expect.arrayContaining(['fixture__echo', 'fixture__wipe', 'list_files']));
    expect(replies[0]).toBe('echo: hello');
    // The server sees its own variables and a minimal environment: none of the service's.
    const who = JSON.parse(replies[1]) as { pid: number; env: string[] };
    expect(who.env).toContain('FIXTURE_TOKEN');
    expect(who.env.filter((name) => name.startsWith('SYNTHORG_'))).toEqual([]);
  });

  it("should charge the cost a server reports to the run's task and agent, where the budget limits count it", async () => {
    const costs = () =>
      t.app.get(DatabaseService).dataSource.getRepository(CostRecordEntity).findBy({ provider: 'mcp:fixture' });
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'fixture__priced', arguments: { cost: 0.75 } }] },
      { kind: 'text', text: 'Done.' },
    );
    const task = await runToEnd();
    expect(lastRun().replies).toEqual(['priced at 0.75']);
    expect((await costs()).map((r) => [r.taskId, r.agentId, r.model, r.costUsd, r.callCategory])).toEqual([
      [task.id, agent.id, 'priced', 0.75, 'productive'],
    ]);
    const records = (await api('get', `/budget/records?task_id=${task.id as string}&limit=50`).expect(200)).body;
    expect(JSON.stringify(records)).toContain('mcp:fixture');

    // A task whose cap the reported cost used up gets no further model call.
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'fixture__priced', arguments: { cost: 25 } }] },
      { kind: 'text', text: 'Should not be asked.' },
    );
    const capped = await createTask(agent.name, { budget_limit: 20 });
    const held = await eventually(
      () => scene.getTask(capped),
      (x) => typeof x.status_reason === 'string' && x.status_reason.includes('task limit'),
    );
    expect(held.status_reason).toContain(`[${ErrorCode.BudgetExhausted}]`);
    expect(mock.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(3);
    expect((await costs()).filter((r) => r.taskId === capped).map((r) => r.costUsd)).toEqual([25]);
  });

  it('should never offer the tools to an agent outside the allowlist, and refuse its calls', async () => {
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'fixture__echo', arguments: { text: 'sneak' } }] },
      { kind: 'text', text: 'Done.' },
    );
    await runToEnd(outsider.name);
    const { offered, replies } = lastRun();
    expect(offered.filter((name) => name.startsWith('fixture__'))).toEqual([]);
    expect(offered).toContain('list_files');
    expect(replies[0]).toContain('not allowed');
    expect(replies[0]).not.toContain('echo: sneak');
  });

  it('should park a destructive tool under supervised autonomy and run it after approval', async () => {
    await api('put', `/agents/${agent.name}/autonomy`).send({ level: 'supervised', reason: 'tool test' }).expect(200);
    mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'fixture__wipe', arguments: { target: 'cache' } }] });
    const id = await createTask(agent.name);
    const waiting = await eventually(
      () => scene.getTask(id),
      (x) => typeof x.status_reason === 'string' && x.status_reason.startsWith('waiting for approval '),
    );
    const approvalId = /waiting for approval ([0-9a-f-]+)/.exec(waiting.status_reason as string)?.[1] as string;
    const approval = (await api('get', `/approvals/${approvalId}`).expect(200)).body.data as Json;
    expect(approval).toMatchObject({ status: 'pending', action_type: 'code:delete', risk_level: 'high' });
    mock.enqueue({ kind: 'text', text: 'Wiped.' });
    await api('post', `/approvals/${approvalId}/approve`).send({ comment: 'go' }).expect(200);
    await eventually(
      () => scene.getTask(id),
      (x) => x.status === 'completed',
    );
    expect(lastRun().replies).toEqual(['wiped cache']);
    await api('put', `/agents/${agent.name}/autonomy`).send({ level: null }).expect(200);
  });

  it('should turn a crash into a tool error, restart the server and serve the next call', async () => {
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'fixture__whoami', arguments: {} }] },
      { kind: 'tool_calls', calls: [{ name: 'fixture__crash', arguments: {} }] },
      { kind: 'tool_calls', calls: [{ name: 'fixture__echo', arguments: { text: 'again' } }] },
      { kind: 'tool_calls', calls: [{ name: 'fixture__whoami', arguments: {} }] },
      { kind: 'text', text: 'Survived.' },
    );
    const task = await runToEnd();
    expect(task.status).toBe('completed');
    const { replies } = lastRun();
    expect(replies[1]).toContain('tool server fixture failed');
    expect(replies[2]).toBe('echo: again');
    const before = (JSON.parse(replies[0]) as { pid: number }).pid;
    const after = (JSON.parse(replies[3]) as { pid: number }).pid;
    expect(after).not.toBe(before);
    expect(alive(before)).toBe(false);
    const health = (await api('get', '/tools/servers/fixture').expect(200)).body.data.health as Json;
    expect(health).toMatchObject({ connected: true, restarts: 1 });
  });

  it('should stop an idle stdio server and start it again on its next use', async () => {
    await scene.setSetting('tool_server_idle_seconds', '1').expect(200);
    try {
      mock.enqueue(
        { kind: 'tool_calls', calls: [{ name: 'fixture__whoami', arguments: {} }] },
        { kind: 'text', text: 'Done.' },
      );
      await runToEnd();
      const first = (JSON.parse(lastRun().replies[0]) as { pid: number }).pid;
      await eventually(
        () => Promise.resolve(alive(first)),
        (running) => !running,
      );
      const health = (await api('get', '/tools/servers/fixture').expect(200)).body.data.health as Json;
      expect(health.connected).toBe(false);

      mock.reset();
      mock.enqueue(
        { kind: 'tool_calls', calls: [{ name: 'fixture__whoami', arguments: {} }] },
        { kind: 'text', text: 'Done.' },
      );
      await runToEnd();
      const second = (JSON.parse(lastRun().replies[0]) as { pid: number }).pid;
      expect(second).not.toBe(first);
      // An idle stop is no crash: no restart is counted.
      const after = (await api('get', '/tools/servers/fixture').expect(200)).body.data.health as Json;
      expect(after.restarts).toBe(health.restarts);
    } finally {
      await scene.setSetting('tool_server_idle_seconds', '300').expect(200);
    }
  });

  it('should stop the server process when the server is removed', async () => {
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'fixture__whoami', arguments: {} }] },
      { kind: 'text', text: 'Done.' },
    );
    await runToEnd();
    const pid = (JSON.parse(lastRun().replies[0]) as { pid: number }).pid;
    expect(alive(pid)).toBe(true);
    await api('delete', '/tools/servers/fixture').expect(204);
    await eventually(
      () => Promise.resolve(alive(pid)),
      (running) => !running,
    );
    await expectError(api('get', '/tools/servers/fixture'), 404, ErrorCode.ToolServerNotFound);
  });

  it('should use a Streamable HTTP server on an allowlisted loopback address with its auth header', async () => {
    const fixture = await startMcpHttpFixture();
    httpFixture = fixture;
    loopbacks.push(fixture);
    const body = {
      name: 'remote',
      transport: 'http',
      url: fixture.url,
      auth_header_name: 'X-Fixture-Key',
      auth_header_value: HTTP_KEY,
      allowed_departments: [outsider.department],
    };
    // A loopback address is refused until someone trusts it.
    await expectError(api('post', '/tools/servers').send(body), 400);
    const created = await api('post', '/tools/servers')
      .send({ ...body, trust_address: true })
      .expect(201);
    expect(created.body.data).toMatchObject({ tool_count: 5, has_auth_header_value: true });
    expect(JSON.stringify(created.body)).not.toContain(HTTP_KEY);
    expect(fixture.headers.length).toBeGreaterThan(0);
    expect(fixture.headers.every((h) => h['x-fixture-key'] === HTTP_KEY)).toBe(true);

    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'remote__echo', arguments: { text: 'over http' } }] },
      { kind: 'text', text: 'Done.' },
    );
    await runToEnd(outsider.name);
    expect(lastRun().replies).toEqual(['echo: over http']);

    // A new URL needs the secret again.
    await expectError(
      api('put', '/tools/servers/remote').send({ url: `${fixture.origin}/other`, trust_address: true }),
      400,
      ErrorCode.ToolServerSecretsMustFollow,
    );
  });

  it('should never carry the auth header through a redirect to another origin', async () => {
    const sink = await startSink();
    const redirector = await startRedirector(sink.url);
    loopbacks.push(sink, redirector);
    await api('post', '/tools/servers')
      .send({
        name: 'bounce',
        transport: 'http',
        url: redirector.url,
        auth_header_name: 'Authorization',
        auth_header_value: `Bearer ${HTTP_KEY}`,
        trust_address: true,
      })
      .expect(201);
    await api('post', '/providers/discovery-policy/entries')
      .send({ host_port: sink.origin.slice(7) })
      .expect(201);
    const test = (await api('post', '/tools/servers/bounce/test').expect(201)).body.data as Json;
    expect(test).toMatchObject({ success: false, error_code: ErrorCode.ToolServerUnavailable });
    expect(redirector.headers.length).toBeGreaterThan(0);
    expect(redirector.headers[0].authorization).toBe(`Bearer ${HTTP_KEY}`);
    expect(sink.headers.filter((h) => h.authorization !== undefined)).toEqual([]);
  });

  describe('the service as an MCP server', () => {
    const connect = async (token: string | null): Promise<Client> => {
      const client = new Client({ name: 'outside-assistant', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
        requestInit: { headers: token === null ? {} : { authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      return client;
    };
    const payload = (result: Awaited<ReturnType<Client['callTool']>>): Json =>
      JSON.parse((result.content as Array<{ text: string }>)[0].text) as Json;

    it('should list and call its curated tools with a token, as the REST routes answer that person', async () => {
      const client = await connect(ceo);
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
        expect(names).toEqual([
          'budget_status',
          'create_task',
          'get_task',
          'list_pending_approvals',
          'list_tasks',
          'post_message',
        ]);
        const created = await client.callTool({
          name: 'create_task',
          arguments: { title: 'From an assistant', description: 'Filed over MCP.', project: scene.project },
        });
        expect(created.isError).toBeFalsy();
        const task = payload(created);
        expect(task).toMatchObject({ title: 'From an assistant', created_by: 'ceo', status: 'created' });
        const read = payload(await client.callTool({ name: 'get_task', arguments: { task_id: task.id } }));
        expect(read.task).toMatchObject({ id: task.id });
        expect(read.artifacts).toEqual([]);
        const listed = await client.callTool({ name: 'list_tasks', arguments: { limit: 50 } });
        expect(JSON.stringify(payload(listed))).toContain(task.id as string);
        expect((await client.callTool({ name: 'list_pending_approvals', arguments: {} })).isError).toBeFalsy();
        expect((await client.callTool({ name: 'budget_status', arguments: {} })).isError).toBeFalsy();
      } finally {
        await client.close();
      }
      const audit = await t.app
        .get(DatabaseService)
        .dataSource.getRepository(AuditEntryEntity)
        .findBy({ action: 'mcp.tool_called' });
      expect(audit.map((row) => row.target)).toEqual(expect.arrayContaining(['mcp:create_task', 'mcp:get_task']));
    });

    it('should refuse a caller without a token, and a tool beyond the caller role', async () => {
      await expect(connect(null)).rejects.toThrow();
      const observer = await connect(await scene.observer());
      try {
        const refused = await observer.callTool({
          name: 'create_task',
          arguments: { title: 'Sneaky', description: 'No.', project: scene.project },
        });
        expect(refused.isError).toBe(true);
        expect(payload(refused)).toMatchObject({ status: 403 });
        expect((await observer.callTool({ name: 'list_tasks', arguments: {} })).isError).toBeFalsy();
      } finally {
        await observer.close();
      }
    });

    it("should rate-limit each user's MCP requests with the API's 429, code and Retry-After", async () => {
      const token = await userWithRole(t, ceo, HumanRole.Observer, 'mcp-client');
      const ping = (id: number) =>
        t.http
          .post('/api/v1/mcp')
          .set(bearer(token))
          .set('accept', 'application/json, text/event-stream')
          .send({ jsonrpc: '2.0', id, method: 'ping' });
      for (let id = 1; id <= MCP_PER_MINUTE; id += 1) {
        await ping(id).expect(200);
      }
      const refused = await ping(MCP_PER_MINUTE + 1).expect(429);
      expect((refused.body as Json).error_detail.error_code).toBe(ErrorCode.RateLimited);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['ratelimit-policy']).toContain(`"mcp";q=${MCP_PER_MINUTE}`);
      // The MCP window is the endpoint's own: the same user's REST calls still go through.
      await t.http.get('/api/v1/tasks').set(bearer(token)).expect(200);
    });
  });

  // The last tests: this replica's engine stops in the first, and the secrets key changes in the second.
  it("should count a run's server calls from what it recorded, so the cap holds on the replica that resumes it", async () => {
    await api('post', '/tools/servers').send(stdioServer('moved')).expect(201);
    await scene.setSetting('tool_server_max_calls_per_run', '2').expect(200);
    await api('put', `/agents/${agent.name}/autonomy`).send({ level: 'supervised', reason: 'tool test' }).expect(200);
    let other: TestApp | null = null;
    try {
      mock.enqueue(
        { kind: 'tool_calls', calls: [{ name: 'moved__echo', arguments: { text: 'one' } }] },
        { kind: 'tool_calls', calls: [{ name: 'moved__echo', arguments: { text: 'two' } }] },
        { kind: 'tool_calls', calls: [{ name: 'moved__wipe', arguments: { target: 'three' } }] },
      );
      const id = await createTask(agent.name);
      const waiting = await eventually(
        () => scene.getTask(id),
        (x) => typeof x.status_reason === 'string' && x.status_reason.startsWith('waiting for approval '),
      );
      // This replica's engine goes away while the run waits; another replica, with nothing of the run
      // in memory, takes the decided run up.
      await t.app.get(TaskEngine).beforeApplicationShutdown();
      const approvalId = /waiting for approval ([0-9a-f-]+)/.exec(waiting.status_reason as string)?.[1] as string;
      await api('post', `/approvals/${approvalId}/approve`).send({ comment: 'go' }).expect(200);
      mock.enqueue({ kind: 'text', text: 'Stopped.' });
      other = await startTestApp({ backend, database: t.db, env: { SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1' } });
      await eventually(
        () => scene.getTask(id),
        (x) => x.status === 'completed',
      );
      const { replies } = lastRun();
      expect(replies.slice(0, 2)).toEqual(['echo: one', 'echo: two']);
      expect(replies[2]).toContain('this run made its 2 calls');
      expect(replies[2]).not.toContain('wiped');
    } finally {
      await other?.close();
      await scene.setSetting('tool_server_max_calls_per_run', '50').expect(200);
      await api('put', `/agents/${agent.name}/autonomy`).send({ level: null }).expect(200);
    }
  });

  it("should re-seal the servers' secrets when the secrets key rotates, and still connect with them", async () => {
    await api('post', '/tools/servers')
      .send({ ...stdioServer('rotated'), allowed_agents: [] })
      .expect(201);
    // The scene's key is derived from the signing secret; the next start has a new one and keeps the old.
    const oldKey = Buffer.from(hkdfSync('sha256', TEST_JWT_SECRET, 'synthorg', 'provider-secrets-v1', 32));
    const newKey = randomBytes(32);
    const ring = (key: Buffer) =>
      new SecretCipher({ currentKeyId: secretKeyId(key), keys: new Map([[secretKeyId(key), key]]), derived: false });
    const rows = () => t.app.get(DatabaseService).dataSource.getRepository(ToolServerEntity).find();
    expect((await rows()).filter((r) => r.secrets !== null).map((r) => r.secretsKeyId)).toEqual(
      expect.arrayContaining([secretKeyId(oldKey)]),
    );
    const rotated = await startTestApp({
      backend,
      database: t.db,
      env: {
        SYNTHORG_SECRETS_KEY: newKey.toString('hex'),
        SYNTHORG_SECRETS_PREVIOUS_KEYS: oldKey.toString('hex'),
        SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'true',
        SYNTHORG_ENGINE_ENABLED: 'false',
      },
    });
    try {
      const sealed = (await rows()).filter((r) => r.secrets !== null);
      expect(sealed.map((r) => r.name).sort()).toEqual(['bounce', 'moved', 'remote', 'rotated']);
      for (const row of sealed) {
        expect(row.secretsKeyId).toBe(secretKeyId(newKey));
        expect(() => ring(oldKey).open(row.secrets as string)).toThrow();
      }
      const opened = (name: string) =>
        JSON.parse(ring(newKey).open(sealed.find((r) => r.name === name)?.secrets as string)) as Json;
      expect(opened('rotated').env).toEqual({ FIXTURE_TOKEN: TOKEN });
      expect(opened('remote').auth).toBe(HTTP_KEY);

      // The new start connects with the re-sealed secrets: the stdio server gets its variable (its log
      // line is redacted, which only a matching value is), the HTTP server its header.
      const stdio = (await rotated.http.post('/api/v1/tools/servers/rotated/test').set(bearer(ceo)).expect(201)).body
        .data as Json;
      expect(stdio).toMatchObject({ success: true, tool_count: 5 });
      const activity = join(rotated.logDir, 'agent_activity.log');
      const logged = await eventually(
        () => Promise.resolve(existsSync(activity) ? readFileSync(activity, 'utf8') : ''),
        (text) => text.includes('fixture starting with token'),
      );
      expect(logged).toContain('fixture starting with token [REDACTED]');
      const seen = httpFixture.headers.length;
      const remote = (await rotated.http.post('/api/v1/tools/servers/remote/test').set(bearer(ceo)).expect(201)).body
        .data as Json;
      expect(remote).toMatchObject({ success: true });
      expect(httpFixture.headers.slice(seen).every((h) => h['x-fixture-key'] === HTTP_KEY)).toBe(true);
      expect(httpFixture.headers.length).toBeGreaterThan(seen);
    } finally {
      await rotated.close();
    }
  });
});
