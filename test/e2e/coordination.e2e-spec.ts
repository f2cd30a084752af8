import { Channel } from '@app/domain';
import { EventBus, subscribeTo } from '@app/platform';
import { createTestDatabase, eventually, testBackends } from '@app/testing';

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
} from '../support';

import { AgentRunner } from '../../apps/api/src/modules/engine/agent-runner';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PHASES = ['decompose', 'route', 'resolve_topology', 'validate', 'dispatch', 'rollup', 'update_parent'];

jest.setTimeout(120_000);

describe.each(testBackends())('coordination of a task on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let project: string;
  let agents: string[];
  const events: { type: string; payload: Json }[] = [];

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({
      backend,
      env: { SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1', SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000' },
    });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock);
    agents = (await createCompany(t, ceo)).agents.map((a) => a.name);
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Coord' }).expect(201)).body.data
      .id as string;
    // Spread the subtasks over the agents: each goes to the one holding the fewest tasks.
    await t.http
      .put('/api/v1/settings/coordination/assignment_strategy')
      .set(bearer(ceo))
      .send({ value: 'load_balanced' })
      .expect(200);
    await t.http
      .put('/api/v1/settings/coordination/coordination_metrics_enabled')
      .set(bearer(ceo))
      .send({ value: 'true' })
      .expect(200);
    subscribeTo(t.app.get(EventBus), Channel.Tasks, (event) => {
      if (event.event_type.startsWith('coordination_')) {
        events.push({ type: event.event_type, payload: event.payload });
      }
    });
  });

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const createTask = async (title: string, extra: Json = {}): Promise<string> =>
    (
      await t.http
        .post('/api/v1/tasks')
        .set(bearer(ceo))
        .send({ title, description: `${title}, in parts.`, type: 'development', project, created_by: 'ceo', ...extra })
        .expect(201)
    ).body.data.id as string;

  const getTask = async (id: string): Promise<Json> =>
    (await t.http.get(`/api/v1/tasks/${id}`).set(bearer(ceo)).expect(200)).body.data as Json;

  const decomposition = (...subtasks: Json[]) => ({ kind: 'text' as const, text: JSON.stringify({ subtasks }) });

  const coordinate = (id: string, body: Json = {}) =>
    t.http.post(`/api/v1/tasks/${id}/coordinate`).set(bearer(ceo)).send(body);

  const subtasksOf = async (parent: string): Promise<Json[]> => {
    const all: Json[] = [];
    for (const status of ['completed', 'failed', 'assigned', 'in_progress', 'created']) {
      const page = await t.http
        .get('/api/v1/tasks')
        .query({ project, status, limit: 200 })
        .set(bearer(ceo))
        .expect(200);
      all.push(...(page.body.data as Json[]).filter((task) => task.parent_task_id === parent));
    }
    return all;
  };

  it('should split a task into 3 subtasks on 2 agents in 2 waves, run them all and complete the parent', async () => {
    const parent = await createTask('Ship the feature');
    mock.enqueue(
      decomposition(
        { id: 'api', title: 'Write the API', description: 'The endpoint.' },
        { id: 'ui', title: 'Write the UI', description: 'The screen.' },
        { id: 'docs', title: 'Document it', description: 'The guide.', dependencies: ['api', 'ui'] },
      ),
    );
    const res = await coordinate(parent, { agent_names: agents.slice(0, 2), fail_fast: true }).expect(200);
    const result = res.body.data as Json;
    expect(result).toMatchObject({
      parent_task_id: parent,
      topology: 'context_dependent',
      wave_count: 2,
      is_success: true,
    });
    expect((result.phases as Json[]).map((p) => p.phase)).toEqual(PHASES);
    expect((result.phases as Json[]).every((p) => p.success === true && !('error' in p))).toBe(true);
    expect(result.total_cost_usd).toBeGreaterThan(0);

    expect(await getTask(parent)).toMatchObject({ status: 'completed' });
    const subtasks = await subtasksOf(parent);
    expect(subtasks.map((s) => s.title).sort()).toEqual(['Document it', 'Write the API', 'Write the UI']);
    expect(subtasks.every((s) => s.status === 'completed')).toBe(true);
    expect(new Set(subtasks.map((s) => s.assigned_to))).toEqual(new Set(agents.slice(0, 2)));
    const docs = subtasks.find((s) => s.title === 'Document it') as Json;
    const firstWave = subtasks.filter((s) => s !== docs).map((s) => s.id as string);
    expect([...(docs.dependencies as string[])].sort()).toEqual(firstWave.sort());

    // The decomposition call is costed in the coordination category, against the parent.
    const records = await eventually(
      async () =>
        (await t.http.get('/api/v1/budget/records').query({ task_id: parent }).set(bearer(ceo)).expect(200)).body
          .data as Json[],
      (items) => items.length > 0,
    );
    expect(records.map((r) => r.call_category)).toEqual(['coordination']);
    const announced = events.filter((e) => e.payload.parent_task_id === parent).map((e) => e.type);
    expect(announced).toEqual(['coordination_started', 'coordination_completed']);
    // The orchestration ratio and, switched on, the coordination metrics are logged.
    const logged = await eventually(
      () => Promise.resolve(t.consoleLines().filter((line) => line.includes(parent))),
      (lines) => lines.some((line) => line.includes('coordination.task.coordination_metrics')),
    );
    expect(
      logged.some((line) => line.includes('coordination.task.metrics') && line.includes('orchestration_ratio')),
    ).toBe(true);
    const metrics = logged.find((line) => line.includes('coordination.task.coordination_metrics')) ?? '';
    expect(metrics).toContain('"redundancy":0');
    expect(metrics).toContain('"message_density"');
  });

  it('should stop after a wave with a failed subtask when fail_fast is set, and fail the parent', async () => {
    const parent = await createTask('Risky change', { max_retries: 0 });
    mock.enqueue(
      decomposition(
        { id: 'first', title: 'Prepare', description: 'Prepare it.' },
        { id: 'second', title: 'Finish', description: 'Finish it.', dependencies: ['first'] },
      ),
      { kind: 'error', status: 400, message: 'refused by the model' },
    );
    const result = (await coordinate(parent, { agent_names: [agents[0]], fail_fast: true }).expect(200)).body
      .data as Json;
    expect(result).toMatchObject({ topology: 'sas', wave_count: 1, is_success: false });
    const dispatch = (result.phases as Json[]).find((p) => p.phase === 'dispatch') as Json;
    expect(dispatch.success).toBe(false);
    expect(dispatch.error).toContain('fail_fast');
    expect(await getTask(parent)).toMatchObject({ status: 'failed' });
    const subtasks = await subtasksOf(parent);
    expect(subtasks.map((s) => [s.title, s.status])).toEqual([['Prepare', 'failed']]);
    const announced = events.filter((e) => e.payload.parent_task_id === parent).map((e) => e.type);
    expect(announced).toEqual(['coordination_started', 'coordination_failed']);
  });

  it('should answer 400 naming the decompose phase when the decomposition has a cycle', async () => {
    const parent = await createTask('Circular');
    mock.enqueue(
      decomposition(
        { id: 'a', title: 'A', description: 'a', dependencies: ['b'] },
        { id: 'b', title: 'B', description: 'b', dependencies: ['a'] },
      ),
    );
    const res = await coordinate(parent).expect(400);
    expectError(res.body, 2085, 'validation');
    expect(res.body.error).toMatch(/phase decompose: .*cycle: a -> b -> a/);
    expect(await getTask(parent)).toMatchObject({ status: 'created' });
    expect(await subtasksOf(parent)).toEqual([]);
    const failed = events.find((e) => e.payload.parent_task_id === parent && e.type === 'coordination_failed');
    expect(failed?.payload).toMatchObject({ phase: 'decompose' });
  });

  it('should answer 404 for an unknown task and 400 for an unknown agent name', async () => {
    expectError((await coordinate('task-unknown').expect(404)).body, 3004, 'not_found');
    const parent = await createTask('Unstaffed');
    expectError((await coordinate(parent, { agent_names: ['nobody-here'] }).expect(400)).body, 2088, 'validation');
  });
});

