import { IsNull } from 'typeorm';

import { CostRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { createTestDatabase, eventually, testBackends } from '@app/testing';

import { AgentRoster } from '../../apps/api/src/modules/agents';
import {
  MemoryConsolidation,
  MemoryReembedding,
  MemoryService,
  OrgFactProposals,
} from '../../apps/api/src/modules/memory';

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

const ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
};
const EMBEDDER_ENV = {
  ...ENV,
  SYNTHORG_MEMORY_EMBEDDER_PROVIDER: 'mock',
  SYNTHORG_MEMORY_EMBEDDER_MODEL: 'mock-embed',
};

const FACT = 'The staging database rotation runs every Tuesday at 04:00 UTC through the rotate-db job.';

jest.setTimeout(90_000);

/** Agent memory end to end with the fake provider: chat and embeddings on its OpenAI-compatible endpoints. */
describe.each(testBackends())('agent memory on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let projects: { main: string; other: string };
  let agents: { id: string; name: string }[];

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: EMBEDDER_ENV });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock, { alias: 'small' });
    await createCompany(t, ceo);
    const listed = (await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[];
    agents = listed.slice(0, 3).map((a) => ({ id: a.id as string, name: a.name as string }));
    const project = async (name: string) =>
      (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name }).expect(201)).body.data.id as string;
    projects = { main: await project('Platform'), other: await project('Marketing') };
    await setMemoryType(agents[0].name, 'persistent');
    await setMemoryType(agents[1].name, 'persistent');
    await setMemoryType(agents[2].name, 'project');
  });

  afterEach(() => mock.reset());

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  async function setMemoryType(name: string, type: string): Promise<void> {
    await t.http
      .patch(`/api/v1/agents/${encodeURIComponent(name)}`)
      .set(bearer(ceo))
      .send({ memory: { type } })
      .expect(200);
  }

  /** Runs a task to completion with one scripted answer; answers the chat requests it made. */
  async function runTask(agent: string, title: string, description: string, answer: string, project = projects.main) {
    const before = mock.requests.length;
    mock.enqueue({ kind: 'text', text: answer });
    const created = (
      await t.http
        .post('/api/v1/tasks')
        .set(bearer(ceo))
        .send({ title, description, type: 'research', project, created_by: 'ceo', assigned_to: agent })
        .expect(201)
    ).body.data as Json;
    await eventually(
      async () => (await t.http.get(`/api/v1/tasks/${created.id}`).set(bearer(ceo)).expect(200)).body.data as Json,
      (task) => task.status === 'completed',
    );
    const chats = mock.requests.slice(before).filter((r) => r.path.endsWith('/chat/completions'));
    return { id: created.id as string, first: chats[0].body as Json };
  }

  const memories = async (name: string): Promise<Json[]> =>
    (
      await t.http
        .get(`/api/v1/agents/${encodeURIComponent(name)}/memories`)
        .set(bearer(ceo))
        .expect(200)
    ).body.data as Json[];

  /** Waits for the episodic entry of a finished task (written after the outcome, off the run's path). */
  const episodeOf = (name: string, taskId: string) =>
    eventually(
      () => memories(name),
      (rows) => rows.some((m) => m.task_id === taskId),
    );

  const memoryMessages = (request: Json): string[] =>
    (request.messages as Json[])
      .slice(1, -1)
      .filter((m) => m.role === 'system')
      .map((m) => m.content as string);

  it('should report the wired backend in GET /memory/status', async () => {
    const status = (await t.http.get('/api/v1/memory/status').set(bearer(ceo)).expect(200)).body.data as Json;
    expect(status).toMatchObject({
      wired: true,
      reason: null,
      backend: 'embedded',
      embedder_provider: 'mock',
      embedder_model: 'mock-embed',
    });
  });

  it("should inject task A's fact into related task B between the system prompt and the instruction, not into an unrelated task", async () => {
    const [ada] = agents;
    const a = await runTask(
      ada.name,
      'Find when the staging database rotation runs',
      'Look up the schedule of the staging database rotation.',
      FACT,
    );
    const [episode] = (await episodeOf(ada.name, a.id)).filter((m) => m.task_id === a.id);
    expect(episode).toMatchObject({ category: 'episodic', level: 'persistent', project: projects.main });
    expect(episode.content).toContain('rotate-db');

    const b = await runTask(
      ada.name,
      'Plan maintenance around the staging database rotation',
      'Pick a maintenance window that avoids the staging database rotation.',
      'Wednesday at 10:00 UTC.',
    );
    const messages = b.first.messages as Json[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(messages[1].content).toContain('rotate-db');
    expect(messages[2].content).toContain('Plan maintenance around the staging database rotation');

    const c = await runTask(
      ada.name,
      'Draft the quarterly newsletter',
      'Write a cheerful customer newsletter about spring offers.',
      'Draft written.',
    );
    expect(memoryMessages(c.first).join('\n')).not.toContain('rotate-db');

    // The embedding calls went to the fake's embeddings endpoint, with cost records in call category embedding.
    expect(mock.requests.some((r) => r.path === '/v1/embeddings')).toBe(true);
    const costs = await t.app
      .get(DatabaseService)
      .dataSource.getRepository(CostRecordEntity)
      .findBy({ taskId: b.id, callCategory: 'embedding' });
    expect(costs.length).toBeGreaterThan(0);
  });

  it('should search by relevance, best first, and delete an entry', async () => {
    const [ada] = agents;
    const hits = (
      await t.http
        .post(`/api/v1/agents/${encodeURIComponent(ada.name)}/memories/search`)
        .set(bearer(ceo))
        .send({ query: 'staging database rotation schedule', limit: 5 })
        .expect(200)
    ).body.data as Json[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0].content).toContain('rotate-db');
    const scores = hits.map((h) => h.relevance_score as number);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);

    const newsletter = (await memories(ada.name)).find((m) => (m.content as string).includes('newsletter')) as Json;
    await t.http
      .delete(`/api/v1/agents/${encodeURIComponent(ada.name)}/memories/${newsletter.id}`)
      .set(bearer(ceo))
      .expect(204);
    expect((await memories(ada.name)).some((m) => m.id === newsletter.id)).toBe(false);
    const gone = await t.http
      .delete(`/api/v1/agents/${encodeURIComponent(ada.name)}/memories/${newsletter.id}`)
      .set(bearer(ceo))
      .expect(404);
    expect(gone.body.error_detail.error_code).toBe(3050);
  });

  it('should merge organisation facts into the injected memory, and list and delete them', async () => {
    const [ada] = agents;
    const fact = (
      await t.http
        .post('/api/v1/memory/org')
        .set(bearer(ceo))
        .send({ category: 'convention', content: 'Staging database maintenance is booked in the change calendar.' })
        .expect(201)
    ).body.data as Json;
    expect(fact).toMatchObject({ category: 'convention', department: null, author: 'ceo' });
    const listed = (await t.http.get('/api/v1/memory/org').set(bearer(ceo)).expect(200)).body.data as Json[];
    expect(listed.map((f) => f.id)).toContain(fact.id);

    const run = await runTask(
      ada.name,
      'Book staging database maintenance',
      'Find a slot for the staging database maintenance.',
      'Booked.',
    );
    expect(memoryMessages(run.first).join('\n')).toContain('[organisation convention] Staging database maintenance');

    await t.http.delete(`/api/v1/memory/org/${fact.id}`).set(bearer(ceo)).expect(204);
    const gone = await t.http.delete(`/api/v1/memory/org/${fact.id}`).set(bearer(ceo)).expect(404);
    expect(gone.body.error_detail.error_code).toBe(3051);
  });

  it('should inject nothing for an agent whose memory type is none', async () => {
    const [, bob] = agents;
    const a = await runTask(bob.name, 'Find when the staging database rotation runs', 'Look it up.', FACT);
    await episodeOf(bob.name, a.id);
    await setMemoryType(bob.name, 'none');
    const b = await runTask(
      bob.name,
      'Plan maintenance around the staging database rotation',
      'Avoid the staging database rotation.',
      'Done.',
    );
    expect((b.first.messages as Json[]).map((m) => m.role)).toEqual(['system', 'user']);
    expect((await memories(bob.name)).some((m) => m.task_id === b.id)).toBe(false);
  });

  it('should keep project-level memory inside its project', async () => {
    const [, , cleo] = agents;
    const a = await runTask(cleo.name, 'Find when the staging database rotation runs', 'Look it up.', FACT);
    const [episode] = (await episodeOf(cleo.name, a.id)).filter((m) => m.task_id === a.id);
    expect(episode.level).toBe('project');
    const elsewhere = await runTask(
      cleo.name,
      'Plan maintenance around the staging database rotation',
      'Avoid the staging database rotation.',
      'Done.',
      projects.other,
    );
    expect(memoryMessages(elsewhere.first).join('\n')).not.toContain('rotate-db');
    const inside = await runTask(
      cleo.name,
      'Plan maintenance around the staging database rotation',
      'Avoid the staging database rotation.',
      'Done.',
    );
    expect(memoryMessages(inside.first).join('\n')).toContain('rotate-db');
  });

  it('should store what the remember tool gives, then archive it read-only and promote it when the agent is fired', async () => {
    const [, , cleo] = agents;
    const procedure = 'Deploys to staging go through the deploy-staging pipeline, never by hand.';
    mock.enqueue({
      kind: 'tool_calls',
      calls: [{ name: 'remember', arguments: { category: 'procedural', content: procedure } }],
    });
    const run = await runTask(cleo.name, 'Learn how staging deploys work', 'Find out and remember it.', 'Noted.');
    expect((run.first.tools as Json[]).map((x) => x.function.name)).toEqual(
      expect.arrayContaining(['remember', 'recall']),
    );
    const stored = await eventually(
      () => memories(cleo.name),
      (rows) => rows.some((m) => m.category === 'procedural'),
    );
    expect(stored.find((m) => m.category === 'procedural')).toMatchObject({ content: procedure, level: 'project' });

    await t.http
      .post(`/api/v1/agents/${encodeURIComponent(cleo.name)}/fire`)
      .set(bearer(ceo))
      .send({ reason: 'performance' })
      .expect((res) => expect([200, 201, 202]).toContain(res.status));
    const record = await eventually(
      async () =>
        (
          await t.http
            .get(`/api/v1/agents/${encodeURIComponent(cleo.name)}/offboarding`)
            .set(bearer(ceo))
            .expect(200)
        ).body.data as Json,
      (r) => r.completed_at !== null,
    );
    expect(record.memory_archive_id).toEqual(expect.any(String));
    expect(record.org_memories_promoted).toBe(1);
    const facts = (await t.http.get('/api/v1/memory/org').set(bearer(ceo)).expect(200)).body.data as Json[];
    expect(facts.find((f) => f.content === procedure)).toMatchObject({
      category: 'procedure',
      author: `agent:${cleo.name}`,
    });
    const archived = await memories(cleo.name);
    expect(archived.every((m) => m.archive_id === record.memory_archive_id)).toBe(true);
    const refused = await t.http
      .delete(`/api/v1/agents/${encodeURIComponent(cleo.name)}/memories/${archived[0].id}`)
      .set(bearer(ceo))
      .expect(409);
    expect(refused.body.error_detail.error_code).toBe(4040);
  });

  it('should find the entries again after backup, wipe and a restore of the memory component alone', async () => {
    const [ada] = agents;
    const search = async (): Promise<Json[]> =>
      (
        await t.http
          .post(`/api/v1/agents/${encodeURIComponent(ada.name)}/memories/search`)
          .set(bearer(ceo))
          .send({ query: 'staging database rotation rotate-db', limit: 5 })
          .expect(200)
      ).body.data as Json[];
    const facts = async () => (await t.http.get('/api/v1/memory/org').set(bearer(ceo)).expect(200)).body.data as Json[];
    expect((await search()).some((h) => (h.content as string).includes('rotate-db'))).toBe(true);
    const factsBefore = (await facts()).map((f) => f.id).sort();
    expect(factsBefore.length).toBeGreaterThan(0);
    const entriesBefore = (await memories(ada.name)).map((m) => m.id).sort();
    const manifest = (await t.http.post('/api/v1/admin/backups').set(bearer(ceo)).expect(201)).body.data as Json;
    expect(manifest.components).toEqual(expect.arrayContaining(['persistence', 'memory']));

    // Wipe every entry and fact of the agent, and change something outside memory.
    for (const entry of await memories(ada.name)) {
      await t.http
        .delete(`/api/v1/agents/${encodeURIComponent(ada.name)}/memories/${entry.id}`)
        .set(bearer(ceo))
        .expect(204);
    }
    for (const fact of await facts()) {
      await t.http.delete(`/api/v1/memory/org/${fact.id}`).set(bearer(ceo)).expect(204);
    }
    expect(await search()).toEqual([]);
    const later = (
      await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'After the backup' }).expect(201)
    ).body.data.id as string;

    const restored = (
      await t.http
        .post('/api/v1/admin/backups/restore')
        .set(bearer(ceo))
        .send({ backup_id: manifest.backup_id, components: ['memory'], confirm: true })
        .expect(200)
    ).body.data as Json;
    expect(restored.restored_components).toEqual(['memory']);
    // Memory is back, in the table and in the index; the rest of the database was left alone.
    expect((await memories(ada.name)).map((m) => m.id).sort()).toEqual(entriesBefore);
    expect((await facts()).map((f) => f.id).sort()).toEqual(factsBefore);
    const hits = await eventually(search, (rows) => rows.length > 0);
    expect(hits[0].content).toContain('rotate-db');
    await t.http.get(`/api/v1/projects/${later}`).set(bearer(ceo)).expect(200);
  });

  it('should file an approval item for a proposed organisation fact and store the fact once a person approves it', async () => {
    const [ada] = agents;
    const propose = async (content: string) => {
      mock.enqueue({
        kind: 'tool_calls',
        calls: [
          {
            name: 'propose_org_fact',
            arguments: { category: 'convention', content, reason: 'Everyone ships releases.' },
          },
        ],
      });
      const run = await runTask(ada.name, 'Share how releases are tagged', 'Propose it to the organisation.', 'Done.');
      expect((run.first.tools as Json[]).map((x) => x.function.name)).toContain('propose_org_fact');
      const items = (await t.http.get('/api/v1/approvals?action_type=memory:org_fact').set(bearer(ceo)).expect(200))
        .body.data as Json[];
      const item = items.find((i) => i.description === content) as Json;
      expect(item).toMatchObject({ status: 'pending', metadata: { category: 'convention', agent_name: ada.name } });
      return item;
    };
    const facts = async () => (await t.http.get('/api/v1/memory/org').set(bearer(ceo)).expect(200)).body.data as Json[];

    const accepted = 'Release tags follow vYYYY.MM.N and are cut from main only.';
    const item = await propose(accepted);
    expect((await facts()).some((f) => f.id === item.id)).toBe(false);
    await t.http.post(`/api/v1/approvals/${item.id}/approve`).set(bearer(ceo)).send({ comment: 'yes' }).expect(200);
    const stored = await eventually(facts, (rows) => rows.some((f) => f.id === item.id));
    expect(stored.find((f) => f.id === item.id)).toMatchObject({
      category: 'convention',
      content: accepted,
      author: `agent:${ada.name}`,
    });

    const refused = await propose('Release tags are cut from any branch.');
    await t.http.post(`/api/v1/approvals/${refused.id}/reject`).set(bearer(ceo)).send({ reason: 'no' }).expect(200);
    await t.app.get(OrgFactProposals).idle();
    expect((await facts()).some((f) => f.id === refused.id)).toBe(false);
  });

  it('should consolidate: duplicates merged, category retention applied, the least useful dropped beyond the maximum', async () => {
    const bo = agents[1];
    await setMemoryType(bo.name, 'persistent');
    const entity = await t.app.get(AgentRoster).findByRef(bo.id);
    const agent = entity as NonNullable<typeof entity>;
    const service = t.app.get(MemoryService);
    const store = (
      category: 'semantic' | 'working' | 'episodic',
      content: string,
      metadata: Record<string, string> = {},
    ) => service.store(agent, { category, content, metadata }, null);
    // Near-duplicates (cosine about 0.91 with the fake's bag of words): the older one says one thing more.
    await t.http
      .put('/api/v1/settings/memory/duplicate_threshold')
      .set(bearer(ceo))
      .send({ value: '0.85' })
      .expect(200);
    const policy = await store('semantic', 'Release notes are written in docs/changes.md before every tag. Ask Dana.', {
      source: 'review',
    });
    const twin = await store('semantic', 'Release notes are written in docs/changes.md before every tag.');
    const scratch = await store('working', 'Scratch: tried the nightly build flag, it did nothing.');
    await store('episodic', 'Task "Tidy the backlog" completed. Result: closed nine stale items.');

    const bad = await t.http
      .put('/api/v1/settings/memory/category_retention_days')
      .set(bearer(ceo))
      .send({ value: '{"dreams": 3}' })
      .expect(400);
    expect(bad.body.error_detail.error_code).toBe(2945);
    await t.http
      .put('/api/v1/settings/memory/category_retention_days')
      .set(bearer(ceo))
      .send({ value: '{"working": 1}' })
      .expect(200);

    const consolidation = t.app.get(MemoryConsolidation);
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000);
    const first = await consolidation.run(inTwoDays);
    expect(first).toMatchObject({ duplicate: expect.any(Number), retention: expect.any(Number) });
    let left = (await memories(bo.name)).filter((m) => m.archive_id === null);
    const ids = left.map((m) => m.id as string);
    expect(ids).toContain(twin?.id);
    expect(ids).not.toContain(policy?.id);
    expect(ids).not.toContain(scratch?.id);
    // Merged, not only removed: the newest kept, with what only the older one had, and the merge recorded.
    const merged = left.find((m) => m.id === twin?.id) as Json;
    expect(merged.content).toBe('Release notes are written in docs/changes.md before every tag. Ask Dana.');
    expect(merged.metadata).toMatchObject({ source: 'review', merged_from: policy?.id, merged_count: 1 });
    expect(merged.updated_at).toEqual(expect.any(String));
    expect(first?.merged).toBeGreaterThanOrEqual(1);

    await t.http
      .put('/api/v1/settings/memory/max_memories_per_agent')
      .set(bearer(ceo))
      .send({ value: '1' })
      .expect(200);
    const second = await consolidation.run(inTwoDays);
    expect(second?.overflow).toBeGreaterThanOrEqual(left.length - 1);
    left = (await memories(bo.name)).filter((m) => m.archive_id === null);
    expect(left.map((m) => m.id)).toEqual([twin?.id]);
    const found = (
      await t.http
        .post(`/api/v1/agents/${encodeURIComponent(bo.name)}/memories/search`)
        .set(bearer(ceo))
        .send({ query: 'where are release notes written', limit: 20 })
        .expect(200)
    ).body.data as Json[];
    expect(found.map((h) => h.id)).toEqual([twin?.id]);
  });
  it('should re-embed stored entries and facts in the background when the embedder changes, retrieval on the old vectors until done', async () => {
    const [ada] = agents;
    const status = async () =>
      (await t.http.get('/api/v1/memory/status').set(bearer(ceo)).expect(200)).body.data as Json;
    const search = async (): Promise<Json[]> =>
      (
        await t.http
          .post(`/api/v1/agents/${encodeURIComponent(ada.name)}/memories/search`)
          .set(bearer(ceo))
          .send({ query: 'staging database rotation rotate-db', limit: 5 })
          .expect(200)
      ).body.data as Json[];
    const lastEmbedding = () => mock.requests.filter((r) => r.path === '/v1/embeddings').at(-1)?.body as Json;
    const embeddingCosts = () =>
      t.app
        .get(DatabaseService)
        .dataSource.getRepository(CostRecordEntity)
        .countBy({ callCategory: 'embedding', taskId: IsNull() });
    // Consolidation left one entry per agent: a fresh one to find.
    const entity = await t.app.get(AgentRoster).findByRef(ada.id);
    await t.app
      .get(MemoryService)
      .store(entity as NonNullable<typeof entity>, { category: 'semantic', content: FACT }, null);
    expect((await search()).some((h) => (h.content as string).includes('rotate-db'))).toBe(true);
    expect((await status()).reembedding).toEqual({
      state: 'idle',
      done: 0,
      total: 0,
      retrieval_embedder: 'mock/mock-embed/native',
      target_embedder: null,
    });
    const costsBefore = await embeddingCosts();

    // The first batch goes through, the second is refused: the work stops part-way.
    mock.enqueue(
      { route: 'embeddings', kind: 'text', text: '' },
      { route: 'embeddings', kind: 'error', status: 400, message: 'refused for the test' },
    );
    await t.http.put('/api/v1/settings/memory/embedder_dims').set(bearer(ceo)).send({ value: '32' }).expect(200);
    const paused = await eventually(status, (s) => s.reembedding.state === 'running' && s.reembedding.done > 0);
    await t.app.get(MemoryReembedding).idle();
    const progress = (await status()).reembedding as Json;
    expect(progress).toMatchObject({
      state: 'running',
      retrieval_embedder: 'mock/mock-embed/native',
      target_embedder: 'mock/mock-embed/32',
    });
    expect(progress.done).toBeLessThan(progress.total);
    expect(paused.reembedding.total).toBe(progress.total);

    // Meanwhile retrieval goes on with the old vectors, the query embedded by the old embedder.
    const during = await search();
    expect(during.some((h) => (h.content as string).includes('rotate-db'))).toBe(true);
    expect(lastEmbedding()).not.toHaveProperty('dimensions');

    // The next round (a timer, another replica or a restart) resumes where it stopped, and switches.
    await t.app.get(MemoryReembedding).check();
    const done = (await status()).reembedding as Json;
    expect(done).toMatchObject({ state: 'idle', retrieval_embedder: 'mock/mock-embed/32', target_embedder: null });
    expect(done.done).toBe(done.total);
    expect(done.total).toBe(progress.total);
    const after = await search();
    expect(after.some((h) => (h.content as string).includes('rotate-db'))).toBe(true);
    expect(lastEmbedding()).toMatchObject({ dimensions: 32 });
    // The re-embedding's calls were charged to the entries' agents, outside any task.
    expect(await embeddingCosts()).toBeGreaterThan(costsBefore);
    const rows = await t.app
      .get(DatabaseService)
      .dataSource.query<{ embedder: string }[]>('SELECT DISTINCT embedder FROM memory_entries');
    expect(rows.map((r) => r.embedder)).toEqual(['mock/mock-embed/32']);
  });
});

