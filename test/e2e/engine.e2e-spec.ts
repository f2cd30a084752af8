import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CostRecordEntity, TaskMetricEntity, ToolInvocationEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';
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

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const API = '/api/v1/tasks';
const ENGINE_ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
};

jest.setTimeout(60_000);

describe.each(testBackends())('work engine on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let project: string;
  let agent: { id: string; name: string };

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: ENGINE_ENV });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock, { alias: 'small' });
    const company = await createCompany(t, ceo);
    const agents = (await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[];
    const first = agents.find((a) => a.name === company.agents[0].name) as Json;
    agent = { id: first.id as string, name: first.name as string };
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Engine' }).expect(201)).body.data
      .id as string;
  });

  afterEach(() => mock.reset());

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const getTask = async (id: string): Promise<Json> =>
    (await t.http.get(`${API}/${id}`).set(bearer(ceo)).expect(200)).body.data as Json;

  async function assign(extra: Json = {}): Promise<Json> {
    const res = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({
        title: 'Write the README',
        description: 'Add docs/README.md that says hello.',
        type: 'development',
        project,
        created_by: 'ceo',
        assigned_to: agent.name,
        acceptance_criteria: [{ description: 'docs/README.md exists' }],
        ...extra,
      })
      .expect(201);
    return res.body.data as Json;
  }

  const rows = <E extends object>(entity: new () => E, where: Partial<E>) =>
    t.app
      .get(DatabaseService)
      .dataSource.getRepository(entity)
      .findBy(where as never);

  it('should run an assigned task end to end: tools change files in its worktree, the work is merged, costs are recorded', async () => {
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'write_file', arguments: { path: 'docs/README.md', content: '# Hello\n' } }],
      },
      { kind: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'docs/README.md' } }] },
      { kind: 'tool_calls', calls: [{ name: 'commit_changes', arguments: { message: 'Add the README' } }] },
      { kind: 'text', text: 'Wrote docs/README.md.', inputTokens: 100, outputTokens: 20 },
    );
    const task = await assign();
    const done = await eventually(
      () => getTask(task.id as string),
      (x) => x.status === 'completed',
    );
    expect(done).toMatchObject({ status: 'completed', assigned_to: agent.name, status_reason: null });
    expect(done.started_at).not.toBeNull();
    expect(done.completed_at).not.toBeNull();

    const repo = join(t.config.engine.workspaceDir, 'repo');
    expect(readFileSync(join(repo, 'docs/README.md'), 'utf8')).toBe('# Hello\n');
    expect(existsSync(join(t.config.engine.workspaceDir, 'worktrees', task.id as string))).toBe(false);

    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats).toHaveLength(4);
    const first = chats[0].body as Json;
    expect(first.model).toBe('mock-small');
    // The standard access level: send_message (communication) is offered only with elevated access or an allow.
    expect((first.tools as Json[]).map((x) => x.function.name).sort()).toEqual(
      ['commit_changes', 'list_files', 'read_file', 'run_command', 'search_files', 'write_file'].sort(),
    );
    expect(first.messages[0].role).toBe('system');
    expect(first.messages[1].content).toContain('docs/README.md exists');
    const toolReply = (chats[2].body as Json).messages.find(
      (m: Json) => m.role === 'tool' && m.content.includes('# Hello'),
    );
    expect(toolReply).toBeDefined();

    const costs = await rows(CostRecordEntity, { taskId: task.id as string });
    expect(costs).toHaveLength(4);
    const last = costs.find((c) => c.inputTokens === 100) as CostRecordEntity;
    expect(last).toMatchObject({ agentId: agent.id, provider: 'mock', model: 'mock-small', outputTokens: 20 });
    expect(last.costUsd).toBeCloseTo(0.1 + 0.04, 8);
    expect(costs.every((c) => c.callCategory === 'productive')).toBe(true);
    const tools = await rows(ToolInvocationEntity, { taskId: task.id as string });
    expect(tools.map((x) => x.toolName).sort()).toEqual(['commit_changes', 'read_file', 'write_file']);
    const metrics = await rows(TaskMetricEntity, { taskId: task.id as string });
    expect(metrics).toEqual([expect.objectContaining({ agentId: agent.id, isSuccess: true, turnsUsed: 4 })]);
  });

  it('should let a run that only reads see the base branch without a worktree or branch of its own', async () => {
    mock.reset();
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: 'docs' } }] },
      { kind: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'docs/README.md' } }] },
      { kind: 'text', text: 'The README says hello.' },
    );
    const task = await assign();
    await eventually(
      () => getTask(task.id as string),
      (x) => x.status === 'completed',
    );

    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const toolReplies = (chats[2].body as Json).messages.filter((m: Json) => m.role === 'tool') as Json[];
    expect(toolReplies.map((m) => m.content)).toEqual(['docs/README.md', '# Hello\n']);
    const repo = join(t.config.engine.workspaceDir, 'repo');
    const branches = execFileSync('git', ['branch', '--list', `workspace/${task.id as string}/*`], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(branches.trim()).toBe('');
    expect(existsSync(join(t.config.engine.workspaceDir, 'worktrees', task.id as string))).toBe(false);
    const tools = await rows(ToolInvocationEntity, { taskId: task.id as string });
    expect(tools.map((x) => [x.toolName, x.success]).sort()).toEqual([
      ['list_files', true],
      ['read_file', true],
    ]);
  });

  it('should show task_started, task_completed, cost_incurred and tool_used in the activity feeds', async () => {
    const feed = (await t.http.get('/api/v1/activities').set(bearer(ceo)).expect(200)).body.data as Json[];
    const types = new Set(feed.map((e) => e.event_type));
    for (const type of ['task_started', 'task_completed', 'cost_incurred', 'tool_used']) {
      expect(types).toContain(type);
    }
    const own = (await t.http.get(`/api/v1/agents/${agent.name}/activity`).set(bearer(ceo)).expect(200)).body
      .data as Json[];
    expect(own.some((e) => e.event_type === 'tool_used' && e.description.includes('write_file'))).toBe(true);
    const tools = await t.http.get('/api/v1/activities?type=tool_used').set(bearer(ceo)).expect(200);
    expect((tools.body.data as Json[]).every((e) => e.event_type === 'tool_used')).toBe(true);
  });

  it('should retry a run that failed on a provider error while retries remain, then complete it', async () => {
    mock.enqueue({ kind: 'error', status: 400, message: 'scripted failure' }, { kind: 'text', text: 'Done on retry.' });
    const task = await assign({ max_retries: 1 });
    const done = await eventually(
      () => getTask(task.id as string),
      (x) => x.status === 'completed',
    );
    expect(done.retry_count).toBe(1);
    const metrics = await rows(TaskMetricEntity, { taskId: task.id as string });
    expect(metrics.map((m) => m.isSuccess).sort()).toEqual([false, true]);
  });

  it('should leave a task failed once its retries are used up', async () => {
    mock.enqueue({ kind: 'error', status: 400, message: 'scripted failure' });
    const task = await assign({ max_retries: 0 });
    const failed = await eventually(
      () => getTask(task.id as string),
      (x) => x.status === 'failed',
    );
    expect(failed.status_reason).toContain('scripted failure');
    expect(failed.retry_count).toBe(0);
  });

  it('should stop at max turns (the task stays in progress with the reason) and on an exhausted task budget', async () => {
    const loop = { kind: 'tool_calls' as const, calls: [{ name: 'list_files', arguments: {} }] };
    mock.enqueue(...Array.from({ length: 25 }, () => loop));
    const task = await assign();
    const stuck = await eventually(
      () => getTask(task.id as string),
      (x) => x.status === 'in_progress' && typeof x.status_reason === 'string',
    );
    expect(stuck.status_reason).toContain('20 turns');
    expect(await rows(CostRecordEntity, { taskId: task.id as string })).toHaveLength(20);
    mock.reset();

    // The first call's estimate (about 9.3: its prompt, and 1,024 output tokens at 0.002 a token) fits
    // under 10; with that call's cost (a long tool argument: about 1,500 output tokens, 3) spent, the
    // next one's estimate no longer does.
    const costly = {
      kind: 'tool_calls' as const,
      calls: [{ name: 'list_files', arguments: { path: 'a'.repeat(6000) } }],
    };
    mock.enqueue(costly, costly, costly);
    const capped = await assign({ budget_limit: 10 });
    const stopped = await eventually(
      () => getTask(capped.id as string),
      (x) => x.status === 'in_progress' && typeof x.status_reason === 'string',
    );
    expect(stopped.status_reason).toContain('task budget exhausted');
    const spent = await rows(CostRecordEntity, { taskId: capped.id as string });
    expect(spent).toHaveLength(1);
    expect(spent.reduce((sum, r) => sum + r.costUsd, 0)).toBeLessThanOrEqual(10);
  });

  it('should refuse to start a task whose budget is already spent and block it with the pre-flight reason', async () => {
    mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: 'a'.repeat(6000) } }] });
    const task = await assign({ budget_limit: 10 });
    const stopped = await eventually(
      () => getTask(task.id as string),
      (x) => x.status === 'in_progress' && typeof x.status_reason === 'string',
    );
    // Lowered below what the task has spent: the next run does not start.
    await t.http
      .patch(`${API}/${task.id}`)
      .set(bearer(ceo))
      .send({ budget_limit: 0.0001, expected_version: stopped.version })
      .expect(200);
    await t.http.post(`${API}/${task.id}/transition`).set(bearer(ceo)).send({ target_status: 'blocked' }).expect(201);
    await t.http.post(`${API}/${task.id}/transition`).set(bearer(ceo)).send({ target_status: 'assigned' }).expect(201);
    const blocked = await eventually(
      () => getTask(task.id as string),
      (x) => x.status === 'blocked' && String(x.status_reason).includes('task_budget'),
    );
    expect(blocked.status_reason).toContain('pre-flight task_budget');
  });

  it('should give back the worktree of a run cancelled after it wrote, keeping the work on its branch', async () => {
    mock.reset();
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'draft.txt', content: 'half done\n' } }] },
      { kind: 'hang' },
    );
    const task = await assign();
    const worktree = join(t.config.engine.workspaceDir, 'worktrees', task.id as string);
    await eventually(
      () => Promise.resolve(mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length),
      (n) => n >= 2,
    );
    expect(existsSync(join(worktree, 'draft.txt'))).toBe(true);

    await t.http.post(`${API}/${task.id}/cancel`).set(bearer(ceo)).send({ reason: 'not needed' }).expect(201);

    await eventually(
      () => Promise.resolve(existsSync(worktree)),
      (present) => !present,
    );
    const repo = join(t.config.engine.workspaceDir, 'repo');
    const branch = execFileSync(
      'git',
      ['branch', '--list', '--format=%(refname:short)', `workspace/${task.id as string}/*`],
      {
        cwd: repo,
        encoding: 'utf8',
      },
    ).trim();
    expect(branch).not.toBe('');
    expect(execFileSync('git', ['show', `${branch}:draft.txt`], { cwd: repo, encoding: 'utf8' })).toBe('half done\n');
    expect(existsSync(join(repo, 'draft.txt'))).toBe(false);
    expect(await getTask(task.id as string)).toMatchObject({ status: 'cancelled' });
  });

  it('should stop a run whose task a person cancels mid-call, and keep the cancellation', async () => {
    mock.enqueue({ kind: 'hang' });
    const task = await assign();
    await eventually(
      () => Promise.resolve(mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length),
      (n) => n >= 1,
    );
    await eventually(
      () => getTask(task.id as string),
      (x) => x.status === 'in_progress',
    );
    await t.http.post(`${API}/${task.id}/cancel`).set(bearer(ceo)).send({ reason: 'changed my mind' }).expect(201);
    await new Promise((r) => setTimeout(r, 300));
    const after = await getTask(task.id as string);
    expect(after).toMatchObject({ status: 'cancelled', status_reason: 'changed my mind' });
    expect(mock.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
    expect(await rows(TaskMetricEntity, { taskId: task.id as string })).toHaveLength(0);
  });
});
