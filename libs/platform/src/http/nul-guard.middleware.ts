import type { NextFunction, Request, Response } from 'express';

import { ErrorCode, ValidationError } from '@app/domain';

const ENCODED_NUL = /%00/i;

/** True when a string, key or nested value of a parsed JSON body holds U+0000 (walked without recursion). */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) {
        return true;
      }
    } else if (Array.isArray(next)) {
      pending.push(...(next as unknown[]));
    } else if (next !== null && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        if (key.includes('\u0000')) {
          return true;
        }
        pending.push(inner);
      }
    }
  }
  return false;
}

/**
 * Refuses (400, 2001) a request with U+0000 in its path, query or JSON body. Postgres cannot store
 * the character in text, and no name, id or text of this API has a use for it; refusing it up front
 * keeps both backends answering the same way instead of a database error on one of them.
 */
export function rejectNulCharacters(req: Request, _res: Response, next: NextFunction): void {
  if (ENCODED_NUL.test(req.url) || containsNul(req.body)) {
    next(new ValidationError('the NUL character (U+0000) is not allowed', ErrorCode.RequestValidationError));
    return;
  }
  next();
}
