import { DEFAULT_CHANNELS, ErrorCode, HumanRole } from '@app/domain';
import { AgentEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { MessagePosting } from '../../apps/api/src/modules/messages';
import { systemToken } from '../attack/support/attack-app';
import { openClient, type WsTestClient, wsUrl } from '../integration/events/ws-test-client';
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
  userWithRole,
} from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const API = '/api/v1/messages';

jest.setTimeout(60_000);

describe.each(testBackends())('messages and channels on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let observer: string;
  let agents: string[];
  let project: string;
  const clients: WsTestClient[] = [];

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, listen: true, env: { SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1' } });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock);
    agents = (await createCompany(t, ceo)).agents.map((a) => a.name);
    // Messaging is the communication category: an agent needs elevated access or an explicit allow.
    const repo = t.app.get(DatabaseService).dataSource.getRepository(AgentEntity);
    const sender = await repo.findOneByOrFail({ name: agents[0] });
    sender.settings = {
      ...sender.settings,
      tools: { access_level: 'standard', allowed: ['send_message'], denied: [] },
    };
    await repo.save(sender);
    observer = await userWithRole(t, ceo, HumanRole.Observer, 'watcher');
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Talk' }).expect(201)).body.data
      .id as string;
  });

  afterEach(async () => {
    mock.reset();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  async function subscribe(token: string): Promise<WsTestClient> {
    const ticket = (await t.http.post('/api/v1/auth/ws-ticket').set(bearer(token)).expect(201)).body.data
      .ticket as string;
    const client = await openClient(wsUrl(t.url ?? '', ticket));
    clients.push(client);
    expect(await client.request({ action: 'subscribe', channels: ['messages'] })).toEqual({
      action: 'subscribed',
      channels: ['messages'],
    });
    return client;
  }

  async function runTask(): Promise<string> {
    const task = await t.http
      .post('/api/v1/tasks')
      .set(bearer(ceo))
      .send({
        title: 'Report progress',
        description: 'Tell the team how it goes.',
        type: 'development',
        project,
        created_by: 'ceo',
        assigned_to: agents[0],
      })
      .expect(201);
    const id = task.body.data.id as string;
    await eventually(
      async () => (await t.http.get(`/api/v1/tasks/${id}`).set(bearer(ceo)).expect(200)).body.data as Json,
      (x) => x.status === 'completed',
    );
    return id;
  }

  it('should answer 401 without a token and 403 for the system identity on every route', async () => {
    for (const path of [API, `${API}/channels`, `${API}/00000000-0000-4000-8000-000000000000`]) {
      expectError((await t.http.get(path).expect(401)).body, ErrorCode.Unauthorized, 'auth');
      const forbidden = await t.http.get(path).set(bearer(systemToken())).expect(403);
      expectError(forbidden.body, ErrorCode.Forbidden, 'auth');
    }
  });

  it('should list the seven default channels', async () => {
    const res = await t.http.get(`${API}/channels`).set(bearer(observer)).expect(200);
    const names = (res.body.data as Json[]).map((c) => c.name as string);
    expect(names).toEqual(expect.arrayContaining([...DEFAULT_CHANNELS]));
    expect(res.body.data).toContainEqual({ name: '#engineering', type: 'topic', subscribers: [] });
  });

  it('should refuse an unknown channel (404, 3007), a bad page and bad ids (400), an unknown message (404, 3026)', async () => {
    const unknown = await t.http.get(API).query({ channel: '#nowhere' }).set(bearer(ceo)).expect(404);
    expectError(unknown.body, ErrorCode.ChannelNotFound, 'not_found');
    const long = await t.http
      .get(API)
      .query({ channel: `#${'a'.repeat(128)}` })
      .set(bearer(ceo))
      .expect(400);
    expectError(long.body, ErrorCode.RequestValidationError, 'validation');
    await t.http.get(API).query({ limit: 0 }).set(bearer(ceo)).expect(400);
    await t.http
      .get(`${API}/${'x'.repeat(129)}`)
      .set(bearer(ceo))
      .expect(400);
    const missing = await t.http.get(`${API}/00000000-0000-4000-8000-000000000000`).set(bearer(ceo)).expect(404);
    expectError(missing.body, ErrorCode.MessageNotFound, 'not_found');
  });

  it('should store what an agent posts through send_message, in its channel and on the WebSocket', async () => {
    const socket = await subscribe(ceo);
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [
          {
            name: 'send_message',
            arguments: { channel: '#engineering', type: 'status_report', content: 'Halfway there.' },
          },
        ],
      },
      {
        kind: 'tool_calls',
        calls: [{ name: 'send_message', arguments: { to: agents[1], type: 'question', content: 'Can you review?' } }],
      },
      { kind: 'tool_calls', calls: [{ name: 'send_message', arguments: { channel: '#nowhere', content: 'Hello?' } }] },
      { kind: 'text', text: 'Reported.' },
    );
    const taskId = await runTask();

    const event = await socket.next((m) => m.event_type === 'message.sent');
    expect(event).toMatchObject({
      channel: 'messages',
      payload: {
        channel: '#engineering',
        message: { from: agents[0], to: '#engineering', type: 'status_report', content: 'Halfway there.' },
      },
    });

    const engineering = await t.http.get(API).query({ channel: '#engineering' }).set(bearer(ceo)).expect(200);
    expect(engineering.body.pagination).toEqual({ total: 1, offset: 0, limit: 50 });
    const posted = engineering.body.data[0] as Json;
    expect(posted).toMatchObject({
      from: agents[0],
      priority: 'normal',
      attachments: [],
      metadata: { task_id: taskId, project_id: null, tokens_used: null, cost_usd: null, extra: [] },
    });
    expect(
      (
        await t.http
          .get(`${API}/${posted.id as string}`)
          .set(bearer(observer))
          .expect(200)
      ).body.data,
    ).toEqual(posted);

    const direct = `@${[agents[0], agents[1]].sort().join(':')}`;
    const channels = (await t.http.get(`${API}/channels`).set(bearer(ceo)).expect(200)).body.data as Json[];
    expect(channels).toContainEqual({ name: direct, type: 'direct', subscribers: [agents[0], agents[1]].sort() });
    const dm = await t.http.get(API).query({ channel: direct }).set(bearer(ceo)).expect(200);
    expect(dm.body.data).toEqual([expect.objectContaining({ from: agents[0], to: agents[1], type: 'question' })]);

    // The unknown channel came back to the model as a tool error, and nothing was stored for it.
    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const replies = (chats[3].body as Json).messages.filter((m: Json) => m.role === 'tool') as Json[];
    expect(replies.at(-1)?.content).toContain('Channel "#nowhere" not found');
    const all = await t.http.get(API).set(bearer(ceo)).expect(200);
    expect(all.body.pagination.total).toBe(2);
    expect((all.body.data as Json[]).map((m) => m.content)).toEqual(['Can you review?', 'Halfway there.']);
  });

  it('should redact the cost of a message for read-only roles, on the API and on the WebSocket', async () => {
    const watching = await subscribe(observer);
    const posting = t.app.get(MessagePosting);
    const sent = await posting.post({
      from: 'system',
      channel: '#incidents',
      type: 'announcement',
      content: 'Spend spiked.',
      metadata: { costUsd: 1.25, tokensUsed: 400 },
    });
    const asCeo = await t.http.get(`${API}/${sent.id}`).set(bearer(ceo)).expect(200);
    expect(asCeo.body.data.metadata).toMatchObject({ cost_usd: 1.25, tokens_used: 400 });
    const asObserver = await t.http.get(API).query({ channel: '#incidents' }).set(bearer(observer)).expect(200);
    expect(asObserver.body.data[0].metadata).toMatchObject({ cost_usd: null, tokens_used: 400 });
    const frame = await watching.next((m) => m.event_type === 'message.sent');
    expect((frame.payload as Json).message.metadata).toMatchObject({ cost_usd: null, tokens_used: 400 });
  });

  it('should refuse a blank message, an unknown type and a malformed channel through the posting facade', async () => {
    const posting = t.app.get(MessagePosting);
    await expect(
      posting.post({ from: 'system', channel: '#product', type: 'announcement', content: ' ' }),
    ).rejects.toMatchObject({ code: ErrorCode.MessageContentInvalid });
    await expect(
      posting.post({ from: 'system', channel: 'product', type: 'announcement', content: 'x' }),
    ).rejects.toMatchObject({ code: ErrorCode.ChannelNameInvalid });
    await expect(
      posting.post({ from: agents[0], toAgent: agents[0], type: 'question', content: 'x' }),
    ).rejects.toMatchObject({ code: ErrorCode.MessageRecipientInvalid });
  });

  it('should page a channel newest first and keep the page window across writes', async () => {
    const posting = t.app.get(MessagePosting);
    for (const content of ['one', 'two', 'three']) {
      await posting.post({ from: 'system', channel: '#watercooler', type: 'announcement', content });
    }
    const first = await t.http.get(API).query({ channel: '#watercooler', limit: 2 }).set(bearer(ceo)).expect(200);
    expect((first.body.data as Json[]).map((m) => m.content)).toEqual(['three', 'two']);
    expect(first.body.pagination).toEqual({ total: 3, offset: 0, limit: 2 });
    const second = await t.http
      .get(API)
      .query({ channel: '#watercooler', limit: 2, offset: 2 })
      .set(bearer(ceo))
      .expect(200);
    expect((second.body.data as Json[]).map((m) => m.content)).toEqual(['one']);
  });
});
