import { AgentOnboardingEntity, ApprovalItemEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { HiringService } from '../../apps/api/src/modules/hiring/hiring.service';
import { OnboardingService } from '../../apps/api/src/modules/hiring/onboarding.service';
import { bearer } from '../support';
import { AgentEditsScene, type Json, type SceneRole } from './agent-edits-scene';

jest.setTimeout(90_000);

const ENGINE_ENV = { SYNTHORG_ENGINE_GRACE_SECONDS: '2', SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1' };

/** Hiring requests, their decisions, instantiation and onboarding, against the fake model server. */
describe.each(testBackends())('hiring and onboarding on %s', (backend) => {
  const scene = new AgentEditsScene(backend, ENGINE_ENV);

  beforeAll(async () => {
    await scene.start();
  });

  afterAll(async () => {
    await scene.close();
  });

  const post = (path: string, body: unknown, role: SceneRole = 'ceo') =>
    scene.t.http
      .post(`/api/v1${path}`)
      .set(bearer(scene.tokens[role]))
      .send(body as object);
  const get = (path: string, role: SceneRole = 'ceo') =>
    scene.t.http.get(`/api/v1${path}`).set(bearer(scene.tokens[role]));

  const request = (overrides: Json = {}): Json => ({
    department: 'engineering',
    role: 'Full-Stack Developer',
    level: 'mid',
    required_skills: ['typescript', 'api-design'],
    reason: 'The backlog outgrew the team',
    ...overrides,
  });

  const agent = async (name: string): Promise<Json> => (await scene.get(name)).agent;
  const onboarding = async (name: string): Promise<Json> =>
    (await get(`/agents/${encodeURIComponent(name)}/onboarding`, 'observer').expect(200)).body.data as Json;
  const becomesActive = (name: string): Promise<Json> =>
    eventually(
      () => agent(name),
      (a) => a.status === 'active',
      30_000,
    );

  it('should hire from a template role as the CEO (approved by filing), onboard the agent and give it work', async () => {
    const from = scene.events.length;
    const filed = await post('/hiring/requests', request()).expect(201);
    const req = filed.body.data as Json;
    expect(req).toMatchObject({
      status: 'approved',
      requested_by: 'ceo',
      department: 'engineering',
      approval_id: null,
    });
    // The startup template has two Full-Stack Developers: two candidates (their presets differ).
    expect(req.candidates).toHaveLength(2);
    for (const c of req.candidates as Json[]) {
      expect(c).toMatchObject({ template_source: 'startup', role: 'Full-Stack Developer', level: 'mid' });
      expect(c.estimated_monthly_cost).toBeGreaterThan(0);
      expect(c.skills).toEqual(['typescript', 'api-design']);
    }
    expect((req.candidates as Json[]).map((c) => c.personality_preset).sort()).toEqual([
      'eager_learner',
      'pragmatic_builder',
    ]);
    const second = (req.candidates as Json[])[1];
    await post(`/hiring/requests/${req.id}/select`, { candidate_id: second.id }).expect(200);

    const made = await post(`/hiring/requests/${req.id}/instantiate`, {}).expect(200);
    expect(made.body.data).toMatchObject({ status: 'instantiated', selected_candidate_id: second.id });
    const name = second.name as string;
    expect((await agent(name)).status).toBe('onboarding');

    const active = await becomesActive(name);
    expect(active).toMatchObject({ role: 'Full-Stack Developer', department: 'engineering', level: 'mid' });
    const checklist = await onboarding(name);
    expect((checklist.steps as Json[]).map((s) => [s.name, s.state])).toEqual([
      ['company_context', 'done'],
      ['project_briefing', 'done'],
      ['team_introductions', 'done'],
    ]);
    expect(checklist.completed_at).not.toBeNull();
    // The briefing the agent read names the company and its team.
    const brief = (await get(`/tasks/${(checklist.steps as Json[])[2].task_id}`).expect(200)).body.data as Json;
    expect(brief.description).toContain(scene.agents.senior.name);
    expect(brief.status).toBe('completed');

    const history = await scene.history(name);
    expect(history.map((e) => e.event_type)).toEqual(['hired', 'onboarded']);
    const types = scene.agentEvents(from).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['hiring.request_changed', 'agent.hired', 'agent.onboarded']));
    expect(types.filter((t) => t === 'agent.onboarding_step')).toHaveLength(3);
    const audit = (await get('/audit?action=agent.hired').expect(200)).body.data as Json[];
    expect(audit.some((row) => (row.details as Json).hiring_request_id === req.id)).toBe(true);

    // The new agent takes work.
    const project = (await post('/projects', { name: 'First work' }).expect(201)).body.data.id as string;
    const task = (
      await post('/tasks', {
        title: 'Hello',
        description: 'Say hello.',
        type: 'development',
        project,
        created_by: 'ceo',
        assigned_to: name,
      }).expect(201)
    ).body.data.id as string;
    await eventually(
      async () => (await get(`/tasks/${task}`).expect(200)).body.data as Json,
      (x) => x.status === 'completed',
    );

    const again = await post(`/hiring/requests/${req.id}/instantiate`, {}).expect(409);
    expect(again.body.error_detail.error_code).toBe(4082);
  });

  it('should build one candidate from the request for a role no template has', async () => {
    const res = await post('/hiring/requests', request({ role: 'Security Auditor', level: 'senior' })).expect(201);
    const [only] = res.body.data.candidates as Json[];
    expect(res.body.data.candidates).toHaveLength(1);
    expect(only).toMatchObject({
      template_source: null,
      personality_preset: 'security_sentinel',
      model_provider: 'mock',
    });
    expect(only.rationale).toContain('seniority default');
  });

  it('should make one agent of two instantiations at once, the other answered 4082', async () => {
    const req = (await post('/hiring/requests', request({ role: 'Site Reliability Engineer' })).expect(201)).body
      .data as Json;
    const answers = await Promise.all([
      post(`/hiring/requests/${req.id}/instantiate`, {}),
      post(`/hiring/requests/${req.id}/instantiate`, {}),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.body.error_detail.error_code).toBe(4082);
    const name = (req.candidates as Json[])[0].name as string;
    const roster = (await get('/agents?limit=200').expect(200)).body.data as Json[];
    expect(roster.filter((a) => a.name === name)).toHaveLength(1);
    await becomesActive(name);
  });

  it('should leave a failed onboarding step with its reason, and finish it on retry', async () => {
    const req = (await post('/hiring/requests', request({ role: 'QA Engineer' })).expect(201)).body.data as Json;
    scene.mock.reset();
    scene.mock.enqueue({ kind: 'error', status: 400, message: 'scripted onboarding failure' });
    await post(`/hiring/requests/${req.id}/instantiate`, {}).expect(200);
    const name = (req.candidates as Json[])[0].name as string;
    const stuck = await eventually(
      () => onboarding(name),
      (o) => (o.steps as Json[]).filter((s) => s.state !== 'running').length === 3,
      30_000,
    );
    const failed = (stuck.steps as Json[]).filter((s) => s.state === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].reason).toContain('scripted onboarding failure');
    expect((await agent(name)).status).toBe('onboarding');
    expect(
      (await post(`/agents/${encodeURIComponent(name)}/onboarding/retry`, {}, 'observer').expect(403)).body.error_detail
        .error_code,
    ).toBe(1001);

    const retried = await post(`/agents/${encodeURIComponent(name)}/onboarding/retry`, {}).expect(200);
    const step = (retried.body.data.steps as Json[]).find((s) => s.name === failed[0].name) as Json;
    expect(step).toMatchObject({ state: 'running', attempts: 2 });
    expect(step.task_id).not.toBe(failed[0].task_id);
    await becomesActive(name);
    const again = await post(`/agents/${encodeURIComponent(name)}/onboarding/retry`, {}).expect(409);
    expect(again.body.error_detail.error_code).toBe(4083);
  });

  describe('with a second person required', () => {
    beforeAll(async () => {
      await scene.setting('company', 'hiring_requires_second_approval', 'true');
    });

    afterAll(async () => {
      await scene.setting('company', 'hiring_requires_second_approval', 'false');
    });

    it('should queue an org:hire item, and instantiate once another person approved it', async () => {
      const req = (await post('/hiring/requests', request({ level: 'junior' }), 'manager').expect(201)).body
        .data as Json;
      expect(req).toMatchObject({ status: 'pending', requested_by: 'manager' });
      const pending = await post(`/hiring/requests/${req.id}/instantiate`, {}, 'manager').expect(409);
      expect(pending.body.error_detail.error_code).toBe(4080);

      const items = (await get('/approvals?action_type=org:hire&status=pending').expect(200)).body.data as Json[];
      const item = items.find((i) => i.id === req.approval_id) as Json;
      expect(item.metadata).toMatchObject({
        hiring_request_id: req.id,
        candidate_name: (req.candidates as Json[])[0].name,
        estimated_monthly_cost: String((req.candidates as Json[])[0].estimated_monthly_cost),
      });
      await post(`/approvals/${item.id}/approve`, { comment: 'yes' }).expect(200);
      await eventually(
        async () => (await get(`/hiring/requests/${req.id}`).expect(200)).body.data as Json,
        (r) => r.status === 'approved',
      );
      await post(`/hiring/requests/${req.id}/instantiate`, {}, 'manager').expect(200);
      await becomesActive((req.candidates as Json[])[0].name as string);
    });

    it('should reject the request when its item is rejected, or approved by the person who filed it', async () => {
      const rejected = (await post('/hiring/requests', request()).expect(201)).body.data as Json;
      await post(`/approvals/${rejected.approval_id}/reject`, { reason: 'not now' }, 'board_member').expect(200);
      const own = (await post('/hiring/requests', request(), 'manager').expect(201)).body.data as Json;
      await post(`/approvals/${own.approval_id}/approve`, {}, 'manager').expect(200);
      for (const id of [rejected.id, own.id]) {
        const done = await eventually(
          async () => (await get(`/hiring/requests/${id}`).expect(200)).body.data as Json,
          (r) => r.status === 'rejected',
        );
        expect(done.status).toBe('rejected');
        expect((await post(`/hiring/requests/${id}/instantiate`, {}).expect(409)).body.error_detail.error_code).toBe(
          4081,
        );
      }
      const list = (await get('/hiring/requests?status=rejected&limit=1', 'observer').expect(200)).body;
      expect(list.data).toHaveLength(1);
      expect(list.pagination).toMatchObject({ total: 2, limit: 1 });
    });
  });

  it("should escalate an agent's request_hire call and file the request once a person approved it", async () => {
    const requester = scene.agents.cto.name as string;
    await scene.patch(requester, { tools: { allowed: ['request_hire'] } }).expect(200);
    const project = (await post('/projects', { name: 'Growth' }).expect(201)).body.data.id as string;
    scene.mock.reset();
    scene.mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [
          {
            name: 'request_hire',
            arguments: { department: 'engineering', role: 'Data Engineer', level: 'mid', reason: 'Pipelines' },
          },
        ],
      },
      { kind: 'text', text: 'Asked for a data engineer.' },
    );
    const task = (
      await post('/tasks', {
        title: 'Grow the team',
        description: 'Ask for a data engineer.',
        type: 'admin',
        project,
        created_by: 'ceo',
        assigned_to: requester,
      }).expect(201)
    ).body.data.id as string;
    const item = await eventually(
      async () =>
        ((await get('/approvals?action_type=org:hire&status=pending').expect(200)).body.data as Json[]).find(
          (i) => i.task_id === task,
        ),
      (i) => i !== undefined,
    );
    expect(item).toMatchObject({ action_type: 'org:hire', metadata: { tool_name: 'request_hire' } });
    let filed = (await get('/hiring/requests').expect(200)).body.data as Json[];
    expect(filed.some((r) => r.requested_by === `agent:${requester}`)).toBe(false);

    await post(`/approvals/${(item as Json).id}/approve`, {}).expect(200);
    await eventually(
      async () => (await get(`/tasks/${task}`).expect(200)).body.data as Json,
      (x) => x.status === 'completed',
    );
    filed = (await get('/hiring/requests?status=pending').expect(200)).body.data as Json[];
    const mine = filed.find((r) => r.requested_by === `agent:${requester}`) as Json;
    expect(mine).toMatchObject({ role: 'Data Engineer', status: 'pending' });
    expect(mine.approval_id).not.toBeNull();
  });

  describe('at startup', () => {
    const db = () => scene.t.app.get(DatabaseService).dataSource;

    it('should apply a decision no replica heard, and fail a step whose task never came', async () => {
      await scene.setting('company', 'hiring_requires_second_approval', 'true');
      const req = (await post('/hiring/requests', request({ role: 'Data Analyst' })).expect(201)).body.data as Json;
      await scene.setting('company', 'hiring_requires_second_approval', 'false');
      // Decided behind the service's back: no approvals event was published.
      await db()
        .getRepository(ApprovalItemEntity)
        .update({ id: req.approval_id as string }, { status: 'approved', decidedBy: 'board', decidedAt: new Date() });
      expect((await get(`/hiring/requests/${req.id}`).expect(200)).body.data.status).toBe('pending');
      await scene.t.app.get(HiringService).reconcile();
      expect((await get(`/hiring/requests/${req.id}`).expect(200)).body.data).toMatchObject({
        status: 'approved',
        decided_by: 'board',
      });

      // A checklist whose tasks were never made (a crash after the hire's commit), written long ago.
      await post(`/hiring/requests/${req.id}/instantiate`, {}).expect(200);
      const name = (req.candidates as Json[])[0].name as string;
      await becomesActive(name);
      const { agent_id: agentId } = await onboarding(name);
      const rows = db().getRepository(AgentOnboardingEntity);
      const row = await rows.findOneByOrFail({ agentId: agentId as string });
      await rows.update(
        { agentId: row.agentId },
        {
          completedAt: null,
          updatedAt: new Date(Date.now() - 120_000),
          steps: row.steps.map((step, i) =>
            i === 0 ? { ...step, state: 'running', taskId: 'task-never-made' } : step,
          ),
        },
      );
      await scene.t.app.get(OnboardingService).reconcile();
      const after = await onboarding(name);
      expect((after.steps as Json[])[0]).toMatchObject({
        state: 'failed',
        reason: expect.stringContaining('task-never-made'),
      });
    });
  });

  describe('refusals', () => {
    it('should answer 403 to roles that may not hire, and to a manager outside their department', async () => {
      for (const role of ['observer', 'pair_programmer', 'board_member'] as const) {
        expect((await post('/hiring/requests', request(), role).expect(403)).body.error_detail.error_code).toBe(1001);
      }
      const other = await post('/hiring/requests', request({ department: 'product' }), 'manager').expect(403);
      expect(other.body.error_detail.error_code).toBe(1980);
      await get('/hiring/requests', 'observer').expect(200);
      await get('/hiring/requests', 'pair_programmer').expect(200);
    });

    it('should answer 400 with codes for bad bodies', async () => {
      const cases: Array<[Json, number]> = [
        [{ ...request(), role: undefined }, 2001],
        [{ ...request(), level: 'intern' }, 2001],
        [{ ...request(), required_skills: 'ts' }, 2001],
        [{ ...request(), budget_limit_monthly: -1 }, 2001],
        [{ ...request(), extra: 1 }, 2001],
        [request({ role: '   ' }), 2984],
        [request({ department: 'nowhere' }), 2980],
        [request({ template_name: 'no_such_template' }), 2981],
      ];
      for (const [body, code] of cases) {
        expect((await post('/hiring/requests', body).expect(400)).body.error_detail.error_code).toBe(code);
      }
      const req = (await post('/hiring/requests', request()).expect(201)).body.data as Json;
      expect(
        (await post(`/hiring/requests/${req.id}/select`, { candidate_id: 'nope' }).expect(400)).body.error_detail
          .error_code,
      ).toBe(2982);
      expect((await get('/hiring/requests/nope').expect(404)).body.error_detail.error_code).toBe(3080);
    });

    it("should refuse a limit over the department's budget share, and a name taken since the request", async () => {
      // engineering holds 60% of the company's 100 a month.
      await scene.setting('budget', 'total_monthly', '100');
      const over = await post('/hiring/requests', request({ budget_limit_monthly: 61 })).expect(409);
      expect(over.body.error_detail.error_code).toBe(6999);
      const req = (await post('/hiring/requests', request({ budget_limit_monthly: 5 })).expect(201)).body.data as Json;
      const name = (req.candidates as Json[])[0].name as string;
      await scene.patch(scene.agents.pm.name as string, { name }).expect(200);
      const taken = await post(`/hiring/requests/${req.id}/instantiate`, {}).expect(409);
      expect(taken.body.error_detail.error_code).toBe(4001);
      expect((await get(`/hiring/requests/${req.id}`).expect(200)).body.data.status).toBe('approved');
      await scene.setting('budget', 'total_monthly', '0');
    });
  });
});