const postgresOnly = testBackends().includes('postgres') ? describe : describe.skip;

postgresOnly('coordination across two replicas on one Postgres', () => {
  it('should share a wave between both replicas and run each subtask once', async () => {
    const mock = await startMockLlm();
    const db = await createTestDatabase('postgres');
    const env = { SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000', SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1' };
    const a = await startTestApp({ backend: 'postgres', database: db, env });
    const b = await startTestApp({ backend: 'postgres', database: db, env });
    try {
      const ceo = await setupCeo(a);
      await addMockProvider(a, ceo, mock);
      await createCompany(a, ceo);
      await a.http
        .put('/api/v1/settings/coordination/max_concurrent_tasks_per_agent')
        .set(bearer(ceo))
        .send({ value: '50' })
        .expect(200);
      const project = (await a.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Wide' }).expect(201)).body
        .data.id as string;
      const parent = (
        await a.http
          .post('/api/v1/tasks')
          .set(bearer(ceo))
          .send({ title: 'Wide work', description: 'Many parts.', type: 'development', project, created_by: 'ceo' })
          .expect(201)
      ).body.data.id as string;
      const ran = [a, b].map((app) => {
        const runner = app.app.get(AgentRunner);
        const original = runner.run.bind(runner);
        const ids: string[] = [];
        jest.spyOn(runner, 'run').mockImplementation(async (...args) => {
          const executed = await original(...args);
          if (executed) {
            ids.push(args[0]);
          }
          return executed;
        });
        return ids;
      });
      const parts = Array.from({ length: 24 }, (_, i) => ({
        id: `p${i}`,
        title: `Part ${i}`,
        description: `Part ${i}.`,
      }));
      mock.enqueue({ kind: 'text', text: JSON.stringify({ subtasks: parts }) });
      const result = (
        await a.http
          .post(`/api/v1/tasks/${parent}/coordinate`)
          .set(bearer(ceo))
          .send({ max_subtasks: 24, max_concurrency_per_wave: 24 })
          .expect(200)
      ).body.data as Json;
      expect(result).toMatchObject({ topology: 'centralized', wave_count: 1, is_success: true });
      // A run reports back just after its task shows completed: wait for every report.
      await eventually(
        () => Promise.resolve(ran[0].length + ran[1].length),
        (n) => n >= parts.length,
        10_000,
      );
      const all = [...ran[0], ...ran[1]];
      expect(new Set(all).size).toBe(parts.length);
      expect(all).toHaveLength(parts.length);
      expect(ran[0].length).toBeGreaterThan(0);
      expect(ran[1].length).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
      await mock.close();
    }
  });
});
