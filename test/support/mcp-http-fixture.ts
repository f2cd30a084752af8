import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { buildFixtureServer } from './mcp-fixture-server';

/** A loopback HTTP server for the tests: its URL, the headers of every request it saw, and close(). */
export interface LoopbackServer {
  url: string;
  origin: string;
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

function listen(server: Server, headers: IncomingHttpHeaders[], path: string): Promise<LoopbackServer> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        url: `${origin}${path}`,
        origin,
        headers,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** The fixture MCP server over Streamable HTTP (stateless: a fresh server per request) at `/mcp`. */
export function startMcpHttpFixture(): Promise<LoopbackServer> {
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    headers.push(req.headers);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = buildFixtureServer();
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        res.statusCode = 500;
        res.end();
      });
  });
  return listen(server, headers, '/mcp');
}

/** Answers every request with a redirect to `target`; records the headers it saw. */
export function startRedirector(target: string, status = 307): Promise<LoopbackServer> {
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    headers.push(req.headers);
    res.writeHead(status, { location: target });
    res.end();
  });
  return listen(server, headers, '/mcp');
}

/** Records the headers of every request and answers 404. */
export function startSink(): Promise<LoopbackServer> {
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    headers.push(req.headers);
    res.writeHead(404);
    res.end();
  });
  return listen(server, headers, '/mcp');
}
