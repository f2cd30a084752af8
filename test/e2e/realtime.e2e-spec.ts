import { HumanRole } from '@app/domain';
import { WsTicketEntity } from '@app/persistence';
import { DatabaseService, DomainEventBus } from '@app/platform';
import { createTestDatabase, type TestDatabase, testBackends } from '@app/testing';

import { startTestApp, type TestApp } from '../support';

import { closeCodeOf, openClient, quietFor, type WsTestClient, wsUrl } from '../integration/events/ws-test-client';

const PASSWORD = 'correct-horse-battery-9';
const NEW_PASSWORD = 'staple-battery-horse-10';

async function setupCeo(t: TestApp): Promise<string> {
  const res = await t.http.post('/api/v1/auth/setup').send({ username: 'ceo', password: PASSWORD }).expect(201);
  return res.body.data.token as string;
}

/** A user of the given role, past the forced password change; returns their session token. */
async function userToken(t: TestApp, ceoToken: string, username: string, role: HumanRole): Promise<string> {
  await t.http
    .post('/api/v1/users')
    .set('Authorization', `Bearer ${ceoToken}`)
    .send({ username, password: PASSWORD, role })
    .expect(201);
  const login = await t.http.post('/api/v1/auth/login').send({ username, password: PASSWORD }).expect(200);
  const changed = await t.http
    .post('/api/v1/auth/change-password')
    .set('Authorization', `Bearer ${login.body.data.token as string}`)
    .send({ current_password: PASSWORD, new_password: NEW_PASSWORD })
    .expect(200);
  return changed.body.data.token as string;
}

async function ticketFor(t: TestApp, token: string): Promise<string> {
  const res = await t.http.post('/api/v1/auth/ws-ticket').set('Authorization', `Bearer ${token}`).expect(201);
  return res.body.data.ticket as string;
}