describe.each(testBackends())('agent memory without an embedder on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: ENV });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock, { alias: 'small' });
    await createCompany(t, ceo);
  });

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('should start with one ERROR, say why in the status, run tasks, and refuse searches with 503', async () => {
    await t.logging.flush();
    const errors = t.consoleLines().filter((l) => l.includes('memory.backend.unwired'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/ERROR/);

    const status = (await t.http.get('/api/v1/memory/status').set(bearer(ceo)).expect(200)).body.data as Json;
    expect(status).toMatchObject({ wired: false, code: 8040, entries: 0 });
    expect(status.reason).toContain('no embedding model configured');

    const agent = ((await t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[])[0];
    const project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'P' }).expect(201)).body.data
      .id as string;
    mock.enqueue({ kind: 'text', text: 'Done.' });
    const task = (
      await t.http
        .post('/api/v1/tasks')
        .set(bearer(ceo))
        .send({
          title: 'Any task',
          description: 'Do it.',
          type: 'research',
          project,
          created_by: 'ceo',
          assigned_to: agent.name,
        })
        .expect(201)
    ).body.data as Json;
    await eventually(
      async () => (await t.http.get(`/api/v1/tasks/${task.id}`).set(bearer(ceo)).expect(200)).body.data as Json,
      (x) => x.status === 'completed',
    );
    const first = mock.requests.find((r) => r.path.endsWith('/chat/completions'))?.body as Json;
    expect((first.messages as Json[]).map((m) => m.role)).toEqual(['system', 'user']);
    expect(mock.requests.some((r) => r.path.endsWith('/embeddings'))).toBe(false);

    const refused = await t.http
      .post(`/api/v1/agents/${encodeURIComponent(agent.name as string)}/memories/search`)
      .set(bearer(ceo))
      .send({ query: 'anything' })
      .expect(503);
    expect(refused.body.error_detail.error_code).toBe(8040);
  });
});

