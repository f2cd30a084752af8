import { randomUUID } from 'node:crypto';

import type { NextFunction, Request, Response } from 'express';

import { Correlation } from '../context/correlation';

export const REQUEST_ID_HEADER = 'X-Request-ID';

/**
 * A fresh UUID per request (incoming id headers are ignored so clients cannot forge correlation),
 * returned in X-Request-ID, used as the error `instance`, and bound into every log line of the request.
 */
export function requestIdMiddleware(req: Request & { requestId?: string }, res: Response, next: NextFunction): void {
  const id = randomUUID();
  req.requestId = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  Correlation.run({ request_id: id }, next);
}
