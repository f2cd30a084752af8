import type { NextFunction, Request, Response } from 'express';

import { ErrorCode, ValidationError } from '@app/domain';

/** Deepest nesting of arrays and objects a JSON body may have; real bodies stay far below it. */
export const MAX_BODY_DEPTH = 64;

/**
 * Refuses a parsed body nested deeper than `maxDepth` before anything transforms it: the class
 * transformer and validator recurse once per level, so a small body of a few thousand brackets
 * would overflow the stack. The walk stops at the first level past the limit.
 */
export function createBodyDepthMiddleware(maxDepth: number = MAX_BODY_DEPTH) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (exceedsDepth(req.body as unknown, maxDepth)) {
      next(
        new ValidationError(
          `Request body nests arrays or objects more than ${maxDepth} levels deep`,
          ErrorCode.RequestNestingTooDeep,
        ),
      );
      return;
    }
    next();
  };
}

/** Whether a JSON value nests containers more than `maxDepth` levels deep (a flat object is 1). */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  if (maxDepth <= 0) {
    return true;
  }
  const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
  return children.some((child) => exceedsDepth(child, maxDepth - 1));
}
