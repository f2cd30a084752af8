import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import type { NextFunction, Request, Response } from 'express';

import { Correlation } from '../context/correlation';
import type { LogLevelName } from '../logging/levels';
import type { PrebuiltRecordLogger } from '../logging/logging.types';

export const REQUEST_ID_HEADER = 'X-Request-ID';

export type RequestWithId = Request & { requestId?: string };

export interface RequestContextOptions {
  /** The access log (`synthorg.api.access`): one `api.request.completed` line per request. */
  accessLog: PrebuiltRecordLogger;
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

/**
 * The access record, serialized here: its shape is fixed and none of its keys is sensitive, so it
 * skips pino's generic record work (this runs once per request). The line is the one pino would
 * write for `{request_id, req: {method, url}, res: {status_code}, duration_ms[, aborted]}`.
 */
function logCompleted(
  access: PrebuiltRecordLogger,
  requestId: string,
  method: string,
  url: string,
  res: Response,
  elapsedMs: number,
): void {
  const status = res.statusCode;
  const aborted = !res.writableFinished;
  const level: LogLevelName = aborted ? 'warning' : status >= 500 ? 'error' : status >= 400 ? 'warning' : 'info';
  if (!access.isLevelEnabled(level)) {
    return;
  }
  const members =
    `"request_id":"${requestId}","req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}},` +
    `"res":{"status_code":${status}},"duration_ms":${Math.round(elapsedMs * 100) / 100}` +
    (aborted ? ',"aborted":true' : '');
  access.write(level, members, aborted ? 'api.request.aborted' : 'api.request.completed');
}
