import WebSocket, { type ClientOptions } from 'ws';

export interface WsTestClient {
  ws: WebSocket;
  /** Every parsed frame received so far. */
  messages: Array<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
  send(body: unknown): void;
  /** Waits (bounded) for the first frame, received from now on or already buffered past `from`, that matches. */
  next(match?: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Sends and waits for the next frame. */
  request(body: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 5000;

export function wsUrl(httpUrl: string, ticket?: string | null): string {
  const base = httpUrl.replace(/^http/, 'ws') + '/api/v1/ws';
  return ticket === undefined || ticket === null ? base : `${base}?ticket=${encodeURIComponent(ticket)}`;
}

/** Opens a socket; resolves once it is open (or already closed by the server). */
export async function openClient(url: string, options: ClientOptions = {}): Promise<WsTestClient> {
  const ws = new WebSocket(url, options);
  const messages: Array<Record<string, unknown>> = [];
  let cursor = 0;
  const waiters: Array<() => void> = [];
  ws.on('message', (data: WebSocket.RawData) => {
    const text = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    messages.push(JSON.parse(text.toString('utf8')) as Record<string, unknown>);
    waiters.splice(0).forEach((wake) => wake());
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code: number, reason: Buffer) => {
      resolve({ code, reason: reason.toString() });
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  ws.on('error', () => undefined);
  await new Promise<void>((resolve) => {
    ws.once('open', () => resolve());
    ws.once('close', () => resolve());
  });
  const next = async (
    match: (m: Record<string, unknown>) => boolean = () => true,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (cursor < messages.length) {
        const message = messages[cursor++];
        if (match(message)) {
          return message;
        }
      }
      if (ws.readyState === WebSocket.CLOSED) {
        throw new Error('socket closed while waiting for a message');
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error('timed out waiting for a message');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    ws,
    messages,
    closed,
    next,
    send: (body) => ws.send(typeof body === 'string' ? body : JSON.stringify(body)),
    request: (body) => {
      ws.send(typeof body === 'string' ? body : JSON.stringify(body));
      return next();
    },
    close: async () => {
      if (ws.readyState !== WebSocket.CLOSED) {
        ws.close();
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
      }
    },
  };
}

/** The close code of a connection the server is expected to refuse. */
export async function closeCodeOf(url: string): Promise<number> {
  const client = await openClient(url);
  const { code } = await withDeadline(client.closed, 'the server to close the socket');
  return code;
}

export async function withDeadline<T>(promise: Promise<T>, what: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves after `ms`; used to show that nothing arrives. */
export function quietFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
