import { createHash, createHmac, hkdfSync } from 'node:crypto';

import { ErrorCode, ValidationError } from '@app/domain';

/** Request header carrying the client's key (lower case, as Node exposes headers). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Response header marking an answer replayed from the store. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a completed key answers with its stored response. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An in-flight claim older than this belongs to a request that died with its process. */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000;

/** Methods whose requests honour the key; every other method skips idempotency on its first check. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The header's key, validated: 1–255 visible ASCII characters (400 with 2025 otherwise). */
export function parseIdempotencyKey(raw: string | string[]): string {
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !VISIBLE_ASCII.test(value)) {
    throw new ValidationError(
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`,
      ErrorCode.IdempotencyKeyInvalid,
    );
  }
  return value;
}

/** What a key is bound to: one key on two resources, routes or actors is two independent keys. */
export interface IdempotencyScope {
  actor: string;
  method: string;
  /** The route pattern (`/api/v1/tasks/:task_id`), not the requested path. */
  route: string;
  /** The path parameters: the resource ids. */
  params: Readonly<Record<string, string>>;
  key: string;
}

/** The row id of a scoped key: SHA-256 over an unambiguous encoding, so the raw key is never stored. */
export function idempotencyScopeId(scope: IdempotencyScope): string {
  const params = Object.keys(scope.params)
    .sort()
    .map((name) => [name, scope.params[name]]);
  const encoded = JSON.stringify([scope.actor, scope.method, scope.route, params, scope.key]);
  return createHash('sha256').update(encoded).digest('hex');
}

/** One step of the canonical rendering: text to emit, or a value still to render. */
type RenderStep = { text: string } | { value: unknown };

/**
 * JSON with every object's keys sorted, so two bodies that differ only in key order are the same
 * request. Rendered with a work stack instead of recursion (JSON.stringify with a replacer recurses
 * too), so a deeply nested body cannot exhaust the stack here.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const steps: RenderStep[] = [{ value }];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if ('text' in step) {
      out.push(step.text);
      continue;
    }
    const node = step.value;
    if (node === null || typeof node !== 'object') {
      out.push(JSON.stringify(node ?? null) ?? 'null');
      continue;
    }
    const isArray = Array.isArray(node);
    const names = isArray ? null : Object.keys(node).sort();
    const items: unknown[] = isArray ? node : names!.map((name) => (node as Record<string, unknown>)[name]);
    steps.push({ text: isArray ? ']' : '}' });
    for (let i = items.length - 1; i >= 0; i--) {
      steps.push({ value: items[i] });
      const prefix = (i > 0 ? ',' : '') + (names ? `${JSON.stringify(names[i])}:` : '');
      if (prefix) {
        steps.push({ text: prefix });
      }
    }
    steps.push({ text: isArray ? '[' : '{' });
  }
  return out.join('');
}

/**
 * Fingerprints a request's payload (body and query) for the same-request check. Keyed with a secret
 * derived from the signing secret: bodies carry passwords and provider keys, and a plain hash of them
 * stored for a day could be guessed offline.
 */
export class RequestFingerprinter {
  private readonly key: Buffer;

  constructor(signingSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', signingSecret, 'synthorg', 'idempotency-fingerprint-v1', 32));
  }

  fingerprint(body: unknown, query: unknown): string {
    let canonical: string;
    try {
      canonical = canonicalJson([body ?? null, query ?? {}]);
    } catch {
      throw new ValidationError('Request body cannot be fingerprinted', ErrorCode.RequestValidationError);
    }
    return createHmac('sha256', this.key).update(canonical).digest('hex');
  }
}
