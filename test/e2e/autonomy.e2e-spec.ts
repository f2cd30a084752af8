import { ErrorCode } from '@app/domain';
import { AgentEntity, SecurityRecordEntity, TaskMetricEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, taskMetricRow, testBackends } from '@app/testing';

import { AutonomyControl, RunOutcomeWatcher } from '../../apps/api/src/modules/security';
import { bearer, expectError, type MockLlm, type TestApp } from '../support';
import { type Json, type SceneAgent, SecurityScene } from './security-scene';

jest.setTimeout(90_000);

// Autonomy levels (an agent's, a department's, downgrades and their recovery) and trust promotion,
// in the company of security.e2e-spec.ts.
describe.each(testBackends())('autonomy and trust on %s', (backend) => {
  const scene = new SecurityScene(backend);
  const { run, records, getTask, setSetting, observer } = scene;
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let project: string;
  let agent: SceneAgent;
  let other: SceneAgent;
  let third: SceneAgent;
  let productAgent: SceneAgent & { department: string };

  beforeAll(async () => {
    ({ t, mock, ceo, project, agent, other, third, productAgent } = await scene.start());
  });

  afterEach(() => mock.reset());

  afterAll(() => scene.close());

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
