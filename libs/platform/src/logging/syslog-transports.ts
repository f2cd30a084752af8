import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { connect, type Socket as TcpSocket } from 'node:net';

import { settleWithin } from './sink-destination';
import { reportSinkProblem } from './sink-diagnostics';

/** Carries already-formatted syslog messages to the collector. */
export interface SyslogTransport {
  send(message: string): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface SyslogEndpoint {
  identifier: string;
  host: string;
  port: number;
}

/** Records held while the collector is unreachable; the oldest go first when it overflows. */
const MAX_BACKLOG = 10_000;
/** Largest UDP payload over IPv4; bigger records cannot be sent as one datagram. */
const MAX_DATAGRAM_BYTES = 65_507;
/** Beyond this much unsent TCP data the collector is not keeping up and records are dropped. */
const MAX_SOCKET_BUFFER_BYTES = 16 * 1024 * 1024;
const RETRY_MS = 5_000;
const FLUSH_DEADLINE_MS = 5_000;

function pushBounded(backlog: string[], message: string, identifier: string): void {
  backlog.push(message);
  if (backlog.length > MAX_BACKLOG) {
    backlog.shift();
    reportSinkProblem(identifier, 'collector unreachable, dropping the oldest queued records');
  }
}

/** Polls `done` until it holds or `ms` pass; used only on flush/close, never per record. */
async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) {
    await new Promise<void>((resolve) => setTimeout(resolve, 10).unref());
  }
}

/**
 * One datagram per record on a connected socket: the host name is resolved once (per connect)
 * instead of on every send, and the socket never keeps the process alive.
 */
export class UdpSyslogTransport implements SyslogTransport {
  private socket?: UdpSocket;
  private connecting = false;
  private retryAt = 0;
  private inFlight = 0;
  private closed = false;
  private readonly backlog: string[] = [];

  constructor(private readonly endpoint: SyslogEndpoint) {
    void this.open();
  }

  send(message: string): void {
    if (this.closed) {
      return;
    }
    if (!this.socket) {
      pushBounded(this.backlog, message, this.endpoint.identifier);
      if (!this.connecting && Date.now() >= this.retryAt) {
        void this.open();
      }
      return;
    }
    const payload = Buffer.from(message);
    if (payload.length > MAX_DATAGRAM_BYTES) {
      reportSinkProblem(
        this.endpoint.identifier,
        'record exceeds the UDP datagram limit, dropped',
        `${payload.length} bytes`,
      );
      return;
    }
    this.inFlight++;
    this.socket.send(payload, (error) => {
      this.inFlight--;
      if (error) {
        reportSinkProblem(this.endpoint.identifier, 'UDP send failed', error);
      }
    });
  }

  flush(): Promise<void> {
    return waitUntil(() => !this.connecting && this.inFlight === 0, FLUSH_DEADLINE_MS);
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    await this.flush();
    this.closed = true;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      await settleWithin(new Promise<void>((resolve) => socket.close(() => resolve())), FLUSH_DEADLINE_MS);
    }
  }

  private async open(): Promise<void> {
    this.connecting = true;
    try {
      const { address, family } = await lookup(this.endpoint.host);
      const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
      socket.on('error', (error) => reportSinkProblem(this.endpoint.identifier, 'UDP socket error', error));
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.connect(this.endpoint.port, address, () => {
            socket.off('error', reject);
            resolve();
          });
        });
      } catch (error) {
        socket.close();
        throw error;
      }
      socket.unref();
      this.socket = socket;
      this.backlog.splice(0).forEach((message) => this.send(message));
    } catch (error) {
      this.retryAt = Date.now() + RETRY_MS;
      reportSinkProblem(this.endpoint.identifier, 'cannot reach the syslog collector', error);
    } finally {
      this.connecting = false;
    }
  }
}

/** Newline-framed records (RFC 6587 non-transparent framing) over a reconnecting TCP connection. */
export class TcpSyslogTransport implements SyslogTransport {
  private socket?: TcpSocket;
  private connected = false;
  private closed = false;
  private attempts = 0;
  private reconnectTimer?: NodeJS.Timeout;
  private readonly backlog: string[] = [];

  constructor(private readonly endpoint: SyslogEndpoint) {
    this.open();
  }

  send(message: string): void {
    if (this.closed) {
      return;
    }
    const framed = `${message}\n`;
    if (!this.connected || !this.socket) {
      pushBounded(this.backlog, framed, this.endpoint.identifier);
      return;
    }
    if (this.socket.writableLength > MAX_SOCKET_BUFFER_BYTES) {
      reportSinkProblem(this.endpoint.identifier, 'collector is not keeping up, dropping records');
      return;
    }
    this.socket.write(framed);
  }

  async flush(): Promise<void> {
    if (this.backlog.length > 0) {
      await waitUntil(() => this.connected || this.closed, FLUSH_DEADLINE_MS);
    }
    const socket = this.socket;
    if (this.connected && socket) {
      // The callback of an empty write runs once everything queued before it has been handed to the kernel.
      await settleWithin(new Promise<void>((resolve) => socket.write('', () => resolve())), FLUSH_DEADLINE_MS);
    }
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    await this.flush();
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    // A connection still being attempted has nothing to flush, so it is torn down at once.
    if (socket && this.connected) {
      await settleWithin(new Promise<void>((resolve) => socket.end(() => resolve())), FLUSH_DEADLINE_MS);
    }
    socket?.destroy();
  }

  private open(): void {
    const socket = connect({ host: this.endpoint.host, port: this.endpoint.port });
    this.socket = socket;
    socket.unref();
    socket.setKeepAlive(true, 30_000);
    socket.on('connect', () => {
      this.connected = true;
      this.attempts = 0;
      for (const framed of this.backlog.splice(0)) {
        socket.write(framed);
      }
    });
    socket.on('error', (error) => reportSinkProblem(this.endpoint.identifier, 'TCP connection error', error));
    socket.on('close', () => {
      this.connected = false;
      if (this.socket === socket) {
        this.socket = undefined;
      }
      if (!this.closed) {
        this.scheduleReconnect();
      }
    });
  }

  private scheduleReconnect(): void {
    const delay = Math.min(500 * 2 ** this.attempts, 30_000);
    this.attempts++;
    this.reconnectTimer = setTimeout(() => this.open(), delay);
    this.reconnectTimer.unref();
  }
}
