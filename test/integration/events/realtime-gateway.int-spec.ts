import { Writable } from 'node:stream';

import { Global, type INestApplication, Module } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { Test } from '@nestjs/testing';
import pino from 'pino';

import { HumanRole } from '@app/domain';
import {
  DomainEventBus,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ServiceMetrics,
  WsAuthenticator,
  type WsPrincipal,
} from '@app/platform';

import { REALTIME_OPTIONS, type RealtimeOptions } from '../../../apps/api/src/realtime/realtime.constants';
import { RealtimeGateway } from '../../../apps/api/src/realtime/realtime.gateway';
import { RealtimeModule } from '../../../apps/api/src/realtime/realtime.module';

import { closeCodeOf, openClient, quietFor, withDeadline, type WsTestClient, wsUrl } from './ws-test-client';

/** One-time tickets and sessions held in memory, as the accounts module holds them in the database. */
class FakeAuthenticator extends WsAuthenticator {
  private readonly tickets = new Map<string, WsPrincipal>();
  readonly revoked = new Set<string>();
  delayMs = 0;
  private seq = 0;

  issue(role: HumanRole, sessionId = `s-${++this.seq}`): string {
    const ticket = `ticket-${role}-${++this.seq}-secretpart`;
    this.tickets.set(ticket, { userId: `u-${this.seq}`, username: role, role, sessionId });
    return ticket;
  }

  async consumeTicket(ticket: string): Promise<WsPrincipal | null> {
    if (this.delayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    }
    const principal = this.tickets.get(ticket) ?? null;
    this.tickets.delete(ticket);
    return principal;
  }

  isSessionActive(sessionId: string): Promise<boolean> {
    return Promise.resolve(!this.revoked.has(sessionId));
  }
}