const postgresOnly = testBackends().includes('postgres') ? describe : describe.skip;

postgresOnly('agent memory with two replicas on one Postgres', () => {
  it('should find on one replica an entry written on the other', async () => {
    const mock = await startMockLlm();
    const db = await createTestDatabase('postgres');
    const a = await startTestApp({ backend: 'postgres', database: db, env: EMBEDDER_ENV });
    const b = await startTestApp({ backend: 'postgres', database: db, env: EMBEDDER_ENV });
    try {
      const ceo = await setupCeo(a);
      await addMockProvider(a, ceo, mock, { alias: 'small' });
      await createCompany(a, ceo);
      const agent = ((await a.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[])[0];
      const search = () =>
        b.http
          .post(`/api/v1/agents/${encodeURIComponent(agent.name as string)}/memories/search`)
          .set(bearer(ceo))
          .send({ query: 'staging database rotation' });
      // B serves searches once the provider A registered reaches it.
      await eventually(search, (res) => res.status === 200);
      await a.http
        .patch(`/api/v1/agents/${encodeURIComponent(agent.name as string)}`)
        .set(bearer(ceo))
        .send({ memory: { type: 'persistent' } })
        .expect(200);
      const entity = await a.app.get(AgentRoster).findByRef(agent.id as string);
      const stored = await a.app
        .get(MemoryService)
        .store(entity as NonNullable<typeof entity>, { category: 'semantic', content: FACT }, null);
      const hits = await eventually(
        async () => (await search().expect(200)).body.data as Json[],
        (rows) => rows.length > 0,
      );
      expect(hits[0]).toMatchObject({ id: stored?.id, content: FACT });
    } finally {
      await a.close();
      await b.close();
      await db.drop();
      await mock.close();
    }
  });
});
