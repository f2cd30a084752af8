/** Replacement written in place of a sensitive value. */
export const REDACTED = '**REDACTED**';

/**
 * Key fragments whose values are redacted: a key matches when, lower-cased and with `_`/`-` removed,
 * it contains one of these. So `access_token`, `jwt_secret`, `Authorization`, `x-api-key`, `apiKey`,
 * `privateKey` and `session_id` all match (the settings spec lists `session`, and a session id is a
 * bearer credential for as long as the session lives).
 */
export const SENSITIVE_KEY_FRAGMENTS: readonly string[] = [
  'password',
  'secret',
  'token',
  'apikey',
  'apisecret',
  'authorization',
  'credential',
  'privatekey',
  'bearer',
  'session',
];

const CIRCULAR = '[Circular]';
const KEY_CACHE_LIMIT = 4096;
// Records reuse a small vocabulary of keys, so the verdict per key is memoised.
const keyVerdicts = new Map<string, boolean>();

export function isSensitiveKey(key: string): boolean {
  const cached = keyVerdicts.get(key);
  if (cached !== undefined) {
    return cached;
  }
  const folded = key.toLowerCase().replace(/[-_]/g, '');
  const verdict = SENSITIVE_KEY_FRAGMENTS.some((fragment) => folded.includes(fragment));
  if (keyVerdicts.size >= KEY_CACHE_LIMIT) {
    keyVerdicts.clear();
  }
  keyVerdicts.set(key, verdict);
  return verdict;
}

/**
 * Numbers and booleans under a sensitive key are kept: they cannot carry a credential in this
 * service, and LLM token accounting (`input_tokens`, `max_tokens`, `session_count`) must survive.
 * null/undefined carry nothing. Everything else (strings, objects, arrays) is replaced wholesale.
 */
function mask(value: unknown): unknown {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  return REDACTED;
}

/**
 * Returns `value` with every sensitive key's value replaced by {@link REDACTED}, at any depth of plain
 * objects, arrays and Errors (Errors become plain `{type, message, stack, ...}` objects, as pino's
 * serializer would render them). The input is never mutated: unchanged sub-trees are returned by
 * reference and changed ones are copied, so a record without sensitive keys costs one key scan.
 * Class instances other than Errors are left alone (their rendering is up to serializers/toJSON);
 * cycles are cut with "[Circular]".
 */
export function redact<T>(value: T): T {
  return redactValue(value, []) as T;
}

function redactValue(value: unknown, ancestors: object[]): unknown {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (ancestors.includes(value)) {
    return CIRCULAR;
  }
  if (value instanceof Error) {
    return redactError(value, ancestors);
  }
  if (Array.isArray(value)) {
    return redactArray(value, ancestors);
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    return value;
  }
  return redactObject(value as Record<string, unknown>, ancestors);
}

function redactArray(source: readonly unknown[], ancestors: object[]): unknown[] {
  let copy: unknown[] | undefined;
  ancestors.push(source);
  for (let i = 0; i < source.length; i++) {
    const next = redactValue(source[i], ancestors);
    if (next !== source[i]) {
      copy ??= [...source];
      copy[i] = next;
    }
  }
  ancestors.pop();
  return copy ?? (source as unknown[]);
}

/**
 * Redaction for a whole log record (pino's formatters.log). Same as {@link redact}, except that an
 * Error under `errorKey` stays Error-shaped (a redacted copy with the same prototype), because pino
 * runs the `err` serializer after this step and serializers (ours, pino-http's) expect an Error.
 */
export function redactRecord(record: Record<string, unknown>, errorKey = 'err'): Record<string, unknown> {
  return redactObject(record, [], errorKey);
}

function redactObject(
  source: Record<string, unknown>,
  ancestors: object[],
  errorKey?: string,
): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  ancestors.push(source);
  for (const key of Object.keys(source)) {
    const original = source[key];
    let next: unknown;
    if (isSensitiveKey(key)) {
      next = mask(original);
    } else if (key === errorKey && original instanceof Error) {
      next = cloneErrorRedacted(original, ancestors);
    } else {
      next = redactValue(original, ancestors);
    }
    if (next !== original) {
      copy ??= { ...source };
      // defineProperty keeps a literal `__proto__` key a data property instead of re-parenting the copy.
      Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
  }
  ancestors.pop();
  return copy ?? source;
}

function hidden(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, writable: true, configurable: true });
}

/** A copy sharing the Error's prototype (so serializers still see its type) with redacted contents. */
function cloneErrorRedacted(error: Error, ancestors: object[]): Error {
  const plain = redactError(error, ancestors);
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  hidden(copy, 'message', error.message);
  hidden(copy, 'stack', error.stack);
  for (const [key, value] of Object.entries(plain)) {
    if (key === 'cause' || key === 'errors') {
      hidden(copy, key, value);
    } else if (key !== 'type' && key !== 'message' && key !== 'stack') {
      Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return copy;
}

function redactError(error: Error, ancestors: object[]): Record<string, unknown> {
  ancestors.push(error);
  const plain: Record<string, unknown> = {
    type: error.constructor?.name ?? error.name,
    message: error.message,
    stack: error.stack,
  };
  for (const key of Object.keys(error)) {
    if (key !== 'stack' && key !== 'message' && key !== 'type') {
      plain[key] = isSensitiveKey(key)
        ? mask(Reflect.get(error, key))
        : redactValue(Reflect.get(error, key), ancestors);
    }
  }
  // `cause` and AggregateError's `errors` are own but non-enumerable, so Object.keys misses them.
  if (error.cause !== undefined) {
    plain['cause'] = redactValue(error.cause, ancestors);
  }
  if (error instanceof AggregateError) {
    plain['errors'] = redactValue(error.errors, ancestors);
  }
  ancestors.pop();
  return plain;
}
