import { Injectable } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';

import { ErrorCode, ValidationError } from '@app/domain';
import type { ActorContext } from '@app/platform';

import { AuditTrail } from '../audit';
import { MessagePosting } from '../messages';
import { buildServiceMcpServer, type SelfApi } from './service-mcp-server';

const API_PREFIX = '/api/v1';

/**
 * Serves one MCP request (stateless: a fresh server and transport per request, answered as JSON).
 * The tools call the REST API on this same listener with the caller's own token, so each answers
 * exactly as the route would answer that person: validation, role, rate limit.
 */
@Injectable()
export class ServiceMcpEndpoint {
  constructor(
    private readonly trail: AuditTrail,
    private readonly posting: MessagePosting,
  ) {}

  async handle(actor: ActorContext, req: Request, res: Response): Promise<void> {
    assertJsonRpc(req.body);
    // Answers are JSON whatever the client accepts; the transport insists on both being named.
    req.headers.accept = 'application/json, text/event-stream';
    const server = buildServiceMcpServer({ actor, api: selfApi(req), trail: this.trail, posting: this.posting });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }
}

/**
 * A request the transport would refuse is refused here, in the API's own error envelope (2902): one
 * JSON-RPC message, or a non-empty batch of them, each naming version 2.0 and a method or a result.
 */
function assertJsonRpc(body: unknown): void {
  const messages = Array.isArray(body) ? body : [body];
  const valid =
    messages.length > 0 &&
    messages.every((message) => {
      if (typeof message !== 'object' || message === null) {
        return false;
      }
      const m = message as Record<string, unknown>;
      return m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'result' in m || 'error' in m);
    });
  if (!valid) {
    throw new ValidationError(
      'the body must be a JSON-RPC 2.0 message (or a batch of them) with a method',
      ErrorCode.McpRequestInvalid,
    );
  }
}

/** The API on the listener the request came in on, called with the request's own Authorization. */
function selfApi(req: Request): SelfApi {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  const base = `http://${host}:${req.socket.localPort}${API_PREFIX}`;
  const authorization = req.headers.authorization ?? '';
  return {
    async request(method, path, body) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'manual',
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        parsed = { error: text.slice(0, 500) };
      }
      return { status: response.status, body: parsed };
    },
  };
}
