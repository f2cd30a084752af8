import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DETECTORS, type Detector, ErrorCode, HumanRole, OUTPUT_WITHHELD_MESSAGE } from '@app/domain';
import { AgentEntity, SecurityRecordEntity, TaskMetricEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, taskMetricRow, testBackends } from '@app/testing';

import { AutonomyControl, RunOutcomeWatcher } from '../../apps/api/src/modules/security';
import {
  addMockProvider,
  bearer,
  createCompany,
  expectError,
  type MockLlm,
  setupCeo,
  startMockLlm,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ENGINE_ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
};
const AWS_KEY = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');

jest.setTimeout(90_000);

describe.each(testBackends())('security on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let project: string;
  let agent: { id: string; name: string };
  let other: { id: string; name: string };
  let third: { id: string; name: string };
  let productAgent: { id: string; name: string; department: string };

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: ENGINE_ENV });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock, { alias: 'small' });
    const company = await createCompany(t, ceo);
    const agents = (await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[];
    const pick = (name: string) => {
      const row = agents.find((a) => a.name === name) as Json;
      return { id: row.id as string, name: row.name as string };
    };
    agent = pick(company.agents[0].name);
    other = pick(company.agents[1].name);
    third = pick(company.agents[2].name);
    productAgent = { ...pick(company.agents[4].name), department: company.agents[4].department };
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Security' }).expect(201)).body.data
      .id as string;
  });

  afterEach(() => mock.reset());

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  let observerToken: string | null = null;
  const observer = async (): Promise<string> => (observerToken ??= await userWithRole(t, ceo, HumanRole.Observer));

  const getTask = async (id: string): Promise<Json> =>
    (await t.http.get(`/api/v1/tasks/${id}`).set(bearer(ceo)).expect(200)).body.data as Json;

  const setSetting = (key: string, value: string) =>
    t.http.put(`/api/v1/settings/security/${key}`).set(bearer(ceo)).send({ value });

  const records = (taskId: string) =>
    t.app
      .get(DatabaseService)
      .dataSource.getRepository(SecurityRecordEntity)
      .find({
        where: { taskId },
        order: { createdAt: 'ASC' },
      });

  /** Assigns a task, waits until it completes, and returns it with the tool replies the model read. */
  async function run(assignee = agent.name, complexity = 'medium'): Promise<{ task: Json; replies: string[] }> {
    const created = await t.http
      .post('/api/v1/tasks')
      .set(bearer(ceo))
      .send({
        title: 'Tidy the repository',
        description: 'Look around and tidy up.',
        type: 'development',
        project,
        created_by: 'ceo',
        assigned_to: assignee,
        estimated_complexity: complexity,
      })
      .expect(201);
    const task = await eventually(
      () => getTask(created.body.data.id as string),
      (x) => x.status === 'completed',
    );
    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const last = chats[chats.length - 1].body as Json;
    const replies = (last.messages as Json[]).filter((m) => m.role === 'tool').map((m) => m.content as string);
    return { task, replies };
  }

  it('should deny rm -rf /, reading .env and writing an AWS key, tell the agent why, and let the run continue', async () => {
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: '.env' } }] },
      { kind: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'wipe.sh', content: 'rm -rf /\n' } }] },
      {
        kind: 'tool_calls',
        calls: [{ name: 'write_file', arguments: { path: 'keys.txt', content: `id ${AWS_KEY}` } }],
      },
      { kind: 'text', text: 'Nothing to tidy.' },
    );
    const { task, replies } = await run();

    expect(replies).toHaveLength(3);
    expect(replies[0]).toContain('denied by security policy: data_leak detector: dotenv_file in path');
    expect(replies[1]).toContain('denied by security policy: destructive detector: rm_recursive_force');
    expect(replies[2]).toContain('denied by security policy: credential detector: aws_access_key');
    expect(replies.join('\n')).not.toContain(AWS_KEY);
    const repo = join(t.config.engine.workspaceDir, 'repo');
    expect(existsSync(join(repo, 'wipe.sh'))).toBe(false);
    expect(existsSync(join(repo, 'keys.txt'))).toBe(false);

    const rows = await records(task.id as string);
    expect(rows.map((r) => [r.kind, r.toolName, r.actionType, r.verdict, r.enforced, r.riskLevel, r.mode])).toEqual([
      ['tool_call', 'read_file', 'code:read', 'deny', 'deny', 'high', 'active'],
      ['tool_call', 'write_file', 'code:write', 'deny', 'deny', 'critical', 'active'],
      ['tool_call', 'write_file', 'code:write', 'deny', 'deny', 'critical', 'active'],
    ]);
    expect(rows.every((r) => r.agentId === agent.id && !r.reason.includes(AWS_KEY))).toBe(true);
  });

  it('should redact a secret in a tool output and record only the pattern name', async () => {
    await setSetting('detect_credentials', 'false').expect(200);
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: `key ${AWS_KEY}\n` } }],
      },
      { kind: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { kind: 'text', text: 'Read the notes.' },
    );
    const { task, replies } = await run();
    await setSetting('detect_credentials', 'true').expect(200);

    expect(replies[1]).toBe('key [REDACTED]\n');
    const scans = (await records(task.id as string)).filter((r) => r.kind === 'output_scan');
    expect(scans).toEqual([
      expect.objectContaining({
        toolName: 'read_file',
        verdict: 'redacted',
        enforced: 'redacted',
        finding: 'aws_access_key',
      }),
    ]);
    expect(scans[0].reason).not.toContain(AWS_KEY);
  });

  it("should redact or withhold a secret in the agent's final answer before the task keeps it", async () => {
    mock.enqueue({ kind: 'text', text: `Done. The deploy key is ${AWS_KEY}.` });
    const redacted = (await run()).task;
    expect(redacted.result).toBe('Done. The deploy key is [REDACTED].');
    expect(redacted.output_withheld).toBe(false);
    const listed = (
      await t.http.get('/api/v1/tasks').query({ status: 'completed', limit: 200 }).set(bearer(ceo)).expect(200)
    ).body.data as Json[];
    expect(listed.find((x) => x.id === redacted.id)).toMatchObject({ result: redacted.result });
    expect(await records(redacted.id as string)).toEqual([
      expect.objectContaining({
        kind: 'output_scan',
        toolName: null,
        verdict: 'redacted',
        enforced: 'redacted',
        finding: 'aws_access_key',
      }),
    ]);

    await setSetting('output_scan_policy_type', 'withhold').expect(200);
    mock.enqueue({ kind: 'text', text: `Here: ${AWS_KEY}` });
    const withheld = (await run()).task;
    await t.http.delete('/api/v1/settings/security/output_scan_policy_type').set(bearer(ceo)).expect(204);
    expect(withheld.result).toBe(OUTPUT_WITHHELD_MESSAGE);
    expect(withheld.output_withheld).toBe(true);

    // Nothing the scans caught is stored in clear: tasks, security records, logs.
    const db = t.app.get(DatabaseService).dataSource;
    const stored = JSON.stringify(await db.query('SELECT result, status_reason FROM tasks'));
    expect(stored).not.toContain(AWS_KEY);
    const reasons = (await records(withheld.id as string)).map((r) => r.reason).join('\n');
    expect(reasons).toContain('final output scan (withhold) found aws_access_key');
    expect(reasons).not.toContain(AWS_KEY);
    const logs = join(t.config.logging.dir);
    for (const file of ['synthorg.log', 'agent_activity.log', 'audit.log']) {
      const path = join(logs, file);
      if (existsSync(path)) {
        expect(readFileSync(path, 'utf8')).not.toContain(AWS_KEY);
      }
    }
  });

  it('should offer the model only the tools the access level grants', async () => {
    mock.enqueue({ kind: 'text', text: 'Looked.' });
    await run();
    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const offered = ((chats[chats.length - 1].body as Json).tools as Json[]).map((x) => x.function.name as string);
    // standard: file system, code execution, version control, web, terminal, analytics; no communication.
    expect(offered).toEqual(expect.arrayContaining(['read_file', 'write_file', 'list_files', 'run_command']));
    expect(offered).not.toContain('send_message');
  });

  it('should lower an agent one level on a high error rate, once, until a person answers it', async () => {
    const db = t.app.get(DatabaseService).dataSource.getRepository(TaskMetricEntity);
    const metric = (ok: boolean, i: number): TaskMetricEntity =>
      taskMetricRow({ agentId: productAgent.id, taskId: `task-error-rate-${i}`, isSuccess: ok });
    const watcher = t.app.get(RunOutcomeWatcher);
    await db.insert([true, true, true, true].map((ok, i) => metric(ok, i)));
    await watcher.afterRun(productAgent.name);
    const autonomy = async () =>
      (await t.http.get(`/api/v1/agents/${productAgent.name}/autonomy`).set(bearer(ceo)).expect(200)).body.data as Json;
    expect((await autonomy()).downgrade).toBeNull();

    await db.insert([metric(false, 4)]);
    await watcher.afterRun(productAgent.name);
    await watcher.afterRun(productAgent.name);
    expect(await autonomy()).toMatchObject({
      level: 'supervised',
      source: 'downgrade',
      downgrade: { original_level: 'semi', reason: 'high_error_rate', requires_human_recovery: true },
    });
    expect((await autonomy()).downgrade.detail).toContain('1 of 5 recent runs failed');

    // A person's write answers it: the failures before it no longer count.
    await t.http.put(`/api/v1/agents/${productAgent.name}/autonomy`).set(bearer(ceo)).send({ level: null }).expect(200);
    await watcher.afterRun(productAgent.name);
    expect(await autonomy()).toMatchObject({ level: 'semi', downgrade: null });
  });

  it("should expose and set a department's autonomy, audited, and let its agents inherit it", async () => {
    const dept = productAgent.department;
    const initial = await t.http.get(`/api/v1/departments/${dept}/autonomy`).set(bearer(ceo)).expect(200);
    expect(initial.body.data).toMatchObject({ autonomy_level: null, company_level: 'semi', level: 'semi' });

    await t.http
      .put(`/api/v1/departments/${dept}/autonomy`)
      .set(bearer(await observer()))
      .send({ level: 'full' })
      .expect(403);
    const bad = await t.http
      .put(`/api/v1/departments/${dept}/autonomy`)
      .set(bearer(ceo))
      .send({ level: 'max' })
      .expect(400);
    expectError(bad.body, ErrorCode.RequestValidationError);
    await t.http.get('/api/v1/departments/nowhere/autonomy').set(bearer(ceo)).expect(404);

    const set = await t.http
      .put(`/api/v1/departments/${dept}/autonomy`)
      .set(bearer(ceo))
      .send({ level: 'supervised', reason: 'new team' })
      .expect(200);
    expect(set.body.data).toMatchObject({ autonomy_level: 'supervised', level: 'supervised' });
    const shown = (await t.http.get(`/api/v1/departments/${dept}`).set(bearer(ceo)).expect(200)).body.data;
    expect(shown.autonomy_level).toBe('supervised');
    const inherited = (await t.http.get(`/api/v1/agents/${productAgent.name}/autonomy`).set(bearer(ceo)).expect(200))
      .body.data;
    expect(inherited).toMatchObject({ level: 'supervised', source: 'department', department_level: 'supervised' });
    const audit = await t.app
      .get(DatabaseService)
      .dataSource.getRepository(SecurityRecordEntity)
      .findBy({ kind: 'autonomy_change', finding: `department:${dept.toLowerCase()}` });
    expect(audit).toEqual([
      expect.objectContaining({ verdict: 'supervised', reason: expect.stringContaining('new team') }),
    ]);

    await t.http.put(`/api/v1/departments/${dept}/autonomy`).set(bearer(ceo)).send({ level: null }).expect(200);
  });

  it('should promote standard to elevated only through an approval item a person approves', async () => {
    await setSetting('trust_strategy', 'weighted').expect(200);
    const trust = async () =>
      (await t.http.get(`/api/v1/agents/${third.name}/trust`).set(bearer(ceo)).expect(200)).body.data as Json;
    expect(await trust()).toMatchObject({ strategy: 'weighted', access_level: 'standard', pending_level: null });
    for (let i = 0; i < 5; i += 1) {
      mock.enqueue({ kind: 'text', text: `Task ${i} done.` });
      await run(third.name, 'complex');
    }
    const watcher = t.app.get(RunOutcomeWatcher);
    await watcher.idle();
    // The claim on the trust row comes first, the change record after the item is filed.
    const waiting = await eventually(trust, (x) => x.pending_approval_id !== null && x.changes.length > 0);
    expect(waiting).toMatchObject({ access_level: 'standard', pending_level: 'elevated' });
    expect(waiting.trust_score).toBeGreaterThanOrEqual(0.8);
    expect(waiting.changes[0]).toMatchObject({ from_level: 'standard', to_level: 'elevated', outcome: 'pending' });
    const item = (
      await t.http
        .get(`/api/v1/approvals/${waiting.pending_approval_id as string}`)
        .set(bearer(ceo))
        .expect(200)
    ).body.data;
    expect(item).toMatchObject({ status: 'pending', action_type: 'org:promote', risk_level: 'high' });
    expect(item.metadata).toMatchObject({ kind: 'trust_promotion', agent_id: third.id, to: 'elevated' });
    // Another finished run while it waits changes nothing.
    mock.enqueue({ kind: 'text', text: 'One more.' });
    await run(third.name, 'complex');
    await watcher.idle();
    expect((await trust()).pending_approval_id).toBe(waiting.pending_approval_id);

    await t.http
      .post(`/api/v1/approvals/${item.id as string}/approve`)
      .set(bearer(ceo))
      .send({ comment: 'earned it' })
      .expect(200);
    // The agent's access level is written first (the agents module), the change record after it.
    const elevated = await eventually(
      trust,
      (x) => x.access_level === 'elevated' && (x.changes as Json[])[0]?.outcome === 'applied',
    );
    expect(elevated).toMatchObject({ pending_level: null, pending_approval_id: null });
    expect(elevated.changes[0]).toMatchObject({ to_level: 'elevated', outcome: 'applied' });
    const shown = (await t.http.get(`/api/v1/agents/${third.name}`).set(bearer(ceo)).expect(200)).body.data;
    expect(shown.tools.access_level).toBe('elevated');
    await t.http.delete('/api/v1/settings/security/trust_strategy').set(bearer(ceo)).expect(204);
  });

  it('should record but allow a blocking verdict in shadow mode', async () => {
    await setSetting('enforcement_mode', 'shadow').expect(200);
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'write_file', arguments: { path: 'clean.sh', content: 'rm -rf build\n' } }],
      },
      { kind: 'text', text: 'Added a clean script.' },
    );
    const { task, replies } = await run();
    await t.http.delete('/api/v1/settings/security/enforcement_mode').set(bearer(ceo)).expect(204);

    expect(replies[0]).not.toContain('denied');
    expect(readFileSync(join(t.config.engine.workspaceDir, 'repo', 'clean.sh'), 'utf8')).toBe('rm -rf build\n');
    expect(await records(task.id as string)).toEqual([
      expect.objectContaining({ verdict: 'deny', enforced: 'allow', mode: 'shadow', riskLevel: 'critical' }),
    ]);
  });

  it('should deny a call when a detector crashes (fail closed)', async () => {
    const crashing: Detector = () => {
      throw new Error('detector exploded');
    };
    const restore = jest.spyOn(DETECTORS, 'path_traversal').mockImplementation(crashing);
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }] },
      { kind: 'text', text: 'Could not list.' },
    );
    try {
      const { task, replies } = await run();
      expect(replies[0]).toContain('denied by security policy: security evaluation failed: detector exploded');
      expect(await records(task.id as string)).toEqual([
        expect.objectContaining({ verdict: 'deny', enforced: 'deny', riskLevel: 'critical', finding: 'failure' }),
      ]);
    } finally {
      restore.mockRestore();
    }
  });

  it('should resolve autonomy through the API, escalate every call under locked, and recover', async () => {
    const initial = (await t.http.get(`/api/v1/agents/${agent.name}/autonomy`).set(bearer(ceo)).expect(200)).body.data;
    expect(initial).toMatchObject({ agent_id: agent.id, level: 'semi', agent_level: null, downgrade: null });

    const locked = await t.http
      .put(`/api/v1/agents/${agent.name}/autonomy`)
      .set(bearer(ceo))
      .send({ level: 'locked', reason: 'audit week' })
      .expect(200);
    expect(locked.body.data).toMatchObject({
      level: 'locked',
      source: 'agent',
      agent_level: 'locked',
      security_agent: true,
    });
    const shown = (await t.http.get(`/api/v1/agents/${agent.name}`).set(bearer(ceo)).expect(200)).body.data;
    expect(shown.autonomy_level).toBe('locked');

    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }] },
      { kind: 'text', text: 'Not listing then.' },
    );
    const created = await t.http
      .post('/api/v1/tasks')
      .set(bearer(ceo))
      .send({
        title: 'Tidy the repository',
        description: 'Look around and tidy up.',
        type: 'development',
        project,
        created_by: 'ceo',
        assigned_to: agent.name,
      })
      .expect(201);
    const taskId = created.body.data.id as string;
    // The escalated call parks the run on an approval item; a person's rejection reaches the agent.
    const waiting = await eventually(
      () => getTask(taskId),
      (x) => typeof x.status_reason === 'string' && x.status_reason.startsWith('waiting for approval '),
    );
    expect(waiting.status_reason).toContain('autonomy locked needs a person to approve code:read');
    const approvalId = /waiting for approval ([0-9a-f-]+)/.exec(waiting.status_reason as string)?.[1] as string;
    // The item carries the verdict's classification of the call, not a generic tool action.
    const item = (await t.http.get(`/api/v1/approvals/${approvalId}`).set(bearer(ceo)).expect(200)).body.data;
    expect(item).toMatchObject({ action_type: 'code:read', risk_level: 'low', task_id: taskId });
    await t.http
      .post(`/api/v1/approvals/${approvalId}/reject`)
      .set(bearer(ceo))
      .send({ reason: 'not during the audit' })
      .expect(200);
    await eventually(
      () => getTask(taskId),
      (x) => x.status === 'completed',
    );
    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const lastCall = chats[chats.length - 1].body as Json;
    const replies = (lastCall.messages as Json[]).filter((m) => m.role === 'tool').map((m) => m.content as string);
    expect(replies[0]).toContain('not during the audit');
    expect(await records(taskId)).toEqual([expect.objectContaining({ verdict: 'escalate', enforced: 'escalate' })]);

    await t.http.put(`/api/v1/agents/${agent.name}/autonomy`).set(bearer(ceo)).send({ level: null }).expect(200);
  });

  it('should apply the budget downgrade to supervised through AutonomyControl and lift it only by a human write', async () => {
    const control = t.app.get(AutonomyControl);
    await control.lowerTo(other.id, 'supervised', 'budget_exhausted', 'monthly budget spent');
    const down = (await t.http.get(`/api/v1/agents/${other.name}/autonomy`).set(bearer(ceo)).expect(200)).body.data;
    expect(down).toMatchObject({
      level: 'supervised',
      source: 'downgrade',
      downgrade: {
        original_level: 'semi',
        current_level: 'supervised',
        reason: 'budget_exhausted',
        requires_human_recovery: true,
      },
    });
    // A later, milder downgrade never loosens it.
    await control.downgrade(other.id, 'high_error_rate', 'errors');
    const stricter = (await t.http.get(`/api/v1/agents/${other.name}/autonomy`).set(bearer(ceo)).expect(200)).body.data;
    expect(stricter.level).toBe('locked');

    const recovered = await t.http
      .put(`/api/v1/agents/${other.name}/autonomy`)
      .set(bearer(ceo))
      .send({ level: 'semi', reason: 'budget topped up' })
      .expect(200);
    expect(recovered.body.data).toMatchObject({ level: 'semi', downgrade: null });
    const audit = await t.app
      .get(DatabaseService)
      .dataSource.getRepository(SecurityRecordEntity)
      .findBy({ agentId: other.id });
    expect(audit.map((r) => r.kind).sort()).toEqual(['autonomy_change', 'autonomy_downgrade', 'autonomy_downgrade']);
  });

  it('should lock an agent after repeated refusals (a security incident)', async () => {
    await t.http
      .put('/api/v1/settings/security/incident_denial_threshold')
      .set(bearer(ceo))
      .send({ value: '1' })
      .expect(200);
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'config/secrets.yaml' } }] },
      { kind: 'text', text: 'Stopped.' },
    );
    await run(other.name);
    await t.http.delete('/api/v1/settings/security/incident_denial_threshold').set(bearer(ceo)).expect(204);
    const state = (await t.http.get(`/api/v1/agents/${other.name}/autonomy`).set(bearer(ceo)).expect(200)).body.data;
    expect(state).toMatchObject({ level: 'locked', downgrade: { reason: 'security_incident' } });
    await t.http.put(`/api/v1/agents/${other.name}/autonomy`).set(bearer(ceo)).send({ level: null }).expect(200);
  });

  it('should run the worktree tests with run_command under the subprocess backend and time out a hanging one', async () => {
    await setSetting('sandbox_subprocess_timeout_seconds', '2').expect(200);
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [
          {
            name: 'write_file',
            arguments: { path: 'check.test.js', content: "console.log('tests passed:', 2 + 2 === 4);\n" },
          },
        ],
      },
      { kind: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'node check.test.js; env' } }] },
      { kind: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'sleep 60' } }] },
      { kind: 'text', text: 'Tests pass; the slow one hangs.' },
    );
    const { task, replies } = await run();
    await t.http.delete('/api/v1/settings/security/sandbox_subprocess_timeout_seconds').set(bearer(ceo)).expect(204);

    expect(replies[1]).toMatch(/^exit code 0 after \d+ ms\nsandbox: scrubbed environment; own process group; network/);
    expect(replies[1]).toContain('tests passed: true');
    expect(replies[1]).not.toContain('SYNTHORG_');
    expect(replies[2]).toContain('command timed out after 2 s; its process group was killed');
    const calls = await records(task.id as string);
    expect(calls.filter((r) => r.toolName === 'run_command').map((r) => [r.actionType, r.enforced])).toEqual([
      ['code:write', 'allow'],
      ['code:write', 'allow'],
    ]);
  });

  it('should fail run_command with a clear error when the container backend has no runtime', async () => {
    await setSetting('sandbox_overrides', '{"code_execution": "container"}').expect(200);
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] },
      { kind: 'text', text: 'No sandbox.' },
    );
    const { replies } = await run();
    await t.http.delete('/api/v1/settings/security/sandbox_overrides').set(bearer(ceo)).expect(204);
    expect(replies[0]).toContain('run_command cannot run: no container runtime answers (tried docker, podman)');
    expect(replies[0]).toContain('no fallback');

    const bad = await setSetting('sandbox_overrides', '{"code_execution": "vm"}').expect(400);
    expectError(bad.body, ErrorCode.SandboxConfigInvalid);
  });

  it('should refuse bad autonomy writes and unknown action types with their codes', async () => {
    const bad = await t.http
      .put(`/api/v1/agents/${agent.name}/autonomy`)
      .set(bearer(ceo))
      .send({ level: 'max' })
      .expect(400);
    expectError(bad.body, ErrorCode.RequestValidationError);
    await t.http.put(`/api/v1/agents/${agent.name}/autonomy`).set(bearer(ceo)).send({}).expect(400);

    await t.app.get(DatabaseService).dataSource.getRepository(AgentEntity).update(other.id, { level: 'junior' });
    const junior = await t.http
      .put(`/api/v1/agents/${other.name}/autonomy`)
      .set(bearer(ceo))
      .send({ level: 'full' })
      .expect(400);
    expectError(junior.body, ErrorCode.SeniorityAutonomyViolation);

    const missing = await t.http.get('/api/v1/agents/nobody-here/autonomy').set(bearer(ceo)).expect(404);
    expectError(missing.body, ErrorCode.AgentNotFound);
    await t.http.put('/api/v1/agents/nobody-here/autonomy').set(bearer(ceo)).send({ level: 'semi' }).expect(404);

    await t.http
      .get(`/api/v1/agents/${agent.name}/autonomy`)
      .set(bearer(await observer()))
      .expect(200);
    const forbidden = await t.http
      .put(`/api/v1/agents/${agent.name}/autonomy`)
      .set(bearer(await observer()))
      .send({ level: 'full' })
      .expect(403);
    expectError(forbidden.body, ErrorCode.Forbidden);
    await t.http.put(`/api/v1/agents/${agent.name}/autonomy`).send({ level: 'full' }).expect(401);

    const unknown = await setSetting('hard_deny_actions', '["deploy", "deploy:prod", "db:admin"]').expect(400);
    expectError(unknown.body, ErrorCode.SecurityActionTypeUnknown);
    expect(unknown.body.error).toContain('"deploy:prod"');
    await setSetting('hard_deny_actions', '["deploy", "db"]').expect(200);
    await t.http.delete('/api/v1/settings/security/hard_deny_actions').set(bearer(ceo)).expect(204);
  });
});
