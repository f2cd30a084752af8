import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DETECTORS, type Detector, ErrorCode, HumanRole } from '@app/domain';
import { AgentEntity, SecurityRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { AutonomyControl } from '../../apps/api/src/modules/security';
import {
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

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: ENGINE_ENV });
    ceo = await setupCeo(t);
    await t.http
      .post('/api/v1/providers')
      .set(bearer(ceo))
      .send({
        name: 'mock',
        gateway_provider: 'openai',
        auth_type: 'none',
        base_url: `${mock.url}/v1`,
        models: [{ id: 'mock-small', alias: 'small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
      })
      .expect(201);
    const company = await createCompany(t, ceo);
    const agents = (await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[];
    const pick = (name: string) => {
      const row = agents.find((a) => a.name === name) as Json;
      return { id: row.id as string, name: row.name as string };
    };
    agent = pick(company.agents[0].name);
    other = pick(company.agents[1].name);
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Security' }).expect(201)).body.data
      .id as string;
  });

  afterEach(() => mock.reset());

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

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
  async function run(assignee = agent.name): Promise<{ task: Json; replies: string[] }> {
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

    const observer = await userWithRole(t, ceo, HumanRole.Observer);
    await t.http.get(`/api/v1/agents/${agent.name}/autonomy`).set(bearer(observer)).expect(200);
    const forbidden = await t.http
      .put(`/api/v1/agents/${agent.name}/autonomy`)
      .set(bearer(observer))
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
