import { CostRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { bearer } from '../support';
import { AgentEditsScene, type Json } from './agent-edits-scene';

// The model the agent names is the model its runs use only under manual (or smart) routing.
const ENGINE_ENV = {
  SYNTHORG_ROUTING_STRATEGY: 'manual',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
};
/** How long the fake model takes over the first call of the run: the edit happens meanwhile. */
const SLOW_CALL_MS = 1500;

jest.setTimeout(60_000);

/** A model change takes effect at the next task boundary: the run in flight keeps the model it started with. */
describe.each(testBackends())('agent model edits and runs in flight on %s', (backend) => {
  const scene = new AgentEditsScene(backend, ENGINE_ENV);
  let agent: string;
  let project: string;

  beforeAll(async () => {
    await scene.start();
    agent = scene.agents.mid.name as string;
    await scene
      .patch(agent, { model: { provider: 'mock', model_id: 'mock-small', temperature: 0.5, max_tokens: 1000 } })
      .expect(200);
    project = (
      await scene.t.http.post('/api/v1/projects').set(bearer(scene.tokens.ceo)).send({ name: 'Boundary' }).expect(201)
    ).body.data.id as string;
  });

  afterAll(async () => {
    await scene.close();
  });

  const chats = (): Json[] =>
    scene.mock.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body as Json);

  const task = async (id: string): Promise<Json> =>
    (await scene.t.http.get(`/api/v1/tasks/${id}`).set(bearer(scene.tokens.ceo)).expect(200)).body.data as Json;

  const assign = async (title: string): Promise<string> =>
    (
      await scene.t.http
        .post('/api/v1/tasks')
        .set(bearer(scene.tokens.ceo))
        .send({
          title,
          description: 'List the files.',
          type: 'development',
          project,
          created_by: 'ceo',
          assigned_to: agent,
        })
        .expect(201)
    ).body.data.id as string;

  const costModels = async (taskId: string): Promise<string[]> =>
    (await scene.t.app.get(DatabaseService).dataSource.getRepository(CostRecordEntity).findBy({ taskId })).map(
      (c) => `${c.provider}/${c.model}`,
    );

  it('should finish the run in flight on its model and start the next task on the new one', async () => {
    scene.mock.reset();
    scene.mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }], delayMs: SLOW_CALL_MS },
      { kind: 'text', text: 'Listed.' },
    );
    const first = await assign('In flight');
    // The first call of the run has reached the model, which has not answered yet.
    await eventually(
      () => Promise.resolve(chats().length),
      (n) => n === 1,
    );
    expect((await task(first)).status).toBe('in_progress');
    const edit = await scene
      .patch(agent, { model: { model_id: 'medium', temperature: 0.1, max_tokens: 500 } })
      .expect(200);
    expect(edit.body.data.model).toMatchObject({ provider: 'mock', model_id: 'mock-medium', temperature: 0.1 });
    expect(await task(first)).toMatchObject({ status: 'in_progress' });

    const done = await eventually(
      () => task(first),
      (x) => x.status === 'completed',
    );
    expect(done.assigned_to).toBe(agent);
    // Both calls of the run: the model, temperature and token cap it started with.
    const inFlight = chats();
    expect(inFlight).toHaveLength(2);
    expect(inFlight.map((c) => [c.model, c.temperature, c.max_tokens])).toEqual([
      ['mock-small', 0.5, 1000],
      ['mock-small', 0.5, 1000],
    ]);
    expect(await costModels(first)).toEqual(['mock/mock-small', 'mock/mock-small']);

    scene.mock.enqueue({ kind: 'text', text: 'Done on the new model.' });
    const second = await assign('After the edit');
    await eventually(
      () => task(second),
      (x) => x.status === 'completed',
    );
    const next = chats().slice(2);
    expect(next.map((c) => [c.model, c.temperature, c.max_tokens])).toEqual([['mock-medium', 0.1, 500]]);
    expect(await costModels(second)).toEqual(['mock/mock-medium']);
  });

  it("should record the edit in the agent's history while the run went on", async () => {
    const history = await scene.history(agent);
    const models = history.filter((e) => (e.metadata as Json).changed === 'model');
    expect(models).toHaveLength(2);
    expect(models[1].description).toContain('"model_id":"mock-medium"');
  });
});
