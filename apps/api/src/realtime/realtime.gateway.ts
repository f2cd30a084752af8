import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import {
  type BeforeApplicationShutdown,
  Inject,
  type OnApplicationBootstrap,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { type OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';
import type { Logger } from 'pino';
import { type RawData, WebSocket } from 'ws';

import {
  assertNever,
  isInternalChannel,
  isReadOnlyRole,
  Permission,
  roleHasPermission,
  ServiceUnavailableError,
} from '@app/domain';
import {
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  LogThrottle,
  type ReceivedEvent,
  ServiceMetrics,
  WsAuthenticator,
  type WsPrincipal,
} from '@app/platform';

import { parseClientMessage } from './client-message';
import { EventFrames } from './event-frames';
import { REALTIME_OPTIONS, type RealtimeOptions, WS_LIMITS, WS_PATH, WsCloseCode } from './realtime.constants';
import {
  activeChannels,
  applySubscribe,
  applyUnsubscribe,
  type ChannelSubscriptions,
  matchesFilters,
} from './subscriptions';

interface Connection {
  id: string;
  socket: WebSocket;
  remoteAddress: string | null;
  connectedAt: number;
  /** Null until the ticket has been consumed: nothing is processed or delivered before. */
  principal: WsPrincipal | null;
  readOnly: boolean;
  subscriptions: ChannelSubscriptions;
  /** Messages received while the ticket was being checked, handled in order once it passes. */
  queued: RawData[] | null;
  /** Cleared when a ping goes out, set again by the pong. */
  alive: boolean;
}

type Refusal = { code: number; reason: string; log: string };

/**
 * The realtime gateway (`/api/v1/ws?ticket=…`). The one-time ticket is consumed before anything else;
 * then clients subscribe to channels and receive the domain events published on them, from this
 * replica or (on Postgres) any other. The wire protocol is plain JSON frames with an `action` field,
 * handled here directly rather than through Nest's `{event, data}` message routing.
 */
@WebSocketGateway({ path: WS_PATH, maxPayload: WS_LIMITS.maxFrameBytes })
export class RealtimeGateway
  implements OnGatewayConnection<WebSocket>, OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly connections = new Set<Connection>();
  /** channel → authenticated connections subscribed to it: fan-out touches only the interested ones. */
  private readonly byChannel = new Map<string, Set<Connection>>();
  private readonly log: Logger;
  /** Refused connections are logged at most once a minute per client address and close code. */
  private readonly refusals = new LogThrottle();
  private readonly pendingEvents: ReceivedEvent[] = [];
  private flushScheduled = false;
  private stopListening: (() => void) | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private revalidateTimer: NodeJS.Timeout | null = null;
  private shuttingDown = false;

  constructor(
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    @Inject(REALTIME_OPTIONS) private readonly options: RealtimeOptions,
    private readonly moduleRef: ModuleRef,
    private readonly metrics: ServiceMetrics,
    @Optional() private authenticator?: WsAuthenticator,
  ) {
    this.log = logging.forName('api.ws');
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  onModuleInit(): void {
    this.metrics.onScrape('ws.connections', () => this.metrics.websocketConnections.set(this.connections.size));
    this.stopListening = this.bus.subscribe((event) => this.enqueueEvent(event));
    this.heartbeatTimer = setInterval(() => this.heartbeat(), this.options.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
    this.revalidateTimer = setInterval(() => void this.revalidateSessions(), this.options.sessionRevalidateMs);
    this.revalidateTimer.unref();
  }

  /**
   * The accounts module may provide the authenticator from a module this one does not import; the
   * app-wide lookup finds it anyway. Absent everywhere, every connection is refused (4001).
   */
  onApplicationBootstrap(): void {
    if (this.authenticator) {
      return;
    }
    try {
      this.authenticator = this.moduleRef.get(WsAuthenticator, { strict: false });
    } catch {
      this.log.warn({}, 'api.ws.authenticator_missing');
    }
  }

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    const connection: Connection = {
      id: randomUUID(),
      socket,
      remoteAddress: request.socket.remoteAddress ?? null,
      connectedAt: Date.now(),
      principal: null,
      readOnly: true,
      subscriptions: new Map(),
      queued: [],
      alive: true,
    };
    this.connections.add(connection);
    socket.on('message', (data: RawData) => this.onMessage(connection, data));
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.once('close', (code: number) => this.onClose(connection, code));
    if (this.shuttingDown) {
      socket.close(WsCloseCode.GoingAway, 'Server shutting down');
      return;
    }
    this.authenticate(connection, ticketOf(request)).catch((error: unknown) => {
      this.log.error({ connection_id: connection.id, err: error }, 'api.ws.auth_failed');
      this.refuse(connection, {
        code: WsCloseCode.InternalError,
        reason: 'Internal error',
        log: 'ticket check failed',
      });
    });
  }

  /** Shutdown: stop taking events, close every socket with 1001 and give clients a moment to answer. */
  async beforeApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    this.stopListening?.();
    this.stopListening = null;
    for (const timer of [this.heartbeatTimer, this.revalidateTimer]) {
      if (timer) {
        clearInterval(timer);
      }
    }
    const closing = [...this.connections].map(
      (connection) =>
        new Promise<void>((resolve) => {
          if (connection.socket.readyState === WebSocket.CLOSED) {
            resolve();
            return;
          }
          connection.socket.once('close', () => resolve());
          connection.socket.close(WsCloseCode.GoingAway, 'Server shutting down');
        }),
    );
    if (closing.length > 0) {
      await Promise.race([Promise.all(closing), delay(this.options.closeGraceMs)]);
    }
  }

  private async authenticate(connection: Connection, ticket: string | null): Promise<void> {
    const authenticator = this.authenticator;
    if (!authenticator) {
      this.refuse(connection, { code: WsCloseCode.Unauthorized, reason: 'Unauthorized', log: 'no authenticator' });
      return;
    }
    if (!ticket) {
      this.refuse(connection, { code: WsCloseCode.Unauthorized, reason: 'Unauthorized', log: 'missing ticket' });
      return;
    }
    const principal = await withTimeout(authenticator.consumeTicket(ticket), this.options.authTimeoutMs);
    if (connection.socket.readyState !== WebSocket.OPEN) {
      // The client went away while the ticket was checked; the close handler has cleaned up.
      return;
    }
    if (!principal) {
      this.refuse(connection, {
        code: WsCloseCode.Unauthorized,
        reason: 'Unauthorized',
        log: 'invalid, expired or used ticket',
      });
      return;
    }
    if (!roleHasPermission(principal.role, Permission.Read)) {
      this.refuse(connection, { code: WsCloseCode.Forbidden, reason: 'Forbidden', log: 'role lacks read' }, principal);
      return;
    }
    connection.principal = principal;
    connection.readOnly = isReadOnlyRole(principal.role);
    this.log.info(
      {
        connection_id: connection.id,
        user_id: principal.userId,
        username: principal.username,
        role: principal.role,
        remote_address: connection.remoteAddress,
      },
      'api.ws.connected',
    );
    const queued = connection.queued ?? [];
    connection.queued = null;
    for (const data of queued) {
      this.handleMessage(connection, data);
    }
  }

  private refuse(connection: Connection, refusal: Refusal, principal?: WsPrincipal): void {
    // A client that reconnects without a ticket once a second is logged once a minute per address,
    // with the count of refusals the line stands for; the ticket is a credential: never logged.
    const logged = this.refusals.admit(`${connection.remoteAddress ?? 'unknown'} ${refusal.code}`);
    if (logged) {
      this.log.warn(
        {
          connection_id: connection.id,
          close_code: refusal.code,
          reason: refusal.log,
          user_id: principal?.userId,
          role: principal?.role,
          remote_address: connection.remoteAddress,
          ...(logged.repeated > 0 ? { repeated: logged.repeated } : {}),
        },
        'api.ws.refused',
      );
    }
    connection.queued = null;
    if (connection.socket.readyState === WebSocket.OPEN) {
      connection.socket.close(refusal.code, refusal.reason);
    }
  }

  private onMessage(connection: Connection, data: RawData): void {
    if (connection.principal === null) {
      if (connection.queued && connection.queued.length < WS_LIMITS.maxQueuedBeforeAuth) {
        connection.queued.push(data);
      }
      return;
    }
    this.handleMessage(connection, data);
  }

  private handleMessage(connection: Connection, data: RawData): void {
    const principal = connection.principal;
    if (!principal) {
      return;
    }
    const buffer = toBuffer(data);
    const parsed = parseClientMessage(
      buffer.byteLength > WS_LIMITS.maxMessageBytes ? '' : buffer.toString('utf8'),
      buffer.byteLength,
    );
    if (!parsed.ok) {
      this.reply(connection, { error: parsed.error });
      return;
    }
    const message = parsed.message;
    switch (message.action) {
      case 'ping':
        this.reply(connection, { action: 'pong' });
        return;
      case 'subscribe':
        for (const channel of applySubscribe(
          connection.subscriptions,
          message.channels,
          message.filters,
          principal.role,
        )) {
          this.indexFor(channel).add(connection);
        }
        this.reply(connection, { action: 'subscribed', channels: activeChannels(connection.subscriptions) });
        return;
      case 'unsubscribe':
        for (const channel of applyUnsubscribe(connection.subscriptions, message.channels)) {
          this.byChannel.get(channel)?.delete(connection);
        }
        this.reply(connection, { action: 'unsubscribed', channels: activeChannels(connection.subscriptions) });
        return;
      default:
        return assertNever(message);
    }
  }

  private reply(connection: Connection, body: Record<string, unknown>): void {
    if (connection.socket.readyState === WebSocket.OPEN) {
      connection.socket.send(JSON.stringify(body));
    }
  }

  private indexFor(channel: string): Set<Connection> {
    let set = this.byChannel.get(channel);
    if (!set) {
      set = new Set();
      this.byChannel.set(channel, set);
    }
    return set;
  }

  private onClose(connection: Connection, code: number): void {
    this.connections.delete(connection);
    for (const channel of connection.subscriptions.keys()) {
      this.byChannel.get(channel)?.delete(connection);
    }
    connection.queued = null;
    if (connection.principal) {
      this.log.info(
        {
          connection_id: connection.id,
          user_id: connection.principal.userId,
          close_code: code,
          duration_ms: Date.now() - connection.connectedAt,
        },
        'api.ws.disconnected',
      );
    }
  }

  /**
   * Bus listeners run inside the publisher's call; fan-out is deferred to the next turn of the event
   * loop so a publisher never pays for a thousand socket writes. Order is kept.
   */
  private enqueueEvent(event: ReceivedEvent): void {
    if (isInternalChannel(event.channel) || !this.byChannel.get(event.channel)?.size) {
      return;
    }
    this.pendingEvents.push(event);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flushEvents());
    }
  }

  private flushEvents(): void {
    this.flushScheduled = false;
    const events = this.pendingEvents.splice(0);
    for (const event of events) {
      try {
        this.fanOut(event);
      } catch (error) {
        this.log.warn({ channel: event.channel, event_type: event.event_type, err: error }, 'api.ws.fanout_failed');
      }
    }
  }

  private fanOut(event: ReceivedEvent): void {
    const subscribers = this.byChannel.get(event.channel);
    if (!subscribers || subscribers.size === 0) {
      return;
    }
    const frames = new EventFrames(event);
    for (const connection of subscribers) {
      if (!matchesFilters(connection.subscriptions.get(event.channel) ?? null, event.payload)) {
        continue;
      }
      const socket = connection.socket;
      if (socket.readyState !== WebSocket.OPEN) {
        continue;
      }
      if (socket.bufferedAmount > WS_LIMITS.maxBufferedBytes) {
        this.log.warn(
          {
            connection_id: connection.id,
            user_id: connection.principal?.userId,
            buffered_bytes: socket.bufferedAmount,
          },
          'api.ws.slow_consumer_dropped',
        );
        socket.terminate();
        continue;
      }
      socket.send(connection.readOnly ? frames.forReadOnly() : frames.forFullAccess());
    }
  }

  /** One timer for all sockets: a connection that missed the previous pong is gone. */
  private heartbeat(): void {
    for (const connection of this.connections) {
      const socket = connection.socket;
      if (socket.readyState !== WebSocket.OPEN) {
        continue;
      }
      if (!connection.alive) {
        this.log.warn(
          { connection_id: connection.id, user_id: connection.principal?.userId },
          'api.ws.heartbeat_missed',
        );
        socket.terminate();
        continue;
      }
      connection.alive = false;
      socket.ping();
    }
  }

  /** Revoked or expired sessions lose their sockets (4003); one check per session, not per socket. */
  private async revalidateSessions(): Promise<void> {
    const authenticator = this.authenticator;
    if (!authenticator) {
      return;
    }
    const bySession = new Map<string, Connection[]>();
    for (const connection of this.connections) {
      if (connection.principal) {
        const list = bySession.get(connection.principal.sessionId) ?? [];
        list.push(connection);
        bySession.set(connection.principal.sessionId, list);
      }
    }
    for (const [sessionId, connections] of bySession) {
      let active: boolean;
      try {
        active = await authenticator.isSessionActive(sessionId);
      } catch (error) {
        // An outage is not a revocation: keep the sockets and look again next round.
        this.log.warn({ err: error }, 'api.ws.session_check_failed');
        continue;
      }
      if (active) {
        continue;
      }
      for (const connection of connections) {
        this.log.info(
          { connection_id: connection.id, user_id: connection.principal?.userId },
          'api.ws.session_revoked',
        );
        if (connection.socket.readyState === WebSocket.OPEN) {
          connection.socket.close(WsCloseCode.Forbidden, 'Session revoked');
        }
      }
    }
  }
}

/** The `ticket` query parameter; the URL itself is never logged. */
export function ticketOf(request: IncomingMessage): string | null {
  try {
    const ticket = new URL(request.url ?? '', 'ws://localhost').searchParams.get('ticket');
    return ticket && ticket.length > 0 ? ticket : null;
  } catch {
    return null;
  }
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) {
    return data;
  }
  if (Array.isArray(data)) {
    return Buffer.concat(data);
  }
  return Buffer.from(data);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ServiceUnavailableError('WebSocket ticket check timed out')), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
