import type { Response } from 'supertest';

import { createTestDatabase, testBackends } from '@app/testing';

import {
  bearer,
  createCompany,
  expectError,
  seedProvider,
  setupCeo,
  startTestApp,
  type TestApp,
  TEST_PASSWORD,
} from '../support';

import { ProviderRegistry } from '../../apps/api/src/modules/providers/provider-registry';
import { TasksService } from '../../apps/api/src/modules/tasks/tasks.service';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// Two whole app instances on one Postgres database take a few seconds to start on a busy machine.
jest.setTimeout(60_000);

const TASKS = '/api/v1/tasks';
const HIGH_LIMITS = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  SYNTHORG_ENGINE_ENABLED: 'false',
};

/** A provider, a company and a project: what task creation needs. Returns the project id. */
async function prepareTasks(t: TestApp, ceo: string): Promise<string> {
  await seedProvider(t);
  await t.app.get(ProviderRegistry).reload();
  await createCompany(t, ceo);
  const res = await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Docs' }).expect(201);
  return res.body.data.id as string;
}

function taskBody(project: string, extra: Json = {}): Json {
  return {
    title: 'Write the README',
    description: 'Explain it.',
    type: 'development',
    project,
    created_by: 'ceo',
    ...extra,
  };
}

async function countTasks(t: TestApp, ceo: string): Promise<number> {
  const res = await t.http.get(`${TASKS}?limit=200`).set(bearer(ceo)).expect(200);
  return res.body.pagination.total as number;
}

