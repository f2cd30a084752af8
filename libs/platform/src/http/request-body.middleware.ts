import type { NextFunction, Request, RequestHandler, Response } from 'express';

import { createBodyDepthMiddleware, MAX_BODY_DEPTH } from './body-depth.middleware';
import { rejectNulCharacters } from './nul-guard.middleware';

/** Whether a request announces a body: the test the body parsers make first (a length, or chunks). */
function announcesBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/**
 * The request body's steps as one middleware: `parse` (the JSON parser), then the nesting-depth
 * check, then the NUL guard, in that order and with the same answers as three middlewares would
 * give. A request that announces no body (most GETs) has nothing to parse or walk: only its URL
 * goes through the NUL guard, and it costs one step of the middleware chain rather than three.
 */
export function createRequestBodyMiddleware(parse: RequestHandler, maxDepth: number = MAX_BODY_DEPTH): RequestHandler {
  const depth = createBodyDepthMiddleware(maxDepth);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!announcesBody(req)) {
      rejectNulCharacters(req, res, next);
      return;
    }
    void parse(req, res, (parseError?: unknown) => {
      if (parseError !== undefined && parseError !== null) {
        next(parseError);
        return;
      }
      depth(req, res, (depthError?: unknown) => {
        if (depthError !== undefined && depthError !== null) {
          next(depthError);
          return;
        }
        rejectNulCharacters(req, res, next);
      });
    });
  };
}
