import { Channel, ErrorCode, HumanRole } from '@app/domain';
import { AgentEntity, AuditEntryEntity, LevelChangeEntity, TaskMetricEntity } from '@app/persistence';
import { DatabaseService, EventBus, subscribeTo } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { bearer, expectError, seedTaskMetrics, userWithRole } from '../support';
import { LevelReviewSchedule } from '../../apps/api/src/modules/promotions/level-review.schedule';
import { type Json, OffboardingScene, type SceneAgent } from './offboarding-scene';

jest.setTimeout(120_000);

describe.each(testBackends())('promotion and demotion on %s', (backend) => {
  let scene: OffboardingScene;
  let agents: SceneAgent[];
  const events: Json[] = [];

  beforeAll(async () => {
    scene = await OffboardingScene.start(backend);
    agents = [...scene.engineers, scene.productManager];
    subscribeTo(scene.t.app.get(EventBus), Channel.Agents, (event) => events.push(event));
  });

  afterAll(() => scene?.close());

  const source = () => scene.t.app.get(DatabaseService).dataSource;
  /** Puts the agent at a level and tier and clears its moves (test set-up, straight into the database). */
  const placeAt = async (agent: SceneAgent, level: string, modelTier: string) => {
    await source().getRepository(AgentEntity).update({ id: agent.id }, { level, modelTier });
    await source().getRepository(LevelChangeEntity).delete({ agentId: agent.id });
  };
  /** Runs that meet the three promotion criteria (quality 8, all successful, 12 tasks). */
  const strong = (agent: SceneAgent) =>
    seedTaskMetrics(scene.t, agent.id, 12, (i) => ({ completedAt: new Date(Date.now() - (i + 1) * 3_600_000) }));
  /** Runs that meet the three demotion criteria (quality 2, all failed, 6 finished, none completed). */
  const weak = (agent: SceneAgent) =>
    seedTaskMetrics(scene.t, agent.id, 6, (i) => ({
      completedAt: new Date(Date.now() - (i + 1) * 3_600_000),
      isSuccess: false,
      qualityScore: 2,
    }));
  const evaluate = (agent: SceneAgent, token = scene.ceo) =>
    scene.post(`/agents/${encodeURIComponent(agent.name)}/evaluate-level`, {}, token);
  const agentNow = async (agent: SceneAgent): Promise<Json> =>
    (await scene.get(`/agents/${encodeURIComponent(agent.name)}`).expect(200)).body.data as Json;
  const history = async (agent: SceneAgent): Promise<Json[]> =>
    (await scene.get(`/agents/${encodeURIComponent(agent.name)}/history`).expect(200)).body.data as Json[];
  const setting = (key: string, value: string) =>
    scene.t.http.put(`/api/v1/settings/company/${key}`).set(bearer(scene.ceo)).send({ value }).expect(200);

  it('should promote a junior to mid at once from its metrics, with the model of the new tier', async () => {
    const [, dev] = agents;
    await placeAt(dev, 'junior', 'small');
    await strong(dev);

    const res = await evaluate(dev).expect(200);

    expect(res.body.data).toMatchObject({
      agent_name: dev.name,
      level: 'junior',
      decision: 'promoted',
      to_level: 'mid',
      promotion_criteria_met: 3,
      demotion_criteria_met: 0,
      min_criteria_met: 2,
      approval_id: null,
    });
    expect((res.body.data.criteria as Json[]).filter((c) => c.direction === 'promotion').map((c) => c.met)).toEqual([
      true,
      true,
      true,
    ]);
    const now = await agentNow(dev);
    expect(now.level).toBe('mid');
    expect(now.tier).toBe('medium');
    const promoted = (await history(dev)).filter((e) => e.event_type === 'promoted');
    expect(promoted).toHaveLength(1);
    expect(promoted[0]).toMatchObject({ initiated_by: 'system', metadata: { old_level: 'junior', new_level: 'mid' } });
    expect(events.some((e) => e.event_type === 'agent.promoted' && e.payload.new_level === 'mid')).toBe(true);
    const audit = await source().getRepository(AuditEntryEntity).findBy({ action: 'agent.promoted' });
    expect(audit.some((row) => row.target === `agent:${dev.name}`)).toBe(true);
    const feed = await scene.get('/activities?type=promoted').expect(200);
    expect((feed.body.data as Json[]).map((e) => e.event_type)).toContain('promoted');
  });

  it('should refuse a second evaluation within the cooldown (409) and skip the agent on the schedule', async () => {
    const [, dev] = agents;
    const res = await evaluate(dev).expect(409);
    expectError(res.body, ErrorCode.LevelChangeCooldown, 'conflict');
    await scene.t.app.get(LevelReviewSchedule).run(new Date());
    expect((await agentNow(dev)).level).toBe('mid');
  });

  it('should file a promotion into senior as org:promote and apply it when a person approves', async () => {
    const [, , third] = agents;
    await placeAt(third, 'mid', 'medium');
    await strong(third);

    const res = await evaluate(third).expect(200);
    expect(res.body.data).toMatchObject({ decision: 'pending_approval', to_level: 'senior' });
    const approvalId = res.body.data.approval_id as string;
    const item = (await scene.get(`/approvals/${approvalId}`).expect(200)).body.data as Json;
    expect(item).toMatchObject({
      action_type: 'org:promote',
      status: 'pending',
      metadata: { kind: 'seniority', direction: 'promotion', from: 'mid', to: 'senior', agent_id: third.id },
    });
    expect((await agentNow(third)).level).toBe('mid');
    // Asking again reports the waiting item and files nothing new.
    expect((await evaluate(third).expect(200)).body.data).toMatchObject({
      decision: 'pending_approval',
      approval_id: approvalId,
    });

    await scene.post(`/approvals/${approvalId}/approve`, { comment: 'Deserved.' }).expect(200);

    await eventually(
      () => agentNow(third),
      (a) => a.level === 'senior',
    );
    const promoted = (await history(third)).filter((e) => e.event_type === 'promoted');
    expect(promoted).toHaveLength(1);
    expect(promoted[0]).toMatchObject({
      initiated_by: 'ceo',
      metadata: { old_level: 'mid', new_level: 'senior', approval_id: approvalId },
    });
  });

  it('should keep the level when the person rejects the promotion', async () => {
    const pm = agents[3];
    await placeAt(pm, 'mid', 'medium');
    await strong(pm);
    const res = await evaluate(pm).expect(200);
    const approvalId = res.body.data.approval_id as string;
    await scene.post(`/approvals/${approvalId}/reject`, { reason: 'Not yet.' }).expect(200);
    await eventually(
      () => source().getRepository(LevelChangeEntity).findOneByOrFail({ approvalId }),
      (row) => row.status === 'rejected',
    );
    expect((await agentNow(pm)).level).toBe('mid');
    expect((await history(pm)).some((e) => e.event_type === 'promoted')).toBe(false);
  });

  it('should demote at once onto a cheaper tier, and wait for a person when the tier stays', async () => {
    const [lead, dev] = agents;
    // mid (medium) → junior (small): saves cost, automatic.
    await placeAt(dev, 'mid', 'medium');
    await source().getRepository(TaskMetricEntity).delete({ agentId: dev.id });
    await weak(dev);
    const down = await evaluate(dev).expect(200);
    expect(down.body.data).toMatchObject({ decision: 'demoted', to_level: 'junior', demotion_criteria_met: 3 });
    expect(await agentNow(dev)).toMatchObject({ level: 'junior', tier: 'small' });
    const demoted = (await history(dev)).filter((e) => e.event_type === 'demoted');
    expect(demoted.at(-1)).toMatchObject({ metadata: { old_level: 'mid', new_level: 'junior' } });
    expect(events.some((e) => e.event_type === 'agent.demoted')).toBe(true);

    // senior (medium) → mid (medium): no saving, a person decides.
    await placeAt(lead, 'senior', 'medium');
    await weak(lead);
    const held = await evaluate(lead).expect(200);
    expect(held.body.data).toMatchObject({ decision: 'pending_approval', to_level: 'mid' });
    await scene.post(`/approvals/${held.body.data.approval_id as string}/reject`, { reason: 'Keep.' }).expect(200);
    await eventually(
      () => source().getRepository(LevelChangeEntity).findOneByOrFail({ approvalId: held.body.data.approval_id }),
      (row) => row.status === 'rejected',
    );

    // Without human demotion authority (hot-applied), the same demotion applies on the schedule.
    await setting('human_demote_authority', 'false');
    try {
      await scene.t.app.get(LevelReviewSchedule).run(new Date());
      expect((await agentNow(lead)).level).toBe('mid');
    } finally {
      await setting('human_demote_authority', 'true');
    }
  });

  it('should answer 409 when switched off or the agent is not active, and 403 to read-only roles', async () => {
    const pm = agents[3];
    await setting('promotion_enabled', 'false');
    try {
      expectError((await evaluate(pm).expect(409)).body, ErrorCode.PromotionsDisabled, 'conflict');
    } finally {
      await setting('promotion_enabled', 'true');
    }
    const pmPath = `/agents/${encodeURIComponent(pm.name)}`;
    const patch = (body: Json) => scene.t.http.patch(`/api/v1${pmPath}`).set(bearer(scene.ceo)).send(body).expect(200);
    await patch({ status: 'on_leave', reason: 'holiday' });
    try {
      expectError((await evaluate(pm).expect(409)).body, ErrorCode.AgentNotEvaluable, 'conflict');
    } finally {
      await patch({ status: 'active' });
    }
    const observer = await userWithRole(scene.t, scene.ceo, HumanRole.Observer, 'promo-observer');
    await evaluate(pm, observer).expect(403);
    const manager = await userWithRole(scene.t, scene.ceo, HumanRole.Manager, 'promo-manager', 'engineering');
    const outside = await evaluate(pm, manager).expect(403);
    expectError(outside.body, ErrorCode.AgentOutsideManagedDepartment, 'auth');
    await scene.post(`/agents/${encodeURIComponent('nobody here')}/evaluate-level`, {}).expect(404);
  });
});
