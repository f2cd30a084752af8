import { Channel, HumanRole } from '@app/domain';
import { AgentLifecycleEventEntity } from '@app/persistence';
import { DatabaseService, EventBus, subscribeTo } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { bearer, expectError, userWithRole } from '../support';
import { type Json, OffboardingScene } from './offboarding-scene';

jest.setTimeout(90_000);

describe.each(testBackends())('firing and offboarding on %s', (backend) => {
  let scene: OffboardingScene;

  beforeAll(async () => {
    scene = await OffboardingScene.start(backend);
  });

  afterEach(() => scene.mock.reset());

  afterAll(() => scene?.close());

  const careerEvents = (agentId: string) =>
    scene.t.app.get(DatabaseService).dataSource.getRepository(AgentLifecycleEventEntity).findBy({ agentId });

  it('should stop the run of a fired agent, interrupt its tasks and hand them to its department, one priority step up', async () => {
    const [, fired] = scene.engineers;
    const events: Json[] = [];
    const off = subscribeTo(scene.t.app.get(EventBus), Channel.Agents, (event) => events.push(event));
    scene.mock.enqueue({ kind: 'hang' });
    const running = await scene.assign(fired.name, { priority: 'medium' });
    await scene.running(running.id as string, 1);
    const waiting = await scene.assign(fired.name, { priority: 'high' });
    expect((await scene.task(waiting.id as string)).status).toBe('assigned');

    const res = await scene.fire(fired.name, { reason: 'performance', details: 'Missed three deadlines.' }).expect(201);

    const record = res.body.data as Json;
    expect(record).toMatchObject({
      agent_id: fired.id,
      agent_name: fired.name,
      reason: 'performance',
      details: 'Missed three deadlines.',
      requested_by: 'ceo',
      memory_archive_id: null,
      org_memories_promoted: 0,
      team_notification_sent: true,
      completed_at: expect.any(String),
    });
    expect(record.steps.map((s: Json) => [s.name, s.state])).toEqual([
      ['terminated', 'done'],
      ['tasks_interrupted', 'done'],
      ['runs_stopped', 'done'],
      ['tasks_reassigned', 'done'],
      ['memory_archived', 'skipped'],
      ['team_notified', 'done'],
      ['offboarded', 'done'],
    ]);
    expect(record.steps[4].detail).toBe('skipped: no memory backend');
    expect(record.steps[2].detail).toBe('1 run(s) ended');
    expect(record.steps[5].detail).toBe('posted to #engineering');
    expect(record.tasks_reassigned).toEqual([running.id, waiting.id]);
    // Least loaded first: the two tasks go to the two colleagues still in the department, one step more urgent.
    const moved = await scene.task(running.id as string);
    const queued = await scene.task(waiting.id as string);
    expect([moved.priority, queued.priority]).toEqual(['high', 'critical']);
    const colleagues = scene.engineers.filter((e) => e.id !== fired.id).map((e) => e.name);
    expect([moved.assigned_to, queued.assigned_to].sort()).toEqual(colleagues.sort());
    expect(record.steps[3].detail).toBe(
      `2 task(s) handed over (${running.id} to ${moved.assigned_to}, ${waiting.id} to ${queued.assigned_to}), ` +
        '0 left unassigned (no other active agent in engineering)',
    );

    // The run stopped at the move: its call was cut.
    expect(scene.t.consoleLines().some((line) => line.includes('engine.run.stopped_by_change'))).toBe(true);
    // The new agent's run takes the task to the end.
    await eventually(
      () => scene.task(running.id as string),
      (task) => task.status === 'completed',
      30_000,
    );

    const agent = (await scene.get(`/agents/${fired.name}`).expect(200)).body.data as Json;
    expect(agent.status).toBe('terminated');
    const history = (await scene.get(`/agents/${fired.name}/history`).expect(200)).body.data as Json[];
    expect(history.map((e) => e.event_type)).toEqual(['hired', 'onboarded', 'fired', 'offboarded']);
    expect(history[2]).toMatchObject({
      initiated_by: 'ceo',
      description: 'Fired (performance): Missed three deadlines.',
    });
    const kinds = (await careerEvents(fired.id)).map((e) => e.eventType).sort();
    expect(kinds).toEqual(['fired', 'hired', 'offboarded', 'onboarded']);

    const messages = (await scene.get('/messages?channel=%23engineering').expect(200)).body.data as Json[];
    const notices = messages.filter((m) => m.type === 'hr_notification');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ from: 'system', channel: '#engineering' });
    expect(notices[0].content).toContain(`${fired.name} (`);
    expect(notices[0].content).toContain(running.id);

    const audit = (await scene.get('/audit?action=agent.fired').expect(200)).body.data as Json[];
    expect(audit.filter((a) => a.target === `agent:${fired.name}`)).toEqual([
      expect.objectContaining({ actor: 'ceo', outcome: 'success' }),
    ]);
    await eventually(
      () => Promise.resolve(events.map((e) => e.event_type as string).filter((type) => type !== 'agent.updated')),
      (types) => types.includes('agent.offboarded'),
    );
    off();
    const mine = events.filter((e) => e.payload.agent.id === fired.id);
    expect(mine.map((e) => e.event_type)).toEqual(['agent.fired', 'agent.offboarded']);
    expect(mine[1].payload.offboarding).toMatchObject({ firing_request_id: record.firing_request_id });

    // A terminated agent takes no work, and the record stays readable.
    const refused = await scene
      .post('/tasks', {
        title: 'More',
        description: 'More work',
        type: 'development',
        project: scene.project,
        created_by: 'ceo',
        assigned_to: fired.name,
      })
      .expect(409);
    expectError(refused.body, 4018, 'conflict');
    const read = (await scene.get(`/agents/${fired.name.toUpperCase()}/offboarding`).expect(200)).body.data as Json;
    expect(read).toEqual(record);
  });

  it('should answer a second fire of the same agent with 409 (4099), and the record is unchanged', async () => {
    const [, fired] = scene.engineers;
    const before = (await scene.get(`/agents/${fired.name}/offboarding`).expect(200)).body.data as Json;
    const res = await scene.fire(fired.name, { reason: 'budget' }).expect(409);
    expectError(res.body, 4099, 'conflict');
    expect(res.body.error).toContain('/offboarding');
    expect((await scene.get(`/agents/${fired.name}/offboarding`).expect(200)).body.data).toEqual(before);
  });

  it('should leave a task interrupted and unassigned, with its reason, when nobody else in the department can take it', async () => {
    const pm = scene.productManager;
    scene.mock.enqueue({ kind: 'hang' });
    const task = await scene.assign(pm.name, { priority: 'low' });
    await scene.running(task.id as string, 1);

    const record = (await scene.fire(pm.name, { reason: 'project_completion' }).expect(201)).body.data as Json;

    expect(record.tasks_reassigned).toEqual([]);
    expect(record.steps[3].detail).toBe(
      `0 task(s) handed over, 1 left unassigned (${task.id}) (no other active agent in product)`,
    );
    expect(record.steps[5].detail).toBe('posted to #product');
    const left = await scene.task(task.id as string);
    expect(left).toMatchObject({ status: 'interrupted', assigned_to: null, priority: 'medium' });
    expect(left.status_reason).toContain('no other active agent in product: assign it by hand');
    // Recovery never gives it back to the fired agent: it waits for a person.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await scene.task(task.id as string)).status).toBe('interrupted');
  });

  it('should answer 404 for an unknown agent (3013) and for the record of an agent never fired (3099)', async () => {
    expectError((await scene.fire('Nobody At All').expect(404)).body, 3013, 'not_found');
    expectError((await scene.get('/agents/Nobody%20At%20All/offboarding').expect(404)).body, 3013, 'not_found');
    const [head] = scene.engineers;
    expectError((await scene.get(`/agents/${head.name}/offboarding`).expect(404)).body, 3099, 'not_found');
  });

  it.each([
    ['an unknown reason', { reason: 'boredom' }],
    ['no reason', { details: 'why not' }],
    ['a null reason', { reason: null }],
    ['details that are not text', { reason: 'manual', details: 7 }],
    ['details over 1024 characters', { reason: 'manual', details: 'x'.repeat(1025) }],
    ['an unknown field', { reason: 'manual', severance: 100 }],
  ])('should refuse %s with 400 and fire nobody', async (_label, body) => {
    const [head] = scene.engineers;
    expectError((await scene.fire(head.name, body).expect(400)).body, 2001, 'validation');
    expect((await scene.get(`/agents/${head.name}`).expect(200)).body.data.status).toBe('active');
  });

  it('should let only the CEO and the managers of its department fire an agent', async () => {
    const [head] = scene.engineers;
    await scene.t.http.post(`/api/v1/agents/${head.name}/fire`).send({ reason: 'manual' }).expect(401);
    for (const role of [HumanRole.Observer, HumanRole.PairProgrammer, HumanRole.BoardMember]) {
      const token = await userWithRole(scene.t, scene.ceo, role);
      expectError((await scene.fire(head.name, { reason: 'manual' }, token).expect(403)).body, 1001, 'auth');
      // Everyone who reads may read the record.
      await scene.get(`/agents/${scene.productManager.name}/offboarding`, token).expect(200);
    }
    const outsider = await userWithRole(scene.t, scene.ceo, HumanRole.Manager, 'product-manager', 'product');
    expectError((await scene.fire(head.name, { reason: 'manual' }, outsider).expect(403)).body, 1001, 'auth');
    const denied = (await scene.get('/audit?action=agent.fired').expect(200)).body.data as Json[];
    expect(denied.filter((a) => a.outcome === 'denied' && a.actor === 'product-manager')).toHaveLength(1);
    expect((await scene.get(`/agents/${head.name}`).expect(200)).body.data.status).toBe('active');

    const manager = await userWithRole(scene.t, scene.ceo, HumanRole.Manager, 'eng-manager', 'engineering');
    const record = (await scene.fire(head.name, { reason: 'manual' }, manager).expect(201)).body.data as Json;
    expect(record).toMatchObject({ requested_by: 'eng-manager', completed_at: expect.any(String) });
  });

  it("should refuse a new agent under a former agent's name with 409 (4098), whatever its case", async () => {
    const [, fired] = scene.engineers;
    // Fired by the first spec; fired here when it runs alone.
    expect([201, 409]).toContain((await scene.fire(fired.name)).status);
    const res = await scene
      .post('/setup/agent', {
        name: fired.name.toUpperCase(),
        role: 'Developer',
        department: 'engineering',
        model_provider: 'mock',
        model_id: 'mock-small',
      })
      .expect(409);
    expectError(res.body, 4098, 'conflict');
    const roster = (await scene.get('/setup/agents').expect(200)).body.data.agents as Json[];
    const index = roster.findIndex((a) => a.name === scene.engineers[2].name);
    expect(index).toBeGreaterThanOrEqual(0);
    const rename = await scene.t.http
      .put(`/api/v1/setup/agents/${index}/name`)
      .set(bearer(scene.ceo))
      .send({ name: fired.name })
      .expect(409);
    expectError(rename.body, 4098, 'conflict');
  });
});
