import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';

/** At most this many records are kept per receiver; later ones are counted but not kept. */
const MAX_KEPT = 10_000;

/**
 * A loopback collector of shipped log records: syslog over UDP or TCP (one RFC 5424 message per
 * datagram or line), or HTTP (a JSON array per POST). Bounded: it keeps the first 10,000 records.
 */
export interface LogReceiver {
  readonly port: number;
  /** The JSON records received, in arrival order. */
  records(): Array<Record<string, unknown>>;
  /** Every record received, kept or not. */
  received(): number;
  close(): Promise<void>;
}

class Collected {
  readonly kept: Array<Record<string, unknown>> = [];
  count = 0;

  add(record: Record<string, unknown>): void {
    this.count++;
    if (this.kept.length < MAX_KEPT) {
      this.kept.push(record);
    }
  }

  /** The JSON record of a syslog message (the part after the RFC 5424 header). */
  addSyslog(message: string): void {
    const start = message.indexOf('{');
    if (start >= 0) {
      this.add(JSON.parse(message.slice(start)) as Record<string, unknown>);
    }
  }
}

export async function startUdpReceiver(): Promise<LogReceiver> {
  const collected = new Collected();
  const socket: UdpSocket = createSocket('udp4');
  socket.on('message', (message) => collected.addSyslog(message.toString('utf8')));
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    port: socket.address().port,
    records: () => [...collected.kept],
    received: () => collected.count,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export async function startTcpReceiver(): Promise<LogReceiver> {
  const collected = new Collected();
  const connections = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    connections.add(socket);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => {
      buffer += data;
      let end = buffer.indexOf('\n');
      while (end >= 0) {
        collected.addSyslog(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        end = buffer.indexOf('\n');
      }
    });
    socket.on('close', () => connections.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    records: () => [...collected.kept],
    received: () => collected.count,
    close: async () => {
      connections.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `answer: false`: a dead endpoint that accepts connections and reads requests but never answers. */
export async function startHttpReceiver(options: { answer: boolean } = { answer: true }): Promise<LogReceiver> {
  const collected = new Collected();
  const hanging = new Set<ServerResponse>();
  const server: HttpServer = createHttpServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      (JSON.parse(body) as Array<Record<string, unknown>>).forEach((record) => collected.add(record));
      if (options.answer) {
        res.writeHead(200).end();
      } else {
        hanging.add(res);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    records: () => [...collected.kept],
    received: () => collected.count,
    close: async () => {
      hanging.clear();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Polls `check` until it returns something other than undefined or false; fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
