/** The HTTP server: records requests, routes them to a protocol, and shuts down without waiting on clients. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers';

import { handleAnthropic, sendAnthropicError } from './anthropic';
import type { MockSettings, ProtocolHandler, RequestContext } from './context';
import { flattenHeaders, parseJson, readBody, sendJson } from './http';
import { handleOllama, sendOllamaError } from './ollama';
import { handleOpenAi, sendOpenAiError } from './openai';
import { parseScript, ScriptError } from './script';
import { DEFAULT_MODELS, MockState } from './state';
import type { MockLlm, MockLlmOptions, MockRoute, ReplyBody } from './types';

/** Prefix of the control routes (never recorded, never authenticated). */
const CONTROL_PREFIX = '/__mock/';

/** Longest wait for the listener to close once every socket has been destroyed. */
const CLOSE_GRACE_MS = 500;

function handleControl(ctx: RequestContext): boolean {
  switch (`${ctx.method} ${ctx.path}`) {
    case 'POST /__mock/script':
      try {
        const replies = parseScript(ctx.body);
        ctx.state.enqueue(replies);
        sendJson(ctx.res, 200, { queued: replies.length });
      } catch (error) {
        if (!(error instanceof ScriptError)) {
          throw error;
        }
        sendJson(ctx.res, 400, { error: error.message });
      }
      return true;
    case 'POST /__mock/reset':
      ctx.state.reset();
      sendJson(ctx.res, 200, { ok: true });
      return true;
    case 'GET /__mock/requests':
      sendJson(ctx.res, 200, ctx.state.requests);
      return true;
    default:
      return false;
  }
}

/** The protocol serving a path, and how it says "not found". */
function protocolFor(path: string): { handle: ProtocolHandler; notFound: (res: ServerResponse) => void } {
  const message = `Not found: ${path}`;
  if (path.startsWith(CONTROL_PREFIX)) {
    return { handle: handleControl, notFound: (res) => sendJson(res, 404, { error: message }) };
  }
  if (path === '/v1' || path.startsWith('/v1/')) {
    return { handle: handleOpenAi, notFound: (res) => sendOpenAiError(res, 404, message) };
  }
  if (path === '/anthropic' || path.startsWith('/anthropic/')) {
    return { handle: handleAnthropic, notFound: (res) => sendAnthropicError(res, 404, message) };
  }
  return { handle: handleOllama, notFound: (res) => sendOllamaError(res, 404, message) };
}

/** The requests each scripted route answers, on every protocol. */
const ROUTES: Readonly<Record<string, MockRoute>> = {
  'POST /v1/chat/completions': 'chat',
  'POST /anthropic/v1/messages': 'chat',
  'POST /api/chat': 'chat',
  'GET /v1/models': 'models',
  'GET /anthropic/v1/models': 'models',
  'GET /api/tags': 'models',
  'POST /api/pull': 'pull',
};

function routeOf(method: string, path: string): MockRoute | null {
  return ROUTES[`${method} ${path}`] ?? null;
}

async function handleRequest(
  req: IncomingMessage,
  res: ServerResponse,
  state: MockState,
  settings: MockSettings,
): Promise<void> {
  const method = req.method ?? 'GET';
  const path = new URL(req.url ?? '/', 'http://mock.invalid').pathname;
  const headers = flattenHeaders(req);
  const body = parseJson(await readBody(req));
  if (!path.startsWith(CONTROL_PREFIX)) {
    state.record({ method, path, headers, body });
  }
  const route = routeOf(method, path);
  const delayed = route === null ? undefined : state.takeDelayed(route);
  let scoped = state;
  if (delayed && route !== null) {
    await new Promise((resolve) => delay(resolve, delayed.delayMs));
    // This request is answered with the reply it took on arrival; any other take goes to the queue.
    let pending: ReplyBody | undefined = delayed.body;
    scoped = Object.create(state, {
      take: {
        value: (wanted: MockRoute): ReplyBody | undefined => {
          if (wanted === route && pending) {
            const reply = pending;
            pending = undefined;
            return reply;
          }
          return state.take(wanted);
        },
      },
    }) as MockState;
  }
  const protocol = protocolFor(path);
  if (!protocol.handle({ method, path, headers, body, res, state: scoped, settings })) {
    protocol.notFound(res);
  }
}

function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Starts a fake OpenAI / Anthropic / Ollama provider on loopback (ephemeral port by default). */
export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const state = new MockState(options.models ?? DEFAULT_MODELS);
  const settings: MockSettings = {
    apiKey: options.apiKey ?? null,
    pullSteps: options.pullSteps ?? 5,
    pullStepDelayMs: options.pullStepDelayMs ?? 10,
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handleRequest(req, res, state, settings).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      } else {
        res.destroy();
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: urlOf(address),
    port: address.port,
    models: () => state.models(),
    enqueue: (...replies) => state.enqueue(replies),
    reset: () => state.reset(),
    requests: state.requests,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        const grace = delay(resolve, CLOSE_GRACE_MS);
        grace.unref();
        server.close(() => {
          clearTimeout(grace);
          resolve();
        });
        for (const socket of sockets) {
          socket.destroy();
        }
      });
      return closing;
    },
  };
}
