import { AppError } from './app-error';
import { ErrorCode } from './error-codes';

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required', code: ErrorCode = ErrorCode.Unauthorized) {
    super(code, message);
  }
}

/** A refusal of who is asking (403); `code` tells the role refusal (1001) from a route's own rule. */
export class ForbiddenError extends AppError {
  constructor(message = 'Insufficient role for this operation', code: ErrorCode = ErrorCode.Forbidden) {
    super(code, message, false, { httpStatus: 403 });
  }
}

/** A refused input (400); `code` names the rule, the generic 2000/2001 are left to the framework's own checks. */
export class ValidationError extends AppError {
  constructor(message: string, code: ErrorCode) {
    // The interface lists 400 for every validation failure (domain and request alike).
    super(code, message, false, { httpStatus: 400 });
  }
}

/** A missing resource (404); `code` names what is missing, so clients can tell an unknown task from an unknown agent. */
export class NotFoundError extends AppError {
  constructor(message: string, code: ErrorCode) {
    super(code, message);
  }
}

/** A write the current state refuses (409); `code` names the conflict, so two conflicts differ by code alone. */
export class ConflictError extends AppError {
  constructor(message: string, code: ErrorCode) {
    super(code, message);
  }
}

export class RateLimitedError extends AppError {
  constructor(message: string, retryAfterSec: number, code: ErrorCode = ErrorCode.RateLimited) {
    super(code, message, true, { retryAfterSec: Math.max(1, Math.ceil(retryAfterSec)) });
  }
}

/** A feature whose backing service is not wired (missing prerequisite): 503, retryable. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSec: number | null = null) {
    super(ErrorCode.ServiceUnavailable, message, true, { retryAfterSec });
  }
}

/** The database cannot be reached right now (8020, 503): the request may be retried. */
export class DatabaseUnavailableError extends AppError {
  constructor(message = 'The database is unavailable', retryAfterSec = 5) {
    super(ErrorCode.DatabaseUnavailable, message, true, { retryAfterSec, httpStatus: 503, publicDetail: true });
  }
}

export class AgentRuntimeNotConfiguredError extends AppError {
  constructor(message = 'Agent runtime not configured: no language-model provider is registered') {
    super(ErrorCode.AgentRuntimeNotConfigured, message);
  }
}

export class InternalError extends AppError {
  constructor(message: string, code: ErrorCode = ErrorCode.InternalError, cause?: unknown) {
    super(code, message, false, { cause });
  }
}

/** A model provider call failed; `code` is the 7xxx code of the failure kind. */
export class ProviderCallError extends AppError {
  constructor(
    message: string,
    code: ErrorCode = ErrorCode.ProviderError,
    retryable = false,
    retryAfterSec: number | null = null,
  ) {
    super(code, message, retryable, { retryAfterSec });
  }
}

/** Every provider that could serve the call is out of quota (6004). */
export class QuotaExhaustedError extends AppError {
  constructor(message: string, retryAfterSec: number | null = null) {
    super(ErrorCode.QuotaExhausted, message, retryAfterSec !== null, { retryAfterSec });
  }
}

/** The `Idempotency-Key` was first used with a different request: 422, per the idempotency-key draft. */
export class IdempotencyKeyMismatchError extends AppError {
  constructor(message = 'Idempotency-Key was already used with a different request') {
    super(ErrorCode.IdempotencyKeyMismatch, message, false, { httpStatus: 422 });
  }
}

/** The first request with this `Idempotency-Key` has not finished yet: 409, retry shortly. */
export class IdempotencyKeyInFlightError extends AppError {
  constructor(message = 'A request with this Idempotency-Key is still being processed') {
    super(ErrorCode.IdempotencyKeyInFlight, message, true, { retryAfterSec: 1 });
  }
}