describe.each(testBackends())('realtime WebSocket on %s', (backend) => {
  let t: TestApp;
  let url: string;
  let ceoToken: string;
  const clients: WsTestClient[] = [];

  async function connect(token = ceoToken): Promise<WsTestClient> {
    const client = await openClient(wsUrl(url, await ticketFor(t, token)));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    t = await startTestApp({ backend, listen: true });
    url = t.url ?? '';
    ceoToken = await setupCeo(t);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should report the message bus as wired in health when the app is up', async () => {
    const res = await t.http.get('/api/v1/health').expect(200);
    expect(res.body.data.message_bus).toBe(true);
    expect(res.body.data.subsystems).toEqual(
      expect.arrayContaining([
        { name: 'message_bus', wired: true, detail: backend === 'postgres' ? 'postgres LISTEN/NOTIFY' : 'in-process' },
      ]),
    );
  });

  it('should close 4001 when no ticket is given', async () => {
    expect(await closeCodeOf(wsUrl(url))).toBe(4001);
  });

  it('should log refusals of a client that keeps reconnecting without a ticket once a minute, not each time', async () => {
    const refusedLines = () => t.consoleLines().filter((line) => line.includes('api.ws.refused'));
    const before = refusedLines().length;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(await closeCodeOf(wsUrl(url))).toBe(4001);
    }
    // One line at most for this address and code in the minute (an earlier test may have had it).
    expect(refusedLines().length - before).toBeLessThanOrEqual(1);
    expect(refusedLines().filter((line) => line.includes('4001')).length).toBe(1);
  });

  it('should close 4001 when the ticket is unknown', async () => {
    expect(await closeCodeOf(wsUrl(url, 'not-a-real-ticket'))).toBe(4001);
  });

  it('should connect, subscribe and receive an event published through the EventBus when the ticket is valid', async () => {
    const client = await connect();
    expect(await client.request({ action: 'subscribe', channels: ['tasks', 'agents'] })).toEqual({
      action: 'subscribed',
      channels: ['agents', 'tasks'],
    });
    await t.app.get(DomainEventBus).publish({
      channel: 'tasks',
      event_type: 'task.status_changed',
      payload: { task_id: 't-1', status: 'in_progress' },
    });
    expect(await client.next()).toEqual({
      event_type: 'task.status_changed',
      channel: 'tasks',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      payload: { task_id: 't-1', status: 'in_progress' },
      event_id: expect.any(String),
    });
  });

  it('should close 4001 when a ticket is used a second time', async () => {
    const ticket = await ticketFor(t, ceoToken);
    const first = await openClient(wsUrl(url, ticket));
    clients.push(first);
    expect(await first.request({ action: 'ping' })).toEqual({ action: 'pong' });
    expect(await closeCodeOf(wsUrl(url, ticket))).toBe(4001);
  });

  it('should close 4001 when the ticket has expired', async () => {
    const ticket = await ticketFor(t, ceoToken);
    await t.app
      .get(DatabaseService)
      .dataSource.createQueryBuilder()
      .update(WsTicketEntity)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .execute();
    expect(await closeCodeOf(wsUrl(url, ticket))).toBe(4001);
  });

  it('should answer invalid messages with the documented errors when they are malformed', async () => {
    const client = await connect();
    const cases: Array<[unknown, string]> = [
      ['not json', 'Invalid JSON'],
      ['42', 'Expected JSON object'],
      [{ action: 'subscribe', channels: [1] }, 'channels must be a list of strings'],
      [{ action: 'subscribe', channels: ['tasks'], filters: 'x' }, 'filters must be an object'],
      [
        {
          action: 'subscribe',
          channels: ['tasks'],
          filters: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])),
        },
        'Filter bounds exceeded',
      ],
      [{ action: 'fly' }, 'Unknown action'],
      [{ action: 'ping', pad: 'p'.repeat(4100) }, 'Message too large'],
    ];
    for (const [body, error] of cases) {
      expect(await client.request(body)).toEqual({ error });
    }
  });

  it('should not grant the budget channel to an observer and redact cost for them', async () => {
    const observerToken = await userToken(t, ceoToken, 'watcher', HumanRole.Observer);
    const observer = await connect(observerToken);
    expect(await observer.request({ action: 'subscribe', channels: ['budget', 'agents'] })).toEqual({
      action: 'subscribed',
      channels: ['agents'],
    });
    const bus = t.app.get(DomainEventBus);
    await bus.publish({ channel: 'budget', event_type: 'budget.threshold_crossed', payload: { total_cost_usd: 50 } });
    await bus.publish({
      channel: 'agents',
      event_type: 'agent.activity',
      payload: { agent_id: 'a-1', description: 'API call to m-1 (10+5 tokens, $0.01)', cost_usd: 0.01 },
    });
    const event = await observer.next();
    expect(event).toMatchObject({
      channel: 'agents',
      payload: { agent_id: 'a-1', description: 'API call (10+5 tokens)', cost_usd: null },
    });
    await quietFor(50);
    expect(observer.messages.filter((m) => m.channel === 'budget')).toEqual([]);
  });
});

const describePostgres = testBackends().includes('postgres') ? describe : describe.skip;

describePostgres('realtime WebSocket across replicas on postgres', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let client: WsTestClient | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    a = await startTestApp({ backend: 'postgres', listen: true, database: db });
    b = await startTestApp({ backend: 'postgres', listen: true, database: db });
  });

  afterAll(async () => {
    await client?.close();
    await b?.close();
    await a?.close();
    await db?.drop();
  });

  it('should deliver an event published on replica A to a client connected to replica B', async () => {
    const token = await setupCeo(a);
    client = await openClient(wsUrl(b.url ?? '', await ticketFor(b, token)));
    expect(await client.request({ action: 'subscribe', channels: ['tasks'] })).toEqual({
      action: 'subscribed',
      channels: ['tasks'],
    });
    const big = 'z'.repeat(10_000);
    await a.app
      .get(DomainEventBus)
      .publish({ channel: 'tasks', event_type: 'task.created', payload: { task_id: 't-9', big } });
    const event = await client.next();
    expect(event).toMatchObject({ channel: 'tasks', event_type: 'task.created', payload: { task_id: 't-9', big } });
  });
});
