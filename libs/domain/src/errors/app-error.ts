import { categoryOf, type ErrorCategory, ErrorCode } from './error-codes';

export interface AppErrorOptions {
  /** Seconds the client should wait before retrying; only meaningful for retryable errors. */
  retryAfterSec?: number | null;
  /** Overrides the status the category implies (e.g. 403 inside the auth band). */
  httpStatus?: number;
  /** A 5xx whose text clients must see (it names what is wrong with stored data, never a secret). */
  publicDetail?: boolean;
  cause?: unknown;
}

/**
 * Base of every error a service throws. The HTTP layer renders it; services never throw HttpException.
 * `code` decides the category (its band); `httpStatus` defaults from the category.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly retryAfterSec: number | null;
  readonly httpStatus: number;
  readonly publicDetail: boolean;

  constructor(code: ErrorCode, message: string, retryable = false, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = retryable;
    this.retryAfterSec = retryable ? (options.retryAfterSec ?? null) : null;
    this.httpStatus = options.httpStatus ?? defaultStatusFor(code);
    this.publicDetail = options.publicDetail ?? false;
  }

  get category(): ErrorCategory {
    return categoryOf(this.code);
  }
}

export function defaultStatusFor(code: ErrorCode): number {
  if (code === ErrorCode.Forbidden || code === ErrorCode.CsrfRejected) {
    return 403;
  }
  if (code === ErrorCode.AccountLocked) {
    return 429;
  }
  if (code === ErrorCode.ServiceUnavailable) {
    return 503;
  }
  const category = categoryOf(code);
  switch (category) {
    case 'auth':
      return 401;
    case 'validation':
      return 400;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'rate_limit':
      return 429;
    case 'budget_exhausted':
      // The state of the organisation's budget forbids the action: a conflict with current state.
      return 409;
    case 'provider_error':
      // The interface's status set has no 502: an upstream model provider failing makes the
      // feature unavailable for now, which clients already handle as a retryable 503.
      return 503;
    case 'internal':
      return 500;
    default:
      return assertNever(category);
  }
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${String(value)}`);
}
