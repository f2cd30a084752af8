import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { HumanRole } from '@app/domain';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import {
  bearer,
  type MockLlm,
  startMockLlm,
  startTestApp,
  TEST_JWT_SECRET,
  TEST_PASSWORD,
  type TestApp,
  userWithRole,
} from '../support';
import { mintSystemToken } from '../../apps/api/src/modules/users';
import { CLI, cliRunner, type CliRunner, jsonLines } from './cli-runner';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(120_000);

const ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
};

// The built `synthorg` binary run as a child process against a listening server: first-run setup,
// every command group's happy path with --json checked against the API, a parked run resumed by
// `approvals approve`, live events, backup and restore, exit codes, and no token in any output.
describe.each(testBackends())('the synthorg command line on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let home: string;
  let cli: CliRunner;
  let ceo: string;
  let project: string;
  let agent: string;
  const extraSecrets: string[] = [];

  const api = async (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: Json): Promise<Json> => {
    const req = t.http[method](`/api/v1${path}`).set(bearer(ceo));
    const res = body ? await req.send(body) : await req;
    if (res.status >= 300) {
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body as Json;
  };
  const configFile = () => join(home, 'synthorg', 'config.json');
  const config = () => JSON.parse(readFileSync(configFile(), 'utf8')) as Json;

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: ENV, listen: true });
    home = mkdtempSync(join(tmpdir(), 'synthorg-cli-'));
    cli = cliRunner(() => ({ XDG_CONFIG_HOME: home, SYNTHORG_URL: t.url as string, SYNTHORG_TOKEN: undefined }));
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('should run first-run setup from flags, storing the session in a 0600 profile', async () => {
    const done = await cli.run(
      [
        'setup',
        '--username',
        'ceo',
        '--password-stdin',
        '--company',
        'Acme Labs',
        '--template',
        'startup',
        '--provider-preset',
        'lm-studio',
        '--provider-url',
        `${mock.url}/v1`,
        '--trust-address',
        '--json',
      ],
      { stdin: `${TEST_PASSWORD}\n` },
    );
    expect(done).toMatchObject({ code: 0 });
    const state = JSON.parse(done.stdout) as Json;
    expect(state).toMatchObject({ needs_admin: false, needs_setup: false, has_company: true, has_providers: true });
    expect((await t.http.get('/api/v1/setup/status')).body.data).toEqual(state);

    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'synthorg')).mode & 0o777).toBe(0o700);
    const profile = config().profiles.default as Json;
    expect(profile).toMatchObject({ url: t.url, username: 'ceo', token: expect.any(String) });
    ceo = profile.token as string;

    agent = ((await api('get', '/agents')).data as Json[])[0].name as string;
    project = (await api('post', '/projects', { name: 'Command line' })).data.id as string;
  });

  it('should sign in with --password-stdin into another profile and tell who is signed in', async () => {
    const login = await cli.run(['login', '--profile', 'second', '--username', 'ceo', '--password-stdin'], {
      stdin: TEST_PASSWORD,
    });
    expect(login).toMatchObject({ code: 0 });
    expect(login.stdout).toContain('Signed in as ceo');
    expect(config().current).toBe('second');
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    const second = config().profiles.second.token as string;
    expect(second).not.toBe(ceo);
    extraSecrets.push(second);

    const me = await cli.json(['whoami', '--profile', 'second']);
    const session = (await t.http.get('/api/v1/auth/me').set(bearer(second))).body.data as Json;
    expect(me).toEqual(session);
    expect(await cli.run(['whoami', '--profile', 'second', '-q'])).toMatchObject({ code: 0, stdout: 'ceo\n' });

    expect(await cli.run(['logout', '--profile', 'second'])).toMatchObject({ code: 0 });
    expect(config().profiles.second.token).toBeUndefined();
    await t.http.get('/api/v1/auth/me').set(bearer(second)).expect(401);
    const after = await cli.run(['whoami', '--profile', 'second']);
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/\(code 1\d{3}\)/);
  });

  it('should ask for the password on a terminal without echoing it', async () => {
    // `script` gives the command a pseudo-terminal; the password is typed once the prompt shows.
    const command = `${process.execPath} ${CLI} login --profile tty --username ceo`;
    const proc = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, XDG_CONFIG_HOME: home, SYNTHORG_URL: t.url as string, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => proc.once('close', done));
    await eventually(
      () => Promise.resolve(output),
      (text) => text.includes('Password: '),
    );
    proc.stdin.write(`${TEST_PASSWORD}\r`);
    expect(await exited).toBe(0);
    expect(output).toContain('Signed in as ceo');
    expect(output).not.toContain(TEST_PASSWORD);
    const token = config().profiles.tty.token as string;
    extraSecrets.push(token);
    expect(output).not.toContain(token);
    expect(await cli.run(['logout', '--profile', 'tty'])).toMatchObject({ code: 0 });
  });

  it('should report status: health, readiness, setup, pending approvals, budget', async () => {
    const status = await cli.json(['status', '--profile', 'default']);
    const health = (await t.http.get('/api/v1/health')).body.data as Json;
    expect(status).toMatchObject({
      server: t.url,
      ready: true,
      health: { status: health.status, version: health.version },
      setup: { needs_setup: false },
      pending_approvals: 0,
      budget: { alert_level: expect.any(String) },
    });
    const table = await cli.run(['status', '--profile', 'default']);
    expect(table.stdout).toMatch(/version\s+0\.6\.1/);
  });

  it('should create, show, list, update, move, coordinate and delete tasks', async () => {
    const p = ['--profile', 'default'];
    const created = await cli.json([
      ...p,
      'tasks',
      'create',
      '--title',
      'Write the guide',
      '--type',
      'development',
      '--project',
      project,
      '--priority',
      'high',
    ]);
    expect(created).toMatchObject({ title: 'Write the guide', status: 'created', priority: 'high', created_by: 'ceo' });
    expect(await cli.json([...p, 'tasks', 'show', created.id])).toEqual(
      (await api('get', `/tasks/${created.id}`)).data,
    );
    const listed = await cli.json<Json[]>([...p, 'tasks', 'list', '--project', project, '--status', 'created']);
    expect(listed).toEqual((await api('get', `/tasks?project=${project}&status=created`)).data);
    expect((await cli.run([...p, 'tasks', 'list', '--project', project, '--status', 'created', '-q'])).stdout).toBe(
      `${created.id}\n`,
    );

    const updated = await cli.json([
      ...p,
      'tasks',
      'update',
      created.id,
      '--title',
      'Write the manual',
      '--expected-version',
      String(created.version),
    ]);
    expect(updated).toEqual((await api('get', `/tasks/${created.id}`)).data);
    expect(updated.title).toBe('Write the manual');
    // A stale version is a conflict: exit 5.
    const stale = await cli.run([
      ...p,
      'tasks',
      'update',
      created.id,
      '--title',
      'x',
      '--expected-version',
      String(created.version),
    ]);
    expect(stale.code).toBe(5);
    expect(stale.stderr).toMatch(/\(code 4\d{3}\)/);

    // An illegal move is a conflict too.
    const illegal = await cli.run([...p, 'tasks', 'transition', created.id, 'blocked']);
    expect(illegal.code).toBe(5);
    expect(illegal.stderr).toContain('(code 4015)');
    expect(await cli.json([...p, 'tasks', 'delete', created.id])).toEqual({ id: created.id, deleted: true });
    await t.http.get(`/api/v1/tasks/${created.id}`).set(bearer(ceo)).expect(404);

    // Coordination: the parent decomposed into one subtask, which the agent completes.
    const parent = await cli.json([
      ...p,
      'tasks',
      'create',
      '--title',
      'Plan the launch',
      '--type',
      'development',
      '--project',
      project,
    ]);
    mock.enqueue(
      {
        kind: 'text',
        text: JSON.stringify({
          subtasks: [{ id: 'a', title: 'Announce', description: 'Write it.', dependencies: [] }],
        }),
      },
      { kind: 'text', text: 'Announced.' },
    );
    const result = await cli.json([...p, 'tasks', 'coordinate', parent.id, '--agents', agent]);
    expect(result).toMatchObject({ parent_task_id: parent.id, is_success: true });
    mock.reset();

    // A legal move: assigning the task starts its run, which the agent completes.
    mock.enqueue({ kind: 'text', text: 'Done.' });
    const next = await cli.json([
      ...p,
      'tasks',
      'create',
      '--title',
      'Say done',
      '--type',
      'development',
      '--project',
      project,
    ]);
    const assigned = await cli.json([...p, 'tasks', 'transition', next.id, 'assigned', '--assigned-to', agent]);
    expect(assigned).toMatchObject({ id: next.id, status: 'assigned', assigned_to: agent });
    await eventually(
      async () => (await api('get', `/tasks/${next.id}`)).data as Json,
      (x) => x.status === 'completed',
      30_000,
    );
    mock.reset();
  });

  it('should resume a parked run on `approvals approve`, and show it live in `approvals watch` and `events tail`', async () => {
    const p = ['--profile', 'default'];
    const watch = cli.start([...p, 'approvals', 'watch', '--json']);
    const tail = cli.start([...p, 'events', 'tail', '--channel', 'tasks,approvals', '--json']);
    try {
      await watch.waitFor(({ stderr }) => stderr.includes('subscribed to approvals'));
      await tail.waitFor(({ stderr }) => stderr.includes('subscribed to'));

      const locked = await cli.json([
        ...p,
        'agents',
        'autonomy',
        'set',
        agent,
        'locked',
        '--reason',
        'command line test',
      ]);
      expect(locked).toEqual((await api('get', `/agents/${agent}/autonomy`)).data);
      expect(locked.level).toBe('locked');

      mock.enqueue(
        { kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }] },
        { kind: 'text', text: 'Listed and done.' },
      );
      const task = await cli.json([
        ...p,
        'tasks',
        'create',
        '--title',
        'Look around',
        '--type',
        'development',
        '--project',
        project,
        '--assigned-to',
        agent,
      ]);
      const waiting = await eventually(
        async () => (await api('get', `/tasks/${task.id}`)).data as Json,
        (x) => typeof x.status_reason === 'string' && x.status_reason.startsWith('waiting for approval '),
        30_000,
      );
      const approvalId = /waiting for approval ([0-9a-f-]+)/.exec(waiting.status_reason as string)?.[1] as string;

      // The live streams saw the task the CLI created and the approval item the run filed.
      await tail.waitFor(({ stdout }) =>
        jsonLines(stdout).some((e) => e.event_type === 'task.created' && e.payload.task_id === task.id),
      );
      await watch.waitFor(({ stdout }) => jsonLines(stdout).some((item) => item.id === approvalId));
      expect(jsonLines(watch.stdout()).find((item) => item.id === approvalId)).toMatchObject({
        status: 'pending',
        task_id: task.id,
      });

      const pending = await cli.json<Json[]>([...p, 'approvals', 'list', '--status', 'pending']);
      expect(pending.map((a) => a.id)).toContain(approvalId);
      const shown = await cli.json([...p, 'approvals', 'show', approvalId]);
      expect(shown).toMatchObject({ id: approvalId, status: 'pending', task_id: task.id });
      expect((await cli.json([...p, 'status'])).pending_approvals).toBeGreaterThanOrEqual(1);

      const approved = await cli.json([...p, 'approvals', 'approve', approvalId, '--comment', 'go ahead']);
      expect(approved).toMatchObject({ id: approvalId, status: 'approved', decided_by: 'ceo' });
      const finished = await eventually(
        async () => (await api('get', `/tasks/${task.id}`)).data as Json,
        (x) => x.status === 'completed',
        30_000,
      );
      expect(finished.status).toBe('completed');
      await tail.waitFor(({ stdout }) =>
        jsonLines(stdout).some(
          (e) =>
            e.event_type === 'task.status_changed' && e.payload.task_id === task.id && e.payload.status === 'completed',
        ),
      );
    } finally {
      expect(await watch.stop()).toBe(0);
      expect(await tail.stop()).toBe(0);
      mock.reset();
    }

    // Another parked run, cancelled from the command line.
    mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }] });
    const second = await cli.json([
      ...p,
      'tasks',
      'create',
      '--title',
      'Look again',
      '--type',
      'development',
      '--project',
      project,
      '--assigned-to',
      agent,
    ]);
    await eventually(
      async () => (await api('get', `/tasks/${second.id}`)).data as Json,
      (x) => typeof x.status_reason === 'string' && x.status_reason.startsWith('waiting for approval '),
      30_000,
    );
    const cancelled = await cli.json([...p, 'tasks', 'cancel', second.id, '--reason', 'not needed']);
    expect(cancelled).toMatchObject({ id: second.id, status: 'cancelled' });
    expect(cancelled).toEqual((await api('get', `/tasks/${second.id}`)).data);
    mock.reset();

    // A manual approval item, rejected from the command line.
    const filed = (
      await api('post', '/approvals', {
        action_type: 'deploy:production',
        title: 'Ship it',
        description: 'Release 2',
        risk_level: 'high',
      })
    ).data as Json;
    const rejected = await cli.json([...p, 'approvals', 'reject', filed.id, '--reason', 'not on a Friday']);
    expect(rejected).toMatchObject({ id: filed.id, status: 'rejected', decision_reason: 'not on a Friday' });
    expect(await cli.json([...p, 'agents', 'autonomy', 'set', agent, 'inherit'])).toMatchObject({ agent_level: null });
  });

  it('should read agents, their activity, performance and autonomy', async () => {
    const p = ['--profile', 'default'];
    expect(await cli.json([...p, 'agents', 'list'])).toEqual((await api('get', '/agents')).data);
    expect(await cli.json([...p, 'agents', 'show', agent])).toEqual((await api('get', `/agents/${agent}`)).data);
    expect(await cli.json([...p, 'agents', 'activity', agent])).toEqual(
      (await api('get', `/agents/${agent}/activity`)).data,
    );
    expect(await cli.json([...p, 'agents', 'performance', agent])).toEqual(
      (await api('get', `/agents/${agent}/performance`)).data,
    );
    expect(await cli.json([...p, 'agents', 'autonomy', 'get', agent])).toEqual(
      (await api('get', `/agents/${agent}/autonomy`)).data,
    );
    const table = await cli.run([...p, 'agents', 'list']);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+ROLE\s+DEPARTMENT/);
    expect(table.stdout).toContain(agent);
  });

  it('should read the budget and change its configuration', async () => {
    const p = ['--profile', 'default'];
    expect(await cli.json([...p, 'budget', 'show'])).toEqual((await api('get', '/budget')).data);
    expect(await cli.json([...p, 'budget', 'records'])).toEqual((await api('get', '/budget/records')).data);
    expect(await cli.json([...p, 'budget', 'forecast', '--horizon-days', '7'])).toEqual(
      (await api('get', '/analytics/forecast?horizon_days=7')).data,
    );
    const set = await cli.json([...p, 'budget', 'config', 'set', 'per_task_limit', '7.5']);
    expect(set).toMatchObject({ value: '7.5', source: 'db' });
    const configured = await cli.json([...p, 'budget', 'config', 'get']);
    expect(configured).toEqual((await api('get', '/budget/config')).data);
    expect(configured.per_task_limit).toBe(7.5);
  });

  it('should add, show, test, discover and remove providers', async () => {
    const p = ['--profile', 'default'];
    expect(await cli.json([...p, 'providers', 'list'])).toEqual((await api('get', '/providers')).data);
    expect(await cli.json([...p, 'providers', 'presets'])).toEqual((await api('get', '/providers/presets')).data);
    const added = await cli.json([
      ...p,
      'providers',
      'add',
      'spare',
      '--gateway-provider',
      'openai',
      '--auth-type',
      'none',
      '--base-url',
      `${mock.url}/v1`,
      '--model',
      'mock-small:spare-small',
      '--trust-address',
    ]);
    expect(added).toMatchObject({
      name: 'spare',
      models: [expect.objectContaining({ id: 'mock-small', alias: 'spare-small' })],
    });
    expect(await cli.json([...p, 'providers', 'show', 'spare'])).toEqual((await api('get', '/providers/spare')).data);
    mock.enqueue({ kind: 'text', text: 'pong' });
    expect(await cli.json([...p, 'providers', 'test', 'spare'])).toMatchObject({ success: true });
    const discovered = await cli.json<Json>([...p, 'providers', 'discover', 'spare']);
    expect(discovered).toEqual(expect.arrayContaining(['mock-medium']));
    expect((await api('get', '/providers/spare')).data.models.map((m: Json) => m.id)).toContain('mock-medium');
    expect(await cli.json([...p, 'providers', 'remove', 'spare'])).toEqual({ name: 'spare', removed: true });
    await t.http.get('/api/v1/providers/spare').set(bearer(ceo)).expect(404);
    mock.reset();
  });

  it('should list, read, set and reset settings, and show their schema', async () => {
    const p = ['--profile', 'default'];
    expect(await cli.json([...p, 'settings', 'list'])).toEqual((await api('get', '/settings')).data);
    expect(await cli.json([...p, 'settings', 'list', 'backup'])).toEqual((await api('get', '/settings/backup')).data);
    expect(await cli.json([...p, 'settings', 'schema', 'backup'])).toEqual(
      (await api('get', '/settings/_schema/backup')).data,
    );
    expect(await cli.json([...p, 'settings', 'schema'])).toEqual((await api('get', '/settings/_schema')).data);
    const set = await cli.json([...p, 'settings', 'set', 'backup', 'max_count', '12']);
    expect(set).toMatchObject({ value: '12', source: 'db' });
    expect(await cli.json([...p, 'settings', 'get', 'backup', 'max_count'])).toEqual(
      (await api('get', '/settings/backup/max_count')).data,
    );
    expect(await cli.run([...p, 'settings', 'get', 'backup', 'max_count', '-q'])).toMatchObject({
      code: 0,
      stdout: '12\n',
    });
    expect(await cli.json([...p, 'settings', 'reset', 'backup', 'max_count'])).toEqual({
      namespace: 'backup',
      key: 'max_count',
      reset: true,
    });
    expect((await api('get', '/settings/backup/max_count')).data.source).not.toBe('db');
  });

  it('should create accounts, change their role and delete them', async () => {
    const p = ['--profile', 'default'];
    // --password-stdin with nothing piped, or no terminal to ask on: usage errors, nothing created.
    expect((await cli.run([...p, 'users', 'create', 'ada', '--role', 'observer', '--password-stdin'])).code).toBe(2);
    expect((await cli.run([...p, 'users', 'create', 'ada', '--role', 'observer'])).code).toBe(2);
    const made = await cli.run([...p, 'users', 'create', 'ada', '--role', 'observer', '--password-stdin', '--json'], {
      stdin: TEST_PASSWORD,
    });
    expect(made.code).toBe(0);
    const ada = JSON.parse(made.stdout) as Json;
    expect(ada).toMatchObject({ username: 'ada', role: 'observer', must_change_password: true });
    expect(await cli.json([...p, 'users', 'list'])).toEqual((await api('get', '/users?limit=200')).data);
    const promoted = await cli.json([...p, 'users', 'set-role', 'ada', 'board_member']);
    const { updated_at: _at, ...stored } = (await api('get', `/users/${ada.id}`)).data as Json;
    expect(promoted).toMatchObject({ ...stored, role: 'board_member' });
    expect(await cli.json([...p, 'users', 'delete', ada.id])).toEqual({ id: ada.id, deleted: true });
    await t.http.get(`/api/v1/users/${ada.id}`).set(bearer(ceo)).expect(404);
  });

  it('should list, verify and export the audit trail, and name the broken row', async () => {
    const p = ['--profile', 'default'];
    expect(await cli.json([...p, 'audit', 'list'])).toEqual((await api('get', '/audit')).data);
    expect(await cli.json([...p, 'audit', 'verify'])).toEqual((await api('get', '/audit/verify')).data);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const exported = await cli.run([...p, 'audit', 'export', '--since', since, '--format', 'jsonl']);
    expect(exported.code).toBe(0);
    const rows = jsonLines(exported.stdout);
    const all = (await api('get', `/audit?since=${encodeURIComponent(since)}&limit=200`)).data as Json[];
    expect(rows).toEqual([...all].sort((a, b) => a.seq - b.seq));
    expect(rows.length).toBeGreaterThan(3);
    const file = join(home, 'audit.jsonl');
    expect(await cli.run([...p, 'audit', 'export', '--since', since, '-o', file])).toMatchObject({ code: 0 });
    expect(readFileSync(file, 'utf8')).toBe(exported.stdout);
    expect((await cli.run([...p, 'audit', 'export', '--since', since, '--format', 'csv'])).code).toBe(2);

    const source = t.app.get(DatabaseService).dataSource;
    const seq = rows[1].seq as number;
    await source.query(`UPDATE audit_entries SET actor = 'intruder' WHERE seq = ${seq}`);
    const broken = await cli.run([...p, 'audit', 'verify']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`broken at row ${seq}`);
    expect(broken.stdout).toMatch(/actor\s+intruder/);
    const brokenJson = await cli.run([...p, 'audit', 'verify', '--json']);
    expect(brokenJson.code).toBe(1);
    expect(JSON.parse(brokenJson.stdout)).toMatchObject({
      ok: false,
      broken_seq: seq,
      broken_row: { seq, actor: 'intruder' },
    });
    await source.query(`UPDATE audit_entries SET actor = '${rows[1].actor as string}' WHERE seq = ${seq}`);
  });

  it('should answer the exit codes: 401 and 403 → 3, 404 → 4, 409 → 5, usage → 2', async () => {
    const p = ['--profile', 'default'];
    const forged = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.c2lnbmF0dXJlLW5vdC12YWxpZA';
    const unauthenticated = await cli.run(['tasks', 'list'], { env: { SYNTHORG_TOKEN: forged } });
    expect(unauthenticated.code).toBe(3);
    expect(unauthenticated.stderr).toMatch(/^synthorg: .*\(code 1\d{3}\)\n$/);
    expect(unauthenticated.stderr).not.toContain(forged);

    const observer = await userWithRole(t, ceo, HumanRole.Observer, 'watcher');
    extraSecrets.push(observer);
    const forbidden = await cli.run(['users', 'list'], { env: { SYNTHORG_TOKEN: observer } });
    expect(forbidden.code).toBe(3);
    expect(forbidden.stderr).toMatch(/\(code 1\d{3}\)/);

    const missing = await cli.run([...p, 'tasks', 'show', 'task-that-does-not-exist']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^synthorg: .+\(code 3\d{3}\)\n$/);

    const me = (await api('get', '/auth/me')).data as Json;
    const lastCeo = await cli.run([...p, 'users', 'set-role', me.id as string, 'observer']);
    expect(lastCeo.code).toBe(5);
    expect(lastCeo.stderr).toContain('(code 4019)');

    const invalid = await cli.run([
      ...p,
      'tasks',
      'create',
      '--title',
      'x',
      '--type',
      'nonsense',
      '--project',
      project,
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/\(code 2\d{3}\)/);

    for (const args of [
      ['tasks', 'frobnicate'],
      ['tasks', 'list', '--bogus'],
      ['tasks', 'show'],
      ['backup', 'restore', '0123456789ab'],
      ['tasks', 'list', '--limit', 'ten'],
      [],
    ]) {
      const usage = await cli.run([...p, ...args]);
      expect({ args, code: usage.code }).toEqual({ args, code: 2 });
    }
    expect((await cli.run(['--help'])).code).toBe(0);
    expect((await cli.run(['tasks', 'create', '--help'])).stdout).toContain('--assigned-to <agent>');
  });

  it('should take a backup, list and show it, restore it with --confirm, and delete it', async () => {
    const p = ['--profile', 'default'];
    const manifest = await cli.json([...p, 'backup', 'create']);
    expect(manifest).toMatchObject({ backup_id: expect.stringMatching(/^[0-9a-f]{12}$/), trigger: 'manual' });
    expect(await cli.json([...p, 'backup', 'show', manifest.backup_id])).toEqual(
      (await api('get', `/admin/backups/${manifest.backup_id}`)).data,
    );
    // The System identity's token works as well (what `npm run system-token` prints).
    const system = mintSystemToken(TEST_JWT_SECRET);
    extraSecrets.push(system);
    const listed = await cli.json<Json[]>(['backup', 'list'], { env: { SYNTHORG_TOKEN: system } });
    expect(listed).toEqual((await api('get', '/admin/backups')).data);
    expect(listed.map((b) => b.backup_id)).toContain(manifest.backup_id);

    const marker = (await api('post', '/projects', { name: 'After the backup' })).data.id as string;
    const restored = await cli.json([...p, 'backup', 'restore', manifest.backup_id, '--confirm']);
    expect(restored).toMatchObject({
      manifest: { backup_id: manifest.backup_id },
      safety_backup_id: expect.any(String),
    });
    await eventually(
      () =>
        t.http
          .get(`/api/v1/projects/${marker}`)
          .set(bearer(ceo))
          .then((r) => r.status),
      (status) => status === 404,
    );
    expect(await cli.json([...p, 'backup', 'delete', manifest.backup_id])).toEqual({
      backup_id: manifest.backup_id,
      deleted: true,
    });
    expect((await cli.run([...p, 'backup', 'show', manifest.backup_id])).code).toBe(4);
  });

  it('should print completion scripts for bash, zsh and fish', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = await cli.run(['completion', shell]);
      expect(script.code).toBe(0);
      expect(script.stdout).toContain('approvals');
      expect(script.stdout).toContain('password-stdin');
    }
    const bash = (await cli.run(['completion', 'bash'])).stdout;
    const file = join(home, 'completion.bash');
    writeFileSync(file, bash);
    execFileSync('bash', ['-n', file]);
    expect((await cli.run(['completion', 'powershell'])).code).toBe(2);
  });

  it('should never print a token', () => {
    const transcript = cli.transcript();
    expect(transcript.length).toBeGreaterThan(10_000);
    for (const secret of [ceo, ...extraSecrets]) {
      expect(transcript).not.toContain(secret);
    }
    expect(transcript).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/);
  });
});
