import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

import { Correlation } from '../context/correlation';

export const REQUEST_ID_HEADER = 'X-Request-ID';

export type RequestWithId = Request & { requestId?: string };

export interface RequestContextOptions {
  /** The access log (`synthorg.api.access`): one `api.request.completed` line per request. */
  accessLog: Logger;
  /** Paths (as requested, query included) that are served but not access-logged: the probes. */
  quietPathPrefixes?: readonly string[];
}

/**
 * The first middleware of every request, and the only per-request one besides the body parsers:
 * - a fresh UUID per request (incoming id headers are ignored so clients cannot forge correlation),
 *   returned in X-Request-ID, used as the error `instance`, and bound into every log line of the
 *   request through the correlation context;
 * - the access log line, written once the response is done (or the client went away).
 *
 * One closure and one listener per request: this runs at the full request rate, so it does not
 * create per-request child loggers or a second async context.
 */
export function createRequestContextMiddleware(
  options: RequestContextOptions,
): (req: RequestWithId, res: Response, next: NextFunction) => void {
  const access = options.accessLog;
  const quiet = options.quietPathPrefixes ?? [];
  return function requestContext(req: RequestWithId, res: Response, next: NextFunction): void {
    const id = randomUUID();
    req.requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    const url = req.url;
    if (!quiet.some((prefix) => url.startsWith(prefix))) {
      const started = performance.now();
      // 'close' follows 'finish' for a completed response and fires alone for an aborted one.
      res.once('close', () => logCompleted(access, id, req.method, url, res, performance.now() - started));
    }
    Correlation.run({ request_id: id }, next);
  };
}

function logCompleted(
  access: Logger,
  requestId: string,
  method: string,
  url: string,
  res: Response,
  elapsedMs: number,
): void {
  const status = res.statusCode;
  const record = {
    request_id: requestId,
    req: { method, url },
    res: { status_code: status },
    duration_ms: Math.round(elapsedMs * 100) / 100,
  };
  if (!res.writableFinished) {
    access.warn({ ...record, aborted: true }, 'api.request.aborted');
  } else if (status >= 500) {
    access.error(record, 'api.request.completed');
  } else if (status >= 400) {
    access.warn(record, 'api.request.completed');
  } else {
    access.info(record, 'api.request.completed');
  }
}
