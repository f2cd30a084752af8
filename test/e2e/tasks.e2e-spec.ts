import { testBackends } from '@app/testing';
import {
  bearer,
  createCompany,
  expectError,
  seedProvider,
  setupCeo,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

import { ProviderRegistry } from '../../apps/api/src/modules/providers/provider-registry';
import { openClient, type WsTestClient, wsUrl } from '../integration/events/ws-test-client';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const API = '/api/v1/tasks';
const HIGH_LIMITS = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '10000',
};

describe.each(testBackends())('tasks API on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let observer: string;
  let project: string;
  let agent: string;

  beforeAll(async () => {
    // The runtime is off here so every state is set by hand; the run itself has its own suite.
    t = await startTestApp({ backend, listen: true, env: { ...HIGH_LIMITS, SYNTHORG_ENGINE_ENABLED: 'false' } });
    ceo = await setupCeo(t);
    observer = await userWithRole(t, ceo, 'observer');
  });

  afterAll(async () => {
    await t.close();
  });

  const body = (extra: Json = {}): Json => ({
    title: 'Write the README',
    description: 'Explain how to run the service.',
    type: 'development',
    project,
    created_by: 'ceo',
    ...extra,
  });

  async function create(extra: Json = {}): Promise<Json> {
    const res = await t.http.post(API).set(bearer(ceo)).send(body(extra)).expect(201);
    return res.body.data as Json;
  }

  it('should refuse task creation with 409 and code 4014 while no provider is configured', async () => {
    const res = await t.http
      .post(API)
      .set(bearer(ceo))
      .send(body({ project: 'anything' }))
      .expect(409);
    expectError(res.body, 4014, 'conflict');
  });

  describe('with a provider and a company', () => {
    beforeAll(async () => {
      await seedProvider(t);
      await t.app.get(ProviderRegistry).reload();
      await createCompany(t, ceo);
      // Letters outside ASCII, whose case SQL LOWER() does not fold on either backend.
      agent = 'Zoë Ångström';
      await t.http.put('/api/v1/setup/agents/0/name').set(bearer(ceo)).send({ name: agent }).expect(200);
      const res = await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Docs' }).expect(201);
      project = res.body.data.id as string;
    });

    it('should create a task in status created with the documented defaults', async () => {
      const task = await create();
      expect(task).toMatchObject({
        id: expect.stringMatching(/^task-[0-9a-f]{32}$/),
        status: 'created',
        version: 1,
        priority: 'medium',
        estimated_complexity: 'medium',
        budget_limit: 0,
        max_retries: 1,
        retry_count: 0,
        assigned_to: null,
        project,
        reviewers: [],
        dependencies: [],
        acceptance_criteria: [],
        coordination_topology: 'auto',
      });
    });

    it('should create and then assign a task created with assigned_to (version 2)', async () => {
      const task = await create({ assigned_to: agent });
      expect(task).toMatchObject({ status: 'assigned', assigned_to: agent, version: 2 });
    });

    it.each([
      ['a missing title', { title: undefined }],
      ['a title over 256 characters', { title: 'x'.repeat(257) }],
      ['a description over 4096 characters', { description: 'x'.repeat(4097) }],
      ['an unknown type', { type: 'party' }],
      ['a negative budget', { budget_limit: -1 }],
      ['an unknown field', { colour: 'blue' }],
      ['a blank title', { title: '   ' }],
      ['an unparseable deadline', { deadline: 'next tuesday' }],
    ])('should answer 400 (2001) for %s', async (_label, extra) => {
      const res = await t.http.post(API).set(bearer(ceo)).send(body(extra)).expect(400);
      expectError(res.body, 2001, 'validation');
    });

    it('should answer 404 for an unknown project (3003) or assignee (3013)', async () => {
      expectError(
        (
          await t.http
            .post(API)
            .set(bearer(ceo))
            .send(body({ project: 'nope' }))
            .expect(404)
        ).body,
        3003,
      );
      const res = await t.http
        .post(API)
        .set(bearer(ceo))
        .send(body({ assigned_to: 'nobody' }))
        .expect(404);
      expectError(res.body, 3013);
    });

    it('should answer 401 without a token and 403 for read-only roles on every write', async () => {
      await t.http.post(API).send(body()).expect(401);
      const board = await userWithRole(t, ceo, 'board_member');
      const pair = await userWithRole(t, ceo, 'pair_programmer');
      const task = await create();
      for (const token of [observer, board]) {
        expectError((await t.http.post(API).set(bearer(token)).send(body()).expect(403)).body, 1001, 'auth');
        await t.http.patch(`${API}/${task.id}`).set(bearer(token)).send({ title: 'x' }).expect(403);
        await t.http.post(`${API}/${task.id}/cancel`).set(bearer(token)).send({ reason: 'x' }).expect(403);
        await t.http
          .post(`${API}/${task.id}/transition`)
          .set(bearer(token))
          .send({ target_status: 'assigned', assigned_to: agent })
          .expect(403);
        await t.http.get(`${API}/${task.id}`).set(bearer(token)).expect(200);
      }
      await t.http.post(API).set(bearer(pair)).send(body()).expect(201);
    });

    it('should list created tasks by default and filter by status, assignee and project', async () => {
      const created = await create({ title: 'list me' });
      const assigned = await create({ title: 'assigned one', assigned_to: agent });
      const byDefault = (await t.http.get(API).set(bearer(ceo)).expect(200)).body;
      expect(byDefault.data.every((x: Json) => x.status === 'created')).toBe(true);
      expect(byDefault.data.map((x: Json) => x.id)).toContain(created.id);
      expect(byDefault.pagination).toMatchObject({ offset: 0, limit: 50 });
      const onlyAssigned = (await t.http.get(`${API}?status=assigned`).set(bearer(ceo)).expect(200)).body.data;
      expect(onlyAssigned.map((x: Json) => x.id)).toContain(assigned.id);
      const all = (await t.http.get(`${API}?status=`).set(bearer(ceo)).expect(200)).body.data as Json[];
      expect(new Set(all.map((x) => x.status))).toEqual(new Set(['created', 'assigned']));
      for (const ref of [agent.toUpperCase(), agent.toLowerCase(), agent]) {
        const mine = (
          await t.http
            .get(`${API}?status=&assigned_to=${encodeURIComponent(ref)}`)
            .set(bearer(ceo))
            .expect(200)
        ).body.data as Json[];
        expect(mine.map((x) => x.id)).toContain(assigned.id);
        expect(mine.every((x) => x.assigned_to === agent)).toBe(true);
      }
      const none = (await t.http.get(`${API}?status=&project=other`).set(bearer(ceo)).expect(200)).body;
      expect(none.data).toEqual([]);
      const paged = (await t.http.get(`${API}?status=&limit=1&offset=1`).set(bearer(ceo)).expect(200)).body;
      expect(paged.data).toHaveLength(1);
      expect(paged.pagination.total).toBe(all.length);
    });

    it.each([
      ['an unknown status', '?status=done'],
      ['assigned_to over 256 characters', `?assigned_to=${'a'.repeat(257)}`],
      ['project over 256 characters', `?project=${'p'.repeat(257)}`],
      ['a limit over 200', '?limit=201'],
    ])('should answer 400 on the list for %s', async (_label, query) => {
      const res = await t.http.get(`${API}${query}`).set(bearer(ceo)).expect(400);
      expectError(res.body, 2001, 'validation');
    });

    it('should get a task, and answer 404 (3004) for an unknown id and 400 for an id over 128 characters', async () => {
      const task = await create();
      expect((await t.http.get(`${API}/${task.id}`).set(bearer(observer)).expect(200)).body.data).toEqual(task);
      expectError((await t.http.get(`${API}/task-missing`).set(bearer(ceo)).expect(404)).body, 3004, 'not_found');
      await t.http
        .get(`${API}/${'x'.repeat(129)}`)
        .set(bearer(ceo))
        .expect(400);
    });

    it('should update with a persisted version and answer 409 (4003) on a stale expected_version', async () => {
      const task = await create();
      const patched = await t.http
        .patch(`${API}/${task.id}`)
        .set(bearer(ceo))
        .send({ title: 'Renamed', priority: 'high', expected_version: 1 })
        .expect(200);
      expect(patched.body.data).toMatchObject({ title: 'Renamed', priority: 'high', version: 2 });
      const stale = await t.http
        .patch(`${API}/${task.id}`)
        .set(bearer(ceo))
        .send({ title: 'Lost update', expected_version: 1 })
        .expect(409);
      expectError(stale.body, 4003, 'conflict');
      const stored = (await t.http.get(`${API}/${task.id}`).set(bearer(ceo))).body.data as Json;
      expect(stored).toMatchObject({ title: 'Renamed', version: 2 });
      await t.http.patch(`${API}/${task.id}`).set(bearer(ceo)).send({ status: 'completed' }).expect(400);
      await t.http.patch(`${API}/task-missing`).set(bearer(ceo)).send({ title: 'x' }).expect(404);
    });

    it('should read an expected_version of null as absent: no comparison, never a 409 against "null"', async () => {
      const task = await create();
      await t.http.patch(`${API}/${task.id}`).set(bearer(ceo)).send({ title: 'First' }).expect(200);
      const patched = await t.http
        .patch(`${API}/${task.id}`)
        .set(bearer(ceo))
        .send({ title: 'Second', expected_version: null })
        .expect(200);
      expect(patched.body.data).toMatchObject({ title: 'Second', version: 3 });
      const bad = await t.http
        .patch(`${API}/${task.id}`)
        .set(bearer(ceo))
        .send({ title: 'Third', expected_version: 'two' })
        .expect(400);
      expect(bad.body.error).toContain('expected_version');
    });

    it('should keep the assignment invariant: no assignee on a created task (409, 4017)', async () => {
      const task = await create();
      const res = await t.http.patch(`${API}/${task.id}`).set(bearer(ceo)).send({ assigned_to: agent }).expect(409);
      expectError(res.body, 4017);
      const bare = await t.http
        .post(`${API}/${task.id}/transition`)
        .set(bearer(ceo))
        .send({ target_status: 'assigned' })
        .expect(409);
      expectError(bare.body, 4017);
    });

    it('should read assigned_to null as unassigned and refuse null where nothing can be cleared (400, 2001)', async () => {
      const task = await create({ assigned_to: null });
      expect(task).toMatchObject({ status: 'created', assigned_to: null, version: 1 });
      const patch = (fields: Json) => t.http.patch(`${API}/${task.id}`).set(bearer(ceo)).send(fields);
      for (const field of ['title', 'description', 'priority', 'budget_limit']) {
        const res = await patch({ [field]: null }).expect(400);
        expectError(res.body, 2001, 'validation');
        expect(res.body.error).toContain(field);
      }
      expect((await patch({ assigned_to: null }).expect(200)).body.data).toMatchObject({ assigned_to: null });
      const move = (target: string, extra: Json = {}) =>
        t.http
          .post(`${API}/${task.id}/transition`)
          .set(bearer(ceo))
          .send({ target_status: target, ...extra });
      await move('assigned', { assigned_to: agent }).expect(201);
      // An assigned task needs its assignee: unassigning it breaks the invariant.
      expectError((await patch({ assigned_to: null }).expect(409)).body, 4017);
      await move('blocked').expect(201);
      const cleared = await patch({ assigned_to: null }).expect(200);
      expect(cleared.body.data).toMatchObject({ status: 'blocked', assigned_to: null, title: task.title });
      expectError((await move('assigned', { assigned_to: null }).expect(409)).body, 4017);
      expect((await move('assigned', { assigned_to: agent }).expect(201)).body.data.assigned_to).toBe(agent);
    });

    it('should walk the state machine and refuse illegal moves (4015) and moves out of terminal states (4016)', async () => {
      const task = await create();
      const move = (target: string, extra: Json = {}) =>
        t.http
          .post(`${API}/${task.id}/transition`)
          .set(bearer(ceo))
          .send({ target_status: target, ...extra });
      expectError((await move('in_progress').expect(409)).body, 4015, 'conflict');
      expect((await move('assigned', { assigned_to: agent }).expect(201)).body.data).toMatchObject({
        status: 'assigned',
        assigned_to: agent,
        version: 2,
      });
      expectError((await move('in_review', { expected_version: 2 }).expect(409)).body, 4015);
      expectError((await move('in_progress', { expected_version: 1 }).expect(409)).body, 4003);
      for (const target of ['in_progress', 'in_review', 'in_progress', 'in_review', 'completed']) {
        expect((await move(target).expect(201)).body.data.status).toBe(target);
      }
      expectError((await move('assigned').expect(409)).body, 4016);
      const cancel = await t.http
        .post(`${API}/${task.id}/cancel`)
        .set(bearer(ceo))
        .send({ reason: 'late' })
        .expect(409);
      expectError(cancel.body, 4016);
      await move('nonsense').expect(400);
    });

    it('should cancel with a reason, refuse a second cancel (4016) and a blank reason (400)', async () => {
      const fresh = await create();
      const early = await t.http.post(`${API}/${fresh.id}/cancel`).set(bearer(ceo)).send({ reason: 'no' }).expect(409);
      expectError(early.body, 4015); // created has one exit (assigned); an unassigned task is deleted instead
      const task = await create({ assigned_to: agent });
      await t.http.post(`${API}/${task.id}/cancel`).set(bearer(ceo)).send({ reason: ' ' }).expect(400);
      await t.http.post(`${API}/${task.id}/cancel`).set(bearer(ceo)).send({}).expect(400);
      const res = await t.http.post(`${API}/${task.id}/cancel`).set(bearer(ceo)).send({ reason: 'not needed' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ status: 'cancelled', status_reason: 'not needed', version: 3 });
      const again = await t.http.post(`${API}/${task.id}/cancel`).set(bearer(ceo)).send({ reason: 'again' });
      expect(again.status).toBe(409);
      expectError(again.body, 4016);
      await t.http.post(`${API}/task-missing/cancel`).set(bearer(ceo)).send({ reason: 'x' }).expect(404);
    });

    it('should delete a task (204), then answer 404, and refuse observers (403)', async () => {
      const task = await create();
      await t.http.delete(`${API}/${task.id}`).set(bearer(observer)).expect(403);
      await t.http.delete(`${API}/${task.id}`).set(bearer(ceo)).expect(204);
      await t.http.get(`${API}/${task.id}`).set(bearer(ceo)).expect(404);
      await t.http.delete(`${API}/${task.id}`).set(bearer(ceo)).expect(404);
    });

    it('should publish every persisted transition on the tasks channel over the WebSocket', async () => {
      const ticket = (await t.http.post('/api/v1/auth/ws-ticket').set(bearer(ceo)).expect(201)).body.data.ticket;
      const client: WsTestClient = await openClient(wsUrl(t.url ?? '', ticket as string));
      try {
        await client.request({ action: 'subscribe', channels: ['tasks'] });
        const task = await create();
        await t.http
          .post(`${API}/${task.id}/transition`)
          .set(bearer(ceo))
          .send({ target_status: 'assigned', assigned_to: agent })
          .expect(201);
        await t.http.post(`${API}/${task.id}/cancel`).set(bearer(ceo)).send({ reason: 'done with it' }).expect(201);
        const seen: Json[] = [];
        while (seen.length < 3) {
          const event = (await client.next()) as Json;
          if (event.payload?.task_id === task.id) {
            seen.push(event);
          }
        }
        expect(seen.map((e) => [e.event_type, e.payload.previous_status, e.payload.status])).toEqual([
          ['task.created', null, 'created'],
          ['task.status_changed', 'created', 'assigned'],
          ['task.status_changed', 'assigned', 'cancelled'],
        ]);
        expect(seen[2].payload.task).toMatchObject({ id: task.id, status: 'cancelled', version: 3 });
      } finally {
        await client.close();
      }
    });
  });
});
