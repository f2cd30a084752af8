import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a host received it: everything a credential could travel in. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoopbackHost {
  url: string;
  hostPort: string;
  received: ReceivedRequest[];
  /** Every byte a host was sent, headers and bodies, as one text to search for secrets. */
  seen(): string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<{ url: string; hostPort: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}` };
}

function host(answer: (req: IncomingMessage, res: ServerResponse, self: LoopbackHost) => void): Promise<LoopbackHost> {
  const received: ReceivedRequest[] = [];
  const self = { received } as LoopbackHost;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks).toString() });
      answer(req, res, self);
    });
  });
  return listen(server).then(({ url, hostPort }) =>
    Object.assign(self, {
      url,
      hostPort,
      seen: () => JSON.stringify(received),
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    }),
  );
}

/**
 * A host someone would like the service to send its stored credentials to: it records every
 * request and answers like a provider that knows nothing (a token endpoint hands out a token).
 */
export function startTrapHost(): Promise<LoopbackHost> {
  return host((req, res) => {
    const token = (req.url ?? '').includes('token');
    res.writeHead(token ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(token ? { access_token: 'trap-token', expires_in: 3600 } : { error: 'not here' }));
  });
}

/** A host that answers every request with `status` to the same path on `target` (another origin). */
export function startRedirectHost(target: () => string, status = 307): Promise<LoopbackHost> {
  return host((req, res) => {
    res.writeHead(status, { location: `${target()}${req.url ?? '/'}`, 'content-type': 'text/plain' });
    res.end('moved');
  });
}
