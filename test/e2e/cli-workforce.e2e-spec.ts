import { testBackends } from '@app/testing';

import {
  addMockProvider,
  bearer,
  createCompany,
  type MockLlm,
  setupCeo,
  startMockLlm,
  startTestApp,
  type TestApp,
} from '../support';
import { cliRunner, type CliRunner } from './cli-runner';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(120_000);

const ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
  SYNTHORG_MEMORY_EMBEDDER_PROVIDER: 'mock',
  SYNTHORG_MEMORY_EMBEDDER_MODEL: 'mock-embed',
};

// The workforce commands of the built `synthorg` binary against a listening server: hiring from a
// template role to a new agent, a level evaluation, an edit guarded by the agent's version, and
// memory status and organisation facts; every --json answer checked against the API.
describe.each(testBackends())('the synthorg workforce commands on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let cli: CliRunner;
  let ceo: string;
  let agent: string;

  const api = async (method: 'get' | 'post', path: string, body?: Json): Promise<Json> => {
    const req = t.http[method](`/api/v1${path}`).set(bearer(ceo));
    const res = body ? await req.send(body) : await req;
    if (res.status >= 300) {
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body as Json;
  };

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: ENV, listen: true });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock, { alias: 'small' });
    await createCompany(t, ceo);
    agent = ((await api('get', '/agents')).data as Json[])[0].name as string;
    cli = cliRunner(() => ({ XDG_CONFIG_HOME: '/nonexistent', SYNTHORG_URL: t.url as string, SYNTHORG_TOKEN: ceo }));
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it('should hire: file a request, list and show it, select a candidate and instantiate the agent', async () => {
    const filed = await cli.json([
      'agents',
      'hire',
      '--department',
      'engineering',
      '--role',
      'Full-Stack Developer',
      '--level',
      'mid',
      '--skill',
      'typescript',
      '--skill',
      'api-design',
      '--reason',
      'The backlog outgrew the team',
      '--budget-limit',
      '40',
    ]);
    expect(filed).toMatchObject({
      status: 'approved',
      requested_by: 'ceo',
      department: 'engineering',
      required_skills: ['typescript', 'api-design'],
      budget_limit_monthly: 40,
    });
    expect(filed.candidates.length).toBeGreaterThan(0);
    expect(await cli.json(['hiring', 'show', filed.id])).toEqual(
      (await api('get', `/hiring/requests/${filed.id}`)).data,
    );
    expect(await cli.json(['hiring', 'list', '--status', 'approved'])).toEqual(
      (await api('get', '/hiring/requests?status=approved')).data,
    );
    expect((await cli.run(['hiring', 'list', '-q'])).stdout).toContain(`${filed.id}\n`);
    const table = await cli.run(['hiring', 'show', filed.id]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(filed.candidates[0].name);

    const candidate = filed.candidates[filed.candidates.length - 1] as Json;
    const selected = await cli.json(['hiring', 'select', filed.id, candidate.id]);
    expect(selected).toMatchObject({ id: filed.id, selected_candidate_id: candidate.id });

    const made = await cli.json(['hiring', 'instantiate', filed.id]);
    expect(made).toMatchObject({ status: 'instantiated', selected_candidate_id: candidate.id });
    expect(made).toEqual((await api('get', `/hiring/requests/${filed.id}`)).data);
    const hired = (await api('get', `/agents/${encodeURIComponent(candidate.name)}`)).data as Json;
    expect(hired.id).toBe(made.agent_id);

    const onboarding = await cli.json(['agents', 'onboarding', candidate.name]);
    expect(onboarding).toMatchObject({ agent_name: candidate.name, hiring_request_id: filed.id });

    // Instantiating twice is a conflict: exit 5 with the API's code.
    const again = await cli.run(['hiring', 'instantiate', filed.id]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('(code 4082)');
    expect(again.stdout).toBe('');
  });

  it('should evaluate an agent for promotion, also as `agents promote`', async () => {
    const evaluation = await cli.json(['agents', 'evaluate-level', agent]);
    expect(evaluation).toMatchObject({ agent_name: agent, level: expect.any(String), decision: expect.any(String) });
    const again = await cli.json(['agents', 'promote', agent]);
    expect(again).toMatchObject({ agent_name: agent, level: evaluation.level, decision: evaluation.decision });
    expect((await cli.run(['agents', 'promote', 'nobody here'])).code).toBe(4);
  });

  it('should file a request to fire an agent as an approval item', async () => {
    const roster = (await api('get', '/agents')).data as Json[];
    const target = roster[roster.length - 1].name as string;
    const item = await cli.json(['agents', 'fire-request', target, '--reason', 'budget', '--details', 'over plan']);
    expect(item).toEqual((await api('get', `/approvals/${item.id}`)).data);
    expect((await cli.run(['agents', 'fire-request', target])).code).toBe(2);
  });

  it('should edit an agent with its version as If-Match', async () => {
    const onLeave = await cli.json(['agents', 'edit', agent, '--status', 'on_leave', '--reason', 'a week off']);
    expect(onLeave).toMatchObject({ name: agent, status: 'on_leave' });
    expect(onLeave).toEqual((await api('get', `/agents/${encodeURIComponent(agent)}`)).data);
    const back = await cli.run(['agents', 'edit', agent, '--status', 'active']);
    expect(back).toMatchObject({ code: 0, stdout: `Updated ${agent}.\n` });
    expect((await cli.run(['agents', 'edit', agent])).code).toBe(2);
    expect((await cli.run(['agents', 'edit', agent, '--status', 'gone'])).code).toBe(2);
  });

  it('should show the memory status and add, list and delete organisation facts', async () => {
    const status = await cli.json(['memory', 'status']);
    expect(status).toEqual((await api('get', '/memory/status')).data);
    expect(status).toMatchObject({ wired: true, embedder_model: 'mock-embed' });

    const fact = await cli.json([
      'memory',
      'org',
      'add',
      'Releases go out on Thursdays after the change review.',
      '--category',
      'procedure',
    ]);
    expect(fact).toMatchObject({ category: 'procedure', department: null, author: 'ceo' });
    const listed = await cli.json<Json[]>(['memory', 'org', 'list']);
    expect(listed).toEqual((await api('get', '/memory/org')).data);
    expect(listed.map((f) => f.id)).toContain(fact.id);
    expect((await cli.run(['memory', 'org', 'list', '--category', 'procedure', '-q'])).stdout).toContain(
      `${fact.id}\n`,
    );

    expect(await cli.json(['memory', 'list', agent])).toEqual(
      (await api('get', `/agents/${encodeURIComponent(agent)}/memories`)).data,
    );
    const found = await cli.json<Json[]>(['memory', 'search', agent, 'release schedule', '--limit', '5']);
    expect(found).toEqual(
      (
        await api('post', `/agents/${encodeURIComponent(agent)}/memories/search`, {
          query: 'release schedule',
          limit: 5,
        })
      ).data,
    );
    expect((await cli.run(['memory', 'search', agent, 'release schedule', '--limit', '0'])).code).toBe(2);
    expect(await cli.run(['memory', 'org', 'delete', fact.id])).toMatchObject({ code: 0 });
    expect(((await api('get', '/memory/org')).data as Json[]).map((f) => f.id)).not.toContain(fact.id);
    expect((await cli.run(['memory', 'org', 'delete', fact.id])).code).toBe(4);
    expect((await cli.run(['memory', 'org', 'add', 'no category'])).code).toBe(2);
  });
});