function captureLogging(lines: string[]): LoggingRuntime {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const root = pino({ level: 'debug', messageKey: 'event' }, sink);
  return {
    root,
    forName: (name: string) => root.child({ logger: `synthorg.${name}` }),
    prebuilt: () => ({ isLevelEnabled: () => false, write: () => undefined }),
    sinks: () => [],
    reconfigure: () => Promise.resolve(),
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

const OPTIONS: RealtimeOptions = {
  heartbeatIntervalMs: 150,
  sessionRevalidateMs: 200,
  authTimeoutMs: 2000,
  closeGraceMs: 1000,
};

async function startGateway(
  withAuthenticator: boolean,
): Promise<{ app: INestApplication; url: string; bus: DomainEventBus; auth: FakeAuthenticator; logs: string[] }> {
  const logs: string[] = [];
  const logging = captureLogging(logs);
  const auth = new FakeAuthenticator();
  const bus = new DomainEventBus(logging.forName('communication'));

  @Global()
  @Module({
    providers: [
      { provide: LOGGING_RUNTIME, useValue: logging },
      { provide: EventBus, useValue: bus },
      { provide: ServiceMetrics, useValue: new ServiceMetrics(false) },
      ...(withAuthenticator ? [{ provide: WsAuthenticator, useValue: auth }] : []),
    ],
    exports: [LOGGING_RUNTIME, EventBus, ServiceMetrics, ...(withAuthenticator ? [WsAuthenticator] : [])],
  })
  class InfraModule {}

  const moduleRef = await Test.createTestingModule({ imports: [InfraModule, RealtimeModule] })
    .overrideProvider(REALTIME_OPTIONS)
    .useValue(OPTIONS)
    .compile();
  const app = moduleRef.createNestApplication({ logger: false });
  app.useWebSocketAdapter(new WsAdapter(app));
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}`, bus, auth, logs };
}

describe('realtime gateway (fake authenticator)', () => {
  let app: INestApplication;
  let url: string;
  let bus: DomainEventBus;
  let auth: FakeAuthenticator;
  let logs: string[];
  const clients: WsTestClient[] = [];

  async function connect(role: HumanRole = HumanRole.Ceo, sessionId?: string): Promise<WsTestClient> {
    const client = await openClient(wsUrl(url, auth.issue(role, sessionId)));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    ({ app, url, bus, auth, logs } = await startGateway(true));
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    auth.delayMs = 0;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('should close 4001 when the ticket is missing, unknown or reused', async () => {
    expect(await closeCodeOf(wsUrl(url))).toBe(4001);
    expect(await closeCodeOf(wsUrl(url, ''))).toBe(4001);
    expect(await closeCodeOf(wsUrl(url, 'made-up'))).toBe(4001);
    const ticket = auth.issue(HumanRole.Ceo);
    const first = await openClient(wsUrl(url, ticket));
    clients.push(first);
    expect(await first.request({ action: 'ping' })).toEqual({ action: 'pong' });
    expect(await closeCodeOf(wsUrl(url, ticket))).toBe(4001);
  });

  it('should close 4003 when the role lacks the read permission', async () => {
    expect(await closeCodeOf(wsUrl(url, auth.issue(HumanRole.System)))).toBe(4003);
  });

  it('should never write a ticket to the logs when refusing or accepting', async () => {
    const ticket = auth.issue(HumanRole.Observer);
    clients.push(await openClient(wsUrl(url, ticket)));
    await closeCodeOf(wsUrl(url, 'made-up-secret'));
    await quietFor(50);
    const all = logs.join('\n');
    expect(all).toContain('api.ws.connected');
    expect(all).toContain('api.ws.refused');
    expect(all).not.toContain(ticket);
    expect(all).not.toContain('made-up-secret');
  });

  it('should reply with the sorted active channels when subscribing and unsubscribing', async () => {
    const client = await connect();
    expect(await client.request({ action: 'subscribe', channels: ['tasks', 'budget', 'nope', 'agents'] })).toEqual({
      action: 'subscribed',
      channels: ['agents', 'budget', 'tasks'],
    });
    expect(await client.request({ action: 'subscribe', channels: ['system'] })).toEqual({
      action: 'subscribed',
      channels: ['agents', 'budget', 'system', 'tasks'],
    });
    expect(await client.request({ action: 'unsubscribe', channels: ['tasks', 'budget'] })).toEqual({
      action: 'unsubscribed',
      channels: ['agents', 'system'],
    });
  });

  it('should answer invalid messages with their error strings when they are malformed', async () => {
    const client = await connect();
    const cases: Array<[unknown, string]> = [
      ['{oops', 'Invalid JSON'],
      ['[1]', 'Expected JSON object'],
      [{ action: 'subscribe', channels: 'tasks' }, 'channels must be a list of strings'],
      [{ action: 'subscribe', channels: [], filters: [1] }, 'filters must be an object'],
      [{ action: 'subscribe', channels: [], filters: { k: 'v'.repeat(300) } }, 'Filter bounds exceeded'],
      [{ action: 'jump' }, 'Unknown action'],
      [{ action: 'ping', pad: 'x'.repeat(5000) }, 'Message too large'],
    ];
    for (const [body, error] of cases) {
      expect(await client.request(body)).toEqual({ error });
    }
    expect(await client.request({ action: 'ping' })).toEqual({ action: 'pong' });
  });

  it('should deliver events only after subscribing and only on subscribed channels', async () => {
    const client = await connect();
    await bus.publish({ channel: 'tasks', event_type: 'task.created', payload: { n: 0 } });
    await quietFor(50);
    expect(client.messages).toEqual([]);
    await client.request({ action: 'subscribe', channels: ['tasks'] });
    await bus.publish({ channel: 'agents', event_type: 'agent.hired', payload: { n: 1 } });
    await bus.publish({ channel: 'tasks', event_type: 'task.status_changed', payload: { n: 2 } });
    const event = await client.next();
    expect(event).toEqual({
      event_type: 'task.status_changed',
      channel: 'tasks',
      timestamp: expect.any(String),
      payload: { n: 2 },
      event_id: expect.any(String),
    });
    expect(Object.keys(event)).toEqual(['event_type', 'channel', 'timestamp', 'payload', 'event_id']);
  });

  it('should apply filters per channel when the client subscribes with them', async () => {
    const client = await connect();
    await client.request({ action: 'subscribe', channels: ['tasks'], filters: { project_id: 'p1' } });
    await client.request({ action: 'subscribe', channels: ['agents'] });
    await bus.publish({ channel: 'tasks', event_type: 'task.created', payload: { project_id: 'p2', n: 1 } });
    await bus.publish({ channel: 'tasks', event_type: 'task.created', payload: { n: 2 } });
    await bus.publish({ channel: 'agents', event_type: 'agent.hired', payload: { n: 3 } });
    await bus.publish({ channel: 'tasks', event_type: 'task.created', payload: { project_id: 'p1', n: 4 } });
    await client.next((m) => (m.payload as { n?: number })?.n === 4);
    expect(client.messages.map((m) => (m.payload as { n: number } | undefined)?.n).filter(Boolean)).toEqual([3, 4]);
  });

  it('should never deliver internal channels to sockets when they are published', async () => {
    const client = await connect();
    expect(await client.request({ action: 'subscribe', channels: ['internal.cache', 'tasks'] })).toEqual({
      action: 'subscribed',
      channels: ['tasks'],
    });
    await bus.publish({ channel: 'internal.cache', event_type: 'cache.invalidated', payload: {} });
    await bus.publish({ channel: 'tasks', event_type: 'task.created', payload: { last: true } });
    const next = await client.next((m) => m.event_type !== undefined);
    expect(next.channel).toBe('tasks');
  });

  it('should withhold the budget channel and redact cost when the client is an observer', async () => {
    const observer = await connect(HumanRole.Observer);
    const ceo = await connect(HumanRole.Ceo);
    expect(await observer.request({ action: 'subscribe', channels: ['budget', 'agents'] })).toEqual({
      action: 'subscribed',
      channels: ['agents'],
    });
    await ceo.request({ action: 'subscribe', channels: ['budget', 'agents'] });
    await bus.publish({ channel: 'budget', event_type: 'budget.spent', payload: { total_cost_usd: 9 } });
    const payload = {
      agent_id: 'a1',
      description: 'API call to model-x (100+20 tokens, $0.0042)',
      cost_usd: 0.0042,
    };
    await bus.publish({ channel: 'agents', event_type: 'agent.activity', payload });
    expect((await ceo.next((m) => m.channel === 'budget')).payload).toEqual({ total_cost_usd: 9 });
    expect((await ceo.next((m) => m.channel === 'agents')).payload).toEqual(payload);
    const redacted = await observer.next((m) => m.event_type !== undefined);
    expect(redacted.channel).toBe('agents');
    expect(redacted.payload).toEqual({ agent_id: 'a1', description: 'API call (100+20 tokens)', cost_usd: null });
  });

  it('should process messages sent before the ticket check completed when it passes', async () => {
    auth.delayMs = 150;
    const client = await openClient(wsUrl(url, auth.issue(HumanRole.Ceo)));
    clients.push(client);
    client.send({ action: 'subscribe', channels: ['tasks'] });
    client.send({ action: 'ping' });
    expect(await client.next()).toEqual({ action: 'subscribed', channels: ['tasks'] });
    expect(await client.next()).toEqual({ action: 'pong' });
  });

  it('should terminate a connection when it stops answering pings', async () => {
    const client = await openClient(wsUrl(url, auth.issue(HumanRole.Ceo)), { autoPong: false });
    clients.push(client);
    const { code } = await withDeadline(client.closed, 'the heartbeat to cut the socket', 3000);
    expect(code).toBe(1006);
  });

  it('should keep a connection open across heartbeats when it answers pings', async () => {
    const client = await connect();
    await quietFor(OPTIONS.heartbeatIntervalMs * 4);
    expect(await client.request({ action: 'ping' })).toEqual({ action: 'pong' });
  });

  it('should close 4003 when the session is revoked', async () => {
    const client = await connect(HumanRole.Manager, 'session-to-revoke');
    const other = await connect(HumanRole.Manager, 'session-kept');
    auth.revoked.add('session-to-revoke');
    const { code } = await withDeadline(client.closed, 'the revocation', 3000);
    expect(code).toBe(4003);
    expect(await other.request({ action: 'ping' })).toEqual({ action: 'pong' });
  });

  it('should fan one event out to many clients, serialising once per audience, when all subscribe', async () => {
    const many = await Promise.all(
      Array.from({ length: 50 }, (_, i) => connect(i % 2 === 0 ? HumanRole.Ceo : HumanRole.BoardMember)),
    );
    await Promise.all(many.map((c) => c.request({ action: 'subscribe', channels: ['tasks'] })));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      await bus.publish({ channel: 'tasks', event_type: 'task.cost', payload: { cost_usd: 1 } });
      const received = await Promise.all(many.map((c) => c.next((m) => m.event_type === 'task.cost')));
      const serverCalls = stringify.mock.calls.filter(([value]) => (value as { event_type?: string })?.event_type);
      expect(serverCalls).toHaveLength(2);
      expect(received.filter((m) => (m.payload as { cost_usd: unknown }).cost_usd === null)).toHaveLength(25);
    } finally {
      stringify.mockRestore();
    }
  });
});

describe('realtime gateway without an authenticator', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startGateway(false));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('should close every connection 4001 when no authenticator is wired', async () => {
    expect(await closeCodeOf(wsUrl(url, 'anything'))).toBe(4001);
  });
});

describe('realtime gateway shutdown', () => {
  it('should close open sockets with 1001 when the application shuts down', async () => {
    const { app, url, auth } = await startGateway(true);
    const client = await openClient(wsUrl(url, auth.issue(HumanRole.Ceo)));
    expect(await client.request({ action: 'ping' })).toEqual({ action: 'pong' });
    expect(app.get(RealtimeGateway).connectionCount).toBe(1);
    await app.close();
    const { code } = await withDeadline(client.closed, 'the shutdown close');
    expect(code).toBe(1001);
  });
});
