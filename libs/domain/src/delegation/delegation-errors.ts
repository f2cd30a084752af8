import { AppError, ErrorCode } from '../errors';
import type { LoopCheck } from './loop-prevention';

/** Which rule refused a delegation: the authority check or one of the loop-prevention checks. */
export type DelegationCheck = 'authority' | LoopCheck;

/** A delegation refused by the authority check (403) or a loop-prevention check (409 or 429). */
export class DelegationRefusedError extends AppError {
  constructor(
    readonly check: DelegationCheck,
    code: ErrorCode,
    message: string,
    retryAfterSec: number | null = null,
  ) {
    const retryable = retryAfterSec !== null;
    super(code, message, retryable, {
      retryAfterSec,
      ...(code === ErrorCode.DelegationNotAuthorized ? { httpStatus: 403 } : {}),
    });
  }
}
