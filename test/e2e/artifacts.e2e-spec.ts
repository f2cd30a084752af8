import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import type { Test } from 'supertest';

import { ErrorCode, HumanRole } from '@app/domain';
import { testBackends } from '@app/testing';

import { ProviderRegistry } from '../../apps/api/src/modules/providers';
import { systemToken } from '../attack/support/attack-app';
import { openClient, type WsTestClient, wsUrl } from '../integration/events/ws-test-client';
import { bearer, expectError, seedProvider, setupCeo, startTestApp, type TestApp, userWithRole } from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const API = '/api/v1/artifacts';
const MB = 1024 * 1024;
/** Room for the 256 KB round trip and little more, so a chunked upload fills the store. */
const STORAGE_BYTES = MB;

jest.setTimeout(120_000);

/** Supertest hands binary answers back as a Buffer through this parser. */
function binary(res: NodeJS.ReadableStream, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
  res.on('error', (error: Error) => done(error, Buffer.alloc(0)));
}

describe.each(testBackends())('artifacts on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let observer: string;
  let taskId: string;
  let project: string;
  const clients: WsTestClient[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      backend,
      listen: true,
      env: { SYNTHORG_ENGINE_ENABLED: 'false', SYNTHORG_ARTIFACT_STORAGE_BYTES: String(STORAGE_BYTES) },
    });
    ceo = await setupCeo(t);
    await seedProvider(t);
    await t.app.get(ProviderRegistry).reload();
    observer = await userWithRole(t, ceo, HumanRole.Observer, 'watcher');
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Output' }).expect(201)).body.data
      .id as string;
    taskId = (
      await t.http
        .post('/api/v1/tasks')
        .set(bearer(ceo))
        .send({ title: 'Build', description: 'Build it.', type: 'development', project, created_by: 'ceo' })
        .expect(201)
    ).body.data.id as string;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  afterAll(async () => {
    await t.close();
  });

  async function create(extra: Json = {}): Promise<Json> {
    const res = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ type: 'code', path: 'src/app.bin', task_id: taskId, created_by: 'ada', ...extra })
      .expect(201);
    return res.body.data as Json;
  }

  const download = (id: string, range?: string) => {
    const req = t.http
      .get(`${API}/${id}/content`)
      .set(bearer(observer))
      .buffer(true)
      .parse(binary as never);
    return range === undefined ? req : req.set('Range', range);
  };

  it('should answer 401 without a token and 403 to the system identity and to read-only roles on writes', async () => {
    const id = (await create()).id as string;
    const routes: Array<[string, string, boolean]> = [
      ['get', API, false],
      ['post', API, true],
      ['get', `${API}/${id}`, false],
      ['delete', `${API}/${id}`, true],
      ['put', `${API}/${id}/content`, true],
      ['get', `${API}/${id}/content`, false],
    ];
    for (const [method, path, write] of routes) {
      const call = (token?: string) => {
        const req = (t.http as unknown as Record<string, (p: string) => Test>)[method](path);
        return token ? req.set(bearer(token)) : req;
      };
      expectError((await call().expect(401)).body, ErrorCode.Unauthorized, 'auth');
      expectError((await call(systemToken()).expect(403)).body, ErrorCode.Forbidden, 'auth');
      if (write) {
        expectError((await call(observer).expect(403)).body, ErrorCode.Forbidden, 'auth');
      }
    }
    expect((await t.http.get(`${API}/${id}`).set(bearer(observer)).expect(200)).body.data.id).toBe(id);
  });

  it('should record an artifact with the reference fields and announce it', async () => {
    const ticket = (await t.http.post('/api/v1/auth/ws-ticket').set(bearer(ceo)).expect(201)).body.data.ticket;
    const socket = await openClient(wsUrl(t.url ?? '', ticket as string));
    clients.push(socket);
    await socket.request({ action: 'subscribe', channels: ['artifacts'] });
    const artifact = await create({ type: 'documentation', path: 'docs/guide.md', description: 'The guide' });
    expect(artifact).toEqual({
      id: expect.stringMatching(/^artifact-/),
      type: 'documentation',
      path: 'docs/guide.md',
      task_id: taskId,
      created_by: 'ada',
      description: 'The guide',
      created_at: expect.stringMatching(/^\d{4}-/),
      project_id: project,
      content_type: '',
      size_bytes: 0,
      sha256: null,
    });
    const event = await socket.next((m) => m.event_type === 'artifact.created');
    expect(event.payload).toMatchObject({ artifact_id: artifact.id, task_id: taskId, artifact });
  });

  it('should refuse bad bodies (400), unknown tasks and projects (404) and traversal ids (400, 2065)', async () => {
    const base = { type: 'code', path: 'a.ts', task_id: taskId, created_by: 'ada' };
    await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ ...base, type: 'binary' })
      .expect(400);
    await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ ...base, created_by: undefined })
      .expect(400);
    await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ ...base, extra: 1 })
      .expect(400);
    for (const path of ['../../etc/passwd', '/etc/passwd', 'a//b', 'C:/x']) {
      const res = await t.http
        .post(API)
        .set(bearer(ceo))
        .send({ ...base, path })
        .expect(400);
      expectError(res.body, ErrorCode.ArtifactPathInvalid, 'validation');
    }
    const noTask = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ ...base, task_id: 'task-none' })
      .expect(404);
    expectError(noTask.body, ErrorCode.TaskNotFound, 'not_found');
    const noProject = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ ...base, project_id: 'nope' })
      .expect(404);
    expectError(noProject.body, ErrorCode.ProjectNotFound, 'not_found');
    for (const id of ['..', '.hidden', '..%2F..%2Fetc%2Fpasswd', 'a%5Cb', 'x..y']) {
      for (const path of [`${API}/${id}`, `${API}/${id}/content`]) {
        const res = await t.http.get(path).set(bearer(ceo));
        expect([400, 404]).toContain(res.status);
        if (res.status === 400) {
          expectError(res.body, ErrorCode.ArtifactIdInvalid, 'validation');
        }
      }
    }
    const traversal = await t.http.get(`${API}/..%2F..%2Fetc%2Fpasswd/content`).set(bearer(ceo)).expect(400);
    expectError(traversal.body, ErrorCode.ArtifactIdInvalid, 'validation');
    const unknown = await t.http.get(`${API}/artifact-none`).set(bearer(ceo)).expect(404);
    expectError(unknown.body, ErrorCode.ArtifactNotFound, 'not_found');
    expectError(
      (await t.http.get(`${API}/artifact-none/content`).set(bearer(ceo)).expect(404)).body,
      ErrorCode.ArtifactNotFound,
    );
    expectError(
      (await t.http.delete(`${API}/artifact-none`).set(bearer(ceo)).expect(404)).body,
      ErrorCode.ArtifactNotFound,
    );
  });

  it('should filter the list by task, creator and type, and refuse an unknown type (2067) or an empty filter', async () => {
    const otherTask = (
      await t.http
        .post('/api/v1/tasks')
        .set(bearer(ceo))
        .send({ title: 'Test', description: 'Test it.', type: 'development', project, created_by: 'ceo' })
        .expect(201)
    ).body.data.id as string;
    const mine = await create({ task_id: otherTask, type: 'tests', path: 'test/a.spec.ts', created_by: 'bob' });
    const byTask = await t.http.get(API).query({ task_id: otherTask }).set(bearer(ceo)).expect(200);
    expect((byTask.body.data as Json[]).map((a) => a.id)).toEqual([mine.id]);
    const byAll = await t.http
      .get(API)
      .query({ task_id: otherTask, created_by: 'bob', type: 'tests' })
      .set(bearer(ceo))
      .expect(200);
    expect(byAll.body.pagination).toEqual({ total: 1, offset: 0, limit: 50 });
    expect((await t.http.get(API).query({ type: 'code', created_by: 'bob' }).set(bearer(ceo))).body.data).toEqual([]);
    expectError(
      (await t.http.get(API).query({ type: 'binary' }).set(bearer(ceo)).expect(400)).body,
      ErrorCode.ArtifactTypeInvalid,
    );
    await t.http.get(API).query({ task_id: '' }).set(bearer(ceo)).expect(400);
    await t.http
      .get(API)
      .query({ created_by: 'x'.repeat(129) })
      .set(bearer(ceo))
      .expect(400);
  });

  it('should give a 256 KB binary back byte for byte, whole and as one byte range', async () => {
    const id = (await create()).id as string;
    const before = await download(id).expect(404);
    expectError(JSON.parse((before.body as Buffer).toString('utf8')) as Json, ErrorCode.ArtifactNotFound);
    const bytes = randomBytes(256 * 1024);
    const uploaded = await t.http
      .put(`${API}/${id}/content`)
      .set(bearer(ceo))
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(200);
    expect(uploaded.body).toMatchObject({ success: true, data: { id, size_bytes: bytes.length } });
    expect(uploaded.body.data.sha256).toMatch(/^[0-9a-f]{64}$/);

    const whole = await download(id).expect(200);
    expect(Buffer.compare(whole.body as Buffer, bytes)).toBe(0);
    expect(whole.headers['content-type']).toBe('application/octet-stream');
    expect(whole.headers['content-disposition']).toBe(`attachment; filename="app.bin"; filename*=UTF-8''app.bin`);
    expect(whole.headers['accept-ranges']).toBe('bytes');

    const part = await download(id, 'bytes=1000-1999').expect(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.compare(part.body as Buffer, bytes.subarray(1000, 2000))).toBe(0);
    const tail = await download(id, 'bytes=-10').expect(206);
    expect(Buffer.compare(tail.body as Buffer, bytes.subarray(bytes.length - 10))).toBe(0);
    const open = await download(id, `bytes=${bytes.length - 5}-`).expect(206);
    expect((open.body as Buffer).length).toBe(5);
    const beyond = await download(id, `bytes=${bytes.length}-`).expect(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(JSON.parse((beyond.body as Buffer).toString('utf8')).error_detail.error_code).toBe(
      ErrorCode.ArtifactRangeInvalid,
    );
    await download(id, 'bytes=0-1,5-6').expect(200);
  });

  it('should take a multipart upload, keep its type and serve unsafe types as octet-stream', async () => {
    const id = (await create({ type: 'documentation', path: 'docs/notes.txt' })).id as string;
    const res = await t.http
      .put(`${API}/${id}/content`)
      .set(bearer(ceo))
      .field('comment', 'ignored')
      .attach('file', Buffer.from('hello, world\n'), { filename: 'notes.txt', contentType: 'text/plain' })
      .expect(200);
    expect(res.body.data).toMatchObject({ content_type: 'text/plain', size_bytes: 13 });
    const text = await download(id).expect(200);
    expect([(text.body as Buffer).toString('utf8'), text.headers['content-type']]).toEqual([
      'hello, world\n',
      'text/plain',
    ]);

    const svg = (await create({ path: 'img/logo.svg' })).id as string;
    await t.http
      .put(`${API}/${svg}/content`)
      .set(bearer(ceo))
      .set('Content-Type', 'image/svg+xml')
      .send(Buffer.from('<svg onload="alert(1)"/>'))
      .expect(200);
    expect((await download(svg).expect(200)).headers['content-type']).toBe('application/octet-stream');
  });

  it('should refuse a JSON body, a multipart body without a file and an upload to an unknown artifact', async () => {
    const id = (await create()).id as string;
    const json = await t.http.put(`${API}/${id}/content`).set(bearer(ceo)).send({ a: 1 }).expect(400);
    expectError(json.body, ErrorCode.ArtifactUploadInvalid, 'validation');
    const noFile = await t.http.put(`${API}/${id}/content`).set(bearer(ceo)).field('comment', 'x').expect(400);
    expectError(noFile.body, ErrorCode.ArtifactUploadInvalid, 'validation');
    const unknown = await t.http
      .put(`${API}/artifact-none/content`)
      .set(bearer(ceo))
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('x'))
      .expect(404);
    expectError(unknown.body, ErrorCode.ArtifactNotFound, 'not_found');
  });

  it('should refuse 50 MB + 1 byte with 413 (2002) and keep the previous content', async () => {
    const id = (await create()).id as string;
    await t.http
      .put(`${API}/${id}/content`)
      .set(bearer(ceo))
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('kept'))
      .expect(200);
    const res = await t.http
      .put(`${API}/${id}/content`)
      .set(bearer(ceo))
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(50 * MB + 1, 7))
      .expect(413);
    expectError(res.body, ErrorCode.ArtifactTooLarge, 'validation');
    expect(((await download(id).expect(200)).body as Buffer).toString()).toBe('kept');
  });

  it('should refuse a streamed upload that fills the store with 507 (8007) and leave no partial file', async () => {
    const id = (await create()).id as string;
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < 20; i += 1) {
          yield Buffer.alloc(64 * 1024, i);
        }
      })(),
    );
    const url = new URL(`${t.url ?? ''}${API}/${id}/content`);
    const answer = await new Promise<{ status: number; body: Json }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'PUT',
          headers: { ...bearer(ceo), 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' },
        },
        (res) =>
          binary(res, (error, data) =>
            error ? reject(error) : resolve({ status: res.statusCode ?? 0, body: JSON.parse(data.toString()) as Json }),
          ),
      );
      req.on('error', reject);
      body.pipe(req);
    });
    expect(answer.status).toBe(507);
    expectError(answer.body, ErrorCode.ArtifactStorageFull, 'internal');
    expect((await t.http.get(`${API}/${id}`).set(bearer(ceo)).expect(200)).body.data.size_bytes).toBe(0);
    expect(readdirSync(t.config.artifacts.dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('should delete the content, then the metadata (204), and answer 404 afterwards', async () => {
    const id = (await create()).id as string;
    await t.http
      .put(`${API}/${id}/content`)
      .set(bearer(ceo))
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('bye'))
      .expect(200);
    expect(existsSync(join(t.config.artifacts.dir, id))).toBe(true);
    await t.http.delete(`${API}/${id}`).set(bearer(ceo)).expect(204);
    expect(existsSync(join(t.config.artifacts.dir, id))).toBe(false);
    await t.http.get(`${API}/${id}`).set(bearer(ceo)).expect(404);
    await download(id).expect(404);
  });
});
