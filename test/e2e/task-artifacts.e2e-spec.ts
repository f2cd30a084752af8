import { eventually, testBackends } from '@app/testing';

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

jest.setTimeout(90_000);

describe.each(testBackends())('a completed task’s committed files as artifacts on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let agent: string;
  let project: string;

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, env: { SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1' } });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock);
    agent = (await createCompany(t, ceo)).agents[0].name;
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Ship' }).expect(201)).body.data
      .id as string;
  });

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('should list the files the agent committed as artifacts of the task, typed by path, with their content', async () => {
    const files: Record<string, string> = {
      'src/greet.ts': 'export const greet = (n: string) => `hi ${n}`;\n',
      'test/greet.spec.ts': "import { greet } from '../src/greet';\n",
      'docs/greet.md': '# Greeting\n',
    };
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: Object.entries(files).map(([path, content]) => ({ name: 'write_file', arguments: { path, content } })),
      },
      { kind: 'tool_calls', calls: [{ name: 'commit_changes', arguments: { message: 'Add the greeting' } }] },
      { kind: 'text', text: 'Done.' },
    );
    const task = (
      await t.http
        .post('/api/v1/tasks')
        .set(bearer(ceo))
        .send({
          title: 'Greet',
          description: 'Write the greeting with a test and docs.',
          type: 'development',
          project,
          created_by: 'ceo',
          assigned_to: agent,
        })
        .expect(201)
    ).body.data.id as string;

    const listed = await eventually(
      async () =>
        (await t.http.get('/api/v1/artifacts').query({ task_id: task }).set(bearer(ceo)).expect(200)).body
          .data as Json[],
      (items) => items.length === 3 && items.every((a) => a.sha256 !== null),
      30_000,
    );
    const byPath = new Map(listed.map((a) => [a.path as string, a]));
    expect([...byPath.keys()].sort()).toEqual(Object.keys(files).sort());
    expect(byPath.get('src/greet.ts')).toMatchObject({ type: 'code', created_by: agent, project_id: project });
    expect(byPath.get('test/greet.spec.ts')).toMatchObject({ type: 'tests', content_type: 'text/plain' });
    expect(byPath.get('docs/greet.md')).toMatchObject({ type: 'documentation', content_type: 'text/markdown' });
    for (const [path, content] of Object.entries(files)) {
      const id = byPath.get(path)?.id as string;
      const res = await t.http.get(`/api/v1/artifacts/${id}/content`).set(bearer(ceo)).expect(200);
      expect(res.text).toBe(content);
    }
  });
});