describe.each(testBackends())('Idempotency-Key on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let project: string;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    ceo = await setupCeo(t);
    project = await prepareTasks(t, ceo);
  });

  afterAll(async () => {
    await t.close();
  });

  const post = (key: string, body: Json): Promise<Response> =>
    t.http.post(TASKS).set(bearer(ceo)).set('Idempotency-Key', key).send(body);

  it('should create one task for three identical requests and replay the first answer', async () => {
    const before = await countTasks(t, ceo);
    const body = taskBody(project, { title: 'Replayed' });
    const first = await post('create-once', body);
    const second = await post('create-once', body);
    const third = await post('create-once', { ...body });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    for (const retry of [second, third]) {
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
    }
    expect(first.body).toMatchObject({ success: true, data: { title: 'Replayed' } });
    expect(await countTasks(t, ceo)).toBe(before + 1);
  });

  it('should treat the same payload in another key order as the same request', async () => {
    const first = await post('key-order', { title: 'Order', ...taskBody(project, { title: 'Order' }) });
    const reordered = Object.fromEntries(Object.entries(taskBody(project, { title: 'Order' })).reverse());
    const retry = await post('key-order', reordered);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.id).toBe(first.body.data.id);
  });

  it('should answer 422 with code 2026 when the key is reused with another body', async () => {
    await post('mismatch', taskBody(project, { title: 'First' })).then((r) => expect(r.status).toBe(201));
    const res = await post('mismatch', taskBody(project, { title: 'Second' }));
    expect(res.status).toBe(422);
    expectError(res.body, 2026, 'validation');
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('should answer 400 with code 2025 for a key longer than 255 characters', async () => {
    const res = await post('k'.repeat(256), taskBody(project));
    expect(res.status).toBe(400);
    expectError(res.body, 2025, 'validation');
    expect((await post('k'.repeat(255), taskBody(project, { title: 'Longest key' }))).status).toBe(201);
  });

  it('should answer 409 with code 4022 while the first request with the key is still running', async () => {
    const service = t.app.get(TasksService);
    const original = service.create.bind(service);
    let entered!: () => void;
    let release!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const spy = jest.spyOn(service, 'create').mockImplementation(async (...args) => {
      entered();
      await gate;
      return original(...args);
    });
    try {
      const body = taskBody(project, { title: 'Slow' });
      const first = post('in-flight', body);
      const firstDone = first.then((r) => r);
      await started;
      const concurrent = await post('in-flight', body);
      expect(concurrent.status).toBe(409);
      expectError(concurrent.body, 4022, 'conflict');
      expect(concurrent.body.error_detail.retryable).toBe(true);
      expect(concurrent.headers['retry-after']).toBe('1');
      release();
      expect((await firstDone).status).toBe(201);
      expect(spy).toHaveBeenCalledTimes(1);
      const replay = await post('in-flight', body);
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('should bind the key to the resource id, so one key applies to two tasks', async () => {
    const a = (await post('make-a', taskBody(project, { title: 'A' }))).body.data.id as string;
    const b = (await post('make-b', taskBody(project, { title: 'B' }))).body.data.id as string;
    const patch = (id: string): Promise<Response> =>
      t.http.patch(`${TASKS}/${id}`).set(bearer(ceo)).set('Idempotency-Key', 'rename').send({ title: 'Renamed' });
    const [resA, resB] = [await patch(a), await patch(b)];
    for (const [res, id] of [
      [resA, a],
      [resB, b],
    ] as const) {
      expect(res.status).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(res.body.data).toMatchObject({ id, title: 'Renamed' });
    }
    const again = await patch(a);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(resA.body);
  });

  it('should replay a stored 4xx answer, and a 204 without a body', async () => {
    const missing = (): Promise<Response> =>
      t.http.patch(`${TASKS}/no-such-task`).set(bearer(ceo)).set('Idempotency-Key', 'missing').send({ title: 'x' });
    const first = await missing();
    expect(first.status).toBe(404);
    const retry = await missing();
    expect(retry.status).toBe(404);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expectError(retry.body, first.body.error_detail.error_code as number, 'not_found');

    const id = (await post('to-delete', taskBody(project, { title: 'Doomed' }))).body.data.id as string;
    const remove = (): Promise<Response> =>
      t.http.delete(`${TASKS}/${id}`).set(bearer(ceo)).set('Idempotency-Key', 'rm');
    const deleted = await remove();
    expect(deleted.status).toBe(204);
    const again = await remove();
    expect(again.status).toBe(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe('');
  });

  it('should release the key after a validation failure, so the corrected request runs', async () => {
    const invalid = await post('fix-me', taskBody(project, { title: '' }));
    expect(invalid.status).toBe(400);
    const fixed = await post('fix-me', taskBody(project, { title: 'Fixed' }));
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('should ignore the header on reads and on anonymous requests', async () => {
    const read = await t.http.get(TASKS).set(bearer(ceo)).set('Idempotency-Key', 'read');
    expect(read.status).toBe(200);
    expect(read.headers['idempotent-replayed']).toBeUndefined();
    const login = (): Promise<Response> =>
      t.http
        .post('/api/v1/auth/login')
        .set('Idempotency-Key', 'login')
        .send({ username: 'ceo', password: TEST_PASSWORD });
    const [one, two] = [await login(), await login()];
    expect(one.status).toBe(200);
    expect(two.status).toBe(200);
    expect(two.headers['idempotent-replayed']).toBeUndefined();
    expect(two.body.data.token).not.toBe(one.body.data.token);
  });
});

describe('Idempotency-Key retry storms across replicas on postgres', () => {
  const run = testBackends().includes('postgres') ? it : it.skip;

  run('should create exactly one task when 20 retries hit two instances at once', async () => {
    const db = await createTestDatabase('postgres');
    const a = await startTestApp({ backend: 'postgres', database: db, env: HIGH_LIMITS });
    let b: TestApp | undefined;
    try {
      b = await startTestApp({ backend: 'postgres', database: db, env: HIGH_LIMITS });
      const ceo = await setupCeo(a);
      const project = await prepareTasks(a, ceo);
      await b.app.get(ProviderRegistry).reload();
      const body = taskBody(project, { title: 'Storm' });
      const replicas = [a, b];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          replicas[i % 2].http.post(TASKS).set(bearer(ceo)).set('Idempotency-Key', 'storm').send(body),
        ),
      );
      const created = answers.filter((r) => r.status === 201);
      const originals = created.filter((r) => r.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      for (const res of answers) {
        if (res.status === 201) {
          expect(res.body).toEqual(originals[0].body);
        } else {
          expect(res.status).toBe(409);
          expectError(res.body, 4022, 'conflict');
        }
      }
      for (const replica of replicas) {
        expect(await countTasks(replica, ceo)).toBe(1);
      }
      // Once the first answer is stored, every replica replays it.
      for (const replica of replicas) {
        const late = await replica.http.post(TASKS).set(bearer(ceo)).set('Idempotency-Key', 'storm').send(body);
        expect(late.status).toBe(201);
        expect(late.headers['idempotent-replayed']).toBe('true');
        expect(late.body).toEqual(originals[0].body);
      }
    } finally {
      await b?.close();
      await a.close();
      await db.drop();
    }
  });
});
