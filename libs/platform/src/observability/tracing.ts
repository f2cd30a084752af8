import {
  type Attributes,
  context,
  propagation,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';

import { Correlation } from '../context/correlation';

export { SpanKind };

/** The instrumentation scope of the service's own spans. */
export const TRACER_NAME = 'synthorg';

/**
 * True when a trace SDK is registered (the process started with an OTLP endpoint). Off, the helpers
 * below call their work directly: no span, no context switch, no propagation.
 */
export function tracingEnabled(): boolean {
  const provider = trace.getTracerProvider();
  // The API's global provider is a proxy; it has a delegate only once an SDK registered one.
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer(TRACER_NAME) !== undefined;
}

/**
 * Runs `work` inside a span (a child of the active one) and in the log context of its trace, ending
 * it with the work: an error marks it failed. Without tracing, `work` simply runs.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span | null) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!tracingEnabled()) {
    return work(null);
  }
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind, attributes }, (span) =>
    Correlation.run({ trace_id: span.spanContext().traceId }, () =>
      work(span).then(
        (result) => {
          span.end();
          return result;
        },
        (error: unknown) => {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
          span.end();
          throw error;
        },
      ),
    ),
  );
}

/** The W3C `traceparent` of the active span (to carry with queued work), or undefined without one. */
export function currentTraceparent(): string | undefined {
  if (!tracingEnabled()) {
    return undefined;
  }
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Runs `work` with `traceparent` (carried from another process) as its parent context, when given. */
export function withTraceparent<T>(traceparent: string | undefined, work: () => T): T {
  if (traceparent === undefined || !tracingEnabled()) {
    return work();
  }
  return context.with(propagation.extract(context.active(), { traceparent }), work);
}

/**
 * The server span of every request: continues the caller's trace (`traceparent`), is named by the
 * route template once the router matched one, carries the status, and puts the trace id in the
 * request's log lines. Installed only when tracing is on.
 */
export function createTracingMiddleware() {
  const tracer = trace.getTracer(TRACER_NAME);
  return (req: Request, res: Response, next: NextFunction): void => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      `${req.method}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'url.path': req.path, 'url.scheme': req.protocol },
      },
      parent,
    );
    res.once('close', () => {
      const route = (req as unknown as { route?: { path?: unknown } }).route;
      if (route && typeof route.path === 'string') {
        const template = `${req.baseUrl}${route.path}`;
        span.setAttribute('http.route', template);
        span.updateName(`${req.method} ${template}`);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    });
    Correlation.run({ trace_id: span.spanContext().traceId }, () =>
      context.with(trace.setSpan(parent, span), () => next()),
    );
  };
}
