import type { NextFunction, Request, Response } from 'express';

import type { ServiceMetrics } from './service-metrics';

/**
 * Times every request into the HTTP duration histogram, labelled by the route template the router
 * matched (`/api/v1/tasks/:task_id`), never the raw path: a request no route matched counts as
 * `unmatched`, so unknown URLs cannot grow the label set.
 */
export function createHttpMetricsMiddleware(metrics: ServiceMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = routeTemplate(req);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
    });
    next();
  };
}

function routeTemplate(req: Request): string {
  const route = (req as unknown as { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') {
    return `${req.baseUrl}${route.path}`;
  }
  return 'unmatched';
}
