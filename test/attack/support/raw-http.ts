import { Agent, request } from 'node:http';

/** A request as sent on the wire: the path is raw (neither normalised nor re-encoded), the body is bytes. */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * Sends one request with node:http, which (unlike fetch or supertest) keeps `../`, `%00` and
 * malformed escapes in the path exactly as given.
 */
export function send(baseUrl: string, req: RawRequest, timeoutMs = 30_000): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
  const headers: Record<string, string> = { ...req.headers };
  if (body && !req.chunked) {
    headers['Content-Length'] = String(body.length);
  }
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { agent, host: url.hostname, port: url.port, method: req.method, path: req.path, headers, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? (JSON.parse(text) as unknown) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    if (body && req.chunked) {
      // Two chunks, so the server really has to reassemble the body.
      const half = Math.floor(body.length / 2);
      outgoing.write(body.subarray(0, half));
      outgoing.end(body.subarray(half));
    } else {
      outgoing.end(body);
    }
  });
}

/** Runs `work` over `items` with at most `width` in flight, keeping the order of the results. */
export async function inBatches<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  });
  await Promise.all(lanes);
  return results;
}

const CATEGORY_BY_BAND: Record<string, string> = {
  '1': 'auth',
  '2': 'validation',
  '3': 'not_found',
  '4': 'conflict',
  '5': 'rate_limit',
  '6': 'budget_exhausted',
  '7': 'provider_error',
  '8': 'internal',
};

const DETAIL_FIELDS = [
  'detail',
  'error_code',
  'error_category',
  'retryable',
  'retry_after',
  'instance',
  'title',
  'type',
];

/**
 * What is wrong with an error answer, or null when it is the spec's error envelope:
 * `{data: null, error, error_detail: {detail, error_code, error_category, retryable, retry_after,
 * instance, title, type}, success: false}` with a 4-digit code in its category's band.
 */
export function errorBodyProblem(answer: RawAnswer): string | null {
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) {
    return `content type ${type || 'missing'}`;
  }
  const body = answer.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') {
    return 'body is not a JSON object';
  }
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'data,error,error_detail,success') {
    return `envelope keys ${keys}`;
  }
  if (body.data !== null || body.success !== false || typeof body.error !== 'string') {
    return 'envelope data/success/error';
  }
  const detail = body.error_detail as Record<string, unknown> | null;
  if (!detail || typeof detail !== 'object') {
    return 'error_detail missing';
  }
  const missing = DETAIL_FIELDS.filter((f) => !(f in detail));
  if (missing.length > 0) {
    return `error_detail lacks ${missing.join(',')}`;
  }
  const code = detail.error_code;
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 1000 || code > 8999) {
    return `error_code ${String(code)}`;
  }
  if (detail.error_category !== CATEGORY_BY_BAND[String(code)[0]]) {
    return `category ${String(detail.error_category)} for code ${code}`;
  }
  if (
    typeof detail.detail !== 'string' ||
    typeof detail.retryable !== 'boolean' ||
    !(detail.retry_after === null || typeof detail.retry_after === 'number') ||
    typeof detail.instance !== 'string' ||
    typeof detail.title !== 'string' ||
    typeof detail.type !== 'string'
  ) {
    return 'error_detail field types';
  }
  return null;
}
