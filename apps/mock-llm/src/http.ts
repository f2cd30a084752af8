/** Small helpers over node:http for JSON, SSE and NDJSON answers. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Largest request body the mock accepts (it only ever sees test prompts). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Reads the whole request body as UTF-8 text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Parses a body as JSON; null when empty or malformed. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') {
    return null;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Node's lower-case header map flattened to single strings. */
export function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return headers;
}

/** Sends one JSON document. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends a 200 with no body (Ollama's delete answer). */
export function sendEmpty(res: ServerResponse): void {
  res.writeHead(200, { 'content-length': 0 });
  res.end();
}

/** Starts a server-sent-events answer. */
export function startSse(res: ServerResponse, headers: OutgoingHttpHeaders = {}): void {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/** Writes one SSE frame; `event` is omitted for OpenAI-style data-only frames. */
export function writeSse(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`);
}

/** Starts a newline-delimited JSON answer. */
export function startNdjson(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
}

/** Writes one NDJSON line. */
export function writeNdjson(res: ServerResponse, data: unknown): void {
  res.write(`${JSON.stringify(data)}\n`);
}

/** A random lower-case hex id suffix. */
export function randomId(bytes = 12): string {
  return randomBytes(bytes).toString('hex');
}

/** Seconds since the epoch, as OpenAI timestamps are. */
export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
