import { AppError, ErrorCode, ProviderCallError } from '@app/domain';

interface HttpishError {
  status?: unknown;
  status_code?: unknown;
  headers?: unknown;
  name?: unknown;
  message?: unknown;
  code?: unknown;
  error?: unknown;
  cause?: unknown;
}

function headerValue(headers: unknown, name: string): string | null {
  if (headers instanceof Headers) {
    return headers.get(name);
  }
  if (headers && typeof headers === 'object') {
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : null;
  }
  return null;
}

/** Seconds from `retry-after` (seconds or an HTTP date), or null. */
export function retryAfterSeconds(headers: unknown): number | null {
  const raw = headerValue(headers, 'retry-after');
  if (raw === null) {
    return null;
  }
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) {
    return Math.max(0, Math.ceil(seconds));
  }
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function mentionsContentFilter(error: HttpishError): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  const text = `${code} ${message}`.toLowerCase();
  return text.includes('content_filter') || text.includes('content filter') || text.includes('content_policy');
}

/** The error and its causes, outermost first (SDKs wrap what fetch and our transport threw). */
function* causeChain(error: unknown): Generator<unknown> {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth += 1) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

function isTimeout(error: unknown): boolean {
  for (const current of causeChain(error)) {
    const { name, message } = current as { name?: unknown; message?: unknown };
    if (
      name === 'APIConnectionTimeoutError' ||
      name === 'TimeoutError' ||
      (typeof message === 'string' && /timed? ?out/i.test(message))
    ) {
      return true;
    }
  }
  return false;
}

/** An error of ours raised beneath the SDK (auth, discovery guard) that the SDK wrapped: it surfaces as is. */
function ownErrorIn(error: unknown): AppError | null {
  for (const current of causeChain(error)) {
    if (current instanceof AppError) {
      return current;
    }
  }
  return null;
}

/** Deadline of one call, so a connection-level failure after it passed reads as a timeout. */
export interface CallTiming {
  startedAt: number;
  timeoutMs: number;
}

export function startTiming(timeoutMs: number): CallTiming {
  return { startedAt: performance.now(), timeoutMs };
}

/**
 * Maps whatever a provider SDK (or fetch) threw to a 7xxx ProviderCallError with `retryable` set:
 * timeouts, connection failures, 429 and 5xx are worth retrying; auth and request errors are not.
 */
export function toProviderError(error: unknown, provider: string, timing?: CallTiming): AppError {
  const own = ownErrorIn(error);
  if (own) {
    return own;
  }
  const e = (error ?? {}) as HttpishError;
  // A connection-level failure that arrives when the deadline has passed is the deadline, however
  // the SDK chose to wrap the abort.
  const connectionLevel = typeof e.status !== 'number' && typeof e.status_code !== 'number';
  if (timing && connectionLevel && performance.now() - timing.startedAt >= timing.timeoutMs) {
    return new ProviderCallError(`provider "${provider}" timed out`, ErrorCode.ProviderTimeout, true);
  }
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : String(error);
  const status =
    typeof e.status === 'number' ? e.status : typeof e.status_code === 'number' ? e.status_code : undefined;
  const prefix = `provider "${provider}"`;
  if (isTimeout(error)) {
    return new ProviderCallError(`${prefix} timed out`, ErrorCode.ProviderTimeout, true);
  }
  if (name === 'AbortError' || name === 'APIUserAbortError') {
    return new ProviderCallError(`${prefix}: the call was aborted`, ErrorCode.ProviderTimeout, true);
  }
  if (status === undefined) {
    const detail = e.cause instanceof Error ? `${message}: ${e.cause.message}` : message;
    return new ProviderCallError(`${prefix} is unreachable: ${detail}`, ErrorCode.ProviderConnection, true);
  }
  if (status === 401 || status === 403) {
    return new ProviderCallError(
      `${prefix} rejected the credentials (${status})`,
      ErrorCode.ProviderAuthenticationFailed,
    );
  }
  if (status === 429) {
    const after = retryAfterSeconds(e.headers);
    return new ProviderCallError(`${prefix} is rate limiting (429)`, ErrorCode.ProviderRateLimited, true, after ?? 1);
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new ProviderCallError(`${prefix} failed (${status}): ${message}`, ErrorCode.ProviderInternal, true);
  }
  if (mentionsContentFilter(e)) {
    return new ProviderCallError(`${prefix} filtered the content`, ErrorCode.ProviderContentFiltered);
  }
  return new ProviderCallError(
    `${prefix} refused the request (${status}): ${message}`,
    ErrorCode.ProviderInvalidRequest,
  );
}
