import { ErrorCode, HumanRole } from '@app/domain';
import { AgentLifecycleEventEntity, AuditEntryEntity, MessageEntity, OffboardingRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { bearer, expectError, type TestApp, userWithRole } from '../support';
import { FiringApprovals } from '../../apps/api/src/modules/offboarding/firing-approvals';
import { type Json, OffboardingScene } from './offboarding-scene';

jest.setTimeout(120_000);

/**
 * Firing through the approvals queue: a manager asks, a second person approves, the agent is fired
 * and offboarded once. On Postgres the request is filed on one replica and approved on another, both
 * hearing the decision: the running task is stopped, interrupted and handed over exactly once.
 */
describe.each(testBackends())('firing through an approved org:fire item on %s', (backend) => {
  let scene: OffboardingScene;
  let other: TestApp;
  let manager: string;

  beforeAll(async () => {
    scene = await OffboardingScene.start(backend);
    other = backend === 'postgres' ? await scene.open(backend) : scene.t;
    manager = await userWithRole(scene.t, scene.ceo, HumanRole.Manager, 'eng-manager', 'engineering');
  });

  afterAll(async () => {
    if (other && other !== scene.t) {
      await other.close();
    }
    await scene?.close();
  });

  const source = () => scene.t.app.get(DatabaseService).dataSource;
  const request = (name: string, token: string, body: Json = { reason: 'performance', details: 'x'.repeat(600) }) =>
    scene.post(`/agents/${encodeURIComponent(name)}/fire-request`, body, token);
  const decide = (id: string, verb: 'approve' | 'reject', token: string, app: TestApp) =>
    app.http
      .post(`/api/v1/approvals/${id}/${verb}`)
      .set(bearer(token))
      .send(verb === 'approve' ? {} : { reason: 'No.' })
      .expect(200);

  it('should file org:fire for a second person, once, and refuse read-only roles and other departments', async () => {
    const [, target] = scene.engineers;
    const filed = await request(target.name, manager).expect(201);
    expect(filed.body.data).toMatchObject({
      action_type: 'org:fire',
      status: 'pending',
      requested_by: 'eng-manager',
      risk_level: 'critical',
      metadata: { kind: 'firing', agent_id: target.id, reason: 'performance' },
    });
    expectError((await request(target.name, manager).expect(409)).body, ErrorCode.FireRequestPending, 'conflict');
    const observer = await userWithRole(scene.t, scene.ceo, HumanRole.Observer, 'fire-observer');
    await request(target.name, observer).expect(403);
    const product = await userWithRole(scene.t, scene.ceo, HumanRole.Manager, 'prod-manager', 'product');
    await request(target.name, product).expect(403);
    await request('nobody here', scene.ceo).expect(404);
    // A rejection fires nobody.
    await decide(filed.body.data.id as string, 'reject', scene.ceo, scene.t);
    expect((await scene.get(`/agents/${encodeURIComponent(target.name)}`).expect(200)).body.data.status).toBe('active');
  });

  it('should not fire on an approval by the person who asked', async () => {
    const [, target] = scene.engineers;
    const filed = await request(target.name, manager).expect(201);
    await decide(filed.body.data.id as string, 'approve', manager, scene.t);
    await eventually(
      () => source().getRepository(AuditEntryEntity).findBy({ action: 'agent.fired', outcome: 'denied' }),
      (rows) => rows.length === 1,
    );
    // Every replica heard the decision; one audited it.
    await Promise.all([scene.t, other].map((app) => app.app.get(FiringApprovals).idle()));
    expect(
      await source().getRepository(AuditEntryEntity).findBy({ action: 'agent.fired', outcome: 'denied' }),
    ).toHaveLength(1);
    expect(await source().getRepository(OffboardingRecordEntity).findBy({ agentId: target.id })).toHaveLength(0);
  });

  it('should stop the run, interrupt the task and hand it over exactly once when another person approves', async () => {
    const [, target] = scene.engineers;
    scene.mock.enqueue({ kind: 'hang' });
    const running = await scene.assign(target.name, { priority: 'medium' });
    await scene.running(running.id as string, 1);
    const filed = await request(target.name, manager, { reason: 'budget', details: 'y'.repeat(700) }).expect(201);

    await decide(filed.body.data.id as string, 'approve', scene.ceo, other);

    const record = await eventually(
      () => source().getRepository(OffboardingRecordEntity).findOneBy({ agentId: target.id }),
      (row) => row !== null && row.completedAt !== null,
      60_000,
    );
    expect(record).toMatchObject({ requestedBy: 'eng-manager', reason: 'budget', details: 'y'.repeat(700) });
    const done = await eventually(
      () => scene.task(running.id as string),
      (task) => task.status === 'completed',
      30_000,
    );
    expect(done.priority).toBe('high');
    expect(done.assigned_to).not.toBe(target.name);
    const events = await source().getRepository(AgentLifecycleEventEntity).findBy({ agentId: target.id });
    expect(events.filter((e) => e.eventType === 'fired')).toHaveLength(1);
    expect(events.filter((e) => e.eventType === 'offboarded')).toHaveLength(1);
    const notices = await source().getRepository(MessageEntity).findBy({ type: 'hr_notification' });
    expect(notices).toHaveLength(1);
    const fired = await source().getRepository(AuditEntryEntity).findBy({ action: 'agent.fired', outcome: 'success' });
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ actor: 'ceo' });
    expect(fired[0].details).toMatchObject({ approval_id: filed.body.data.id, approved_by: 'ceo' });
    // Another request for a fired agent is a conflict.
    expectError((await request(target.name, manager).expect(409)).body, ErrorCode.AgentAlreadyFired, 'conflict');
  });

  it('should stop a running task and hand it over once, fired through the other replica', async () => {
    const [lead, , third] = scene.engineers;
    scene.mock.enqueue({ kind: 'hang' });
    const running = await scene.assign(lead.name, { priority: 'low' });
    await scene.running(running.id as string, scene.chatCalls() + 1);

    await other.http
      .post(`/api/v1/agents/${encodeURIComponent(lead.name)}/fire`)
      .set(bearer(scene.ceo))
      .send({ reason: 'manual' })
      .expect(201);

    const done = await eventually(
      () => scene.task(running.id as string),
      (task) => task.status === 'completed',
      30_000,
    );
    expect(done).toMatchObject({ priority: 'medium', assigned_to: third.name });
    const stopped = [scene.t, other].flatMap((app) =>
      app.consoleLines().filter((line) => line.includes('engine.run.stopped_by_change')),
    );
    expect(stopped.length).toBeGreaterThanOrEqual(1);
    const events = await source().getRepository(AgentLifecycleEventEntity).findBy({ agentId: lead.id });
    expect(events.filter((e) => e.eventType === 'fired')).toHaveLength(1);
    expect(events.filter((e) => e.eventType === 'offboarded')).toHaveLength(1);
    const record = await source().getRepository(OffboardingRecordEntity).findOneByOrFail({ agentId: lead.id });
    expect(record.handover.map((h) => h.outcome)).toEqual(['reassigned']);
  });

  it("should let the CEO alone release a former agent's name, once, for another agent to take", async () => {
    const [, target, third] = scene.engineers;
    const release = (name: string, token = scene.ceo) =>
      scene.post(`/agents/${encodeURIComponent(name)}/release-name`, {}, token);
    await release(target.name, manager).expect(403);
    expectError((await release(third.name).expect(409)).body, ErrorCode.AgentNameNotReleasable, 'conflict');

    const res = await release(target.name).expect(200);
    expect(res.body.data).toMatchObject({ id: target.id, name: target.name, status: 'terminated' });
    expectError((await release(target.id).expect(409)).body, ErrorCode.AgentNameAlreadyReleased, 'conflict');
    const audit = await source().getRepository(AuditEntryEntity).findBy({ action: 'agent.name_released' });
    expect(audit).toEqual([expect.objectContaining({ actor: 'ceo', target: `agent:${target.id}` })]);

    // The name is free: another agent takes it; the former agent is still reached by id.
    await scene.t.http
      .patch(`/api/v1/agents/${encodeURIComponent(third.name)}`)
      .set(bearer(scene.ceo))
      .send({ name: target.name })
      .expect(200);
    expect((await scene.get(`/agents/${encodeURIComponent(target.name)}`).expect(200)).body.data.id).toBe(third.id);
    const history = (await scene.get(`/agents/${target.id}/history`).expect(200)).body.data as Json[];
    expect(history.map((e) => e.event_type)).toEqual(['hired', 'onboarded', 'fired', 'offboarded', 'status_changed']);
    expect(history[4].metadata).toMatchObject({ changed: 'name_released' });
  });
});
