import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

import { Correlation } from '../context/correlation';

import { currentTraceparent, tracingEnabled, withSpan, withTraceparent } from './tracing';

describe('tracing helpers', () => {
  describe('without a trace SDK', () => {
    it('should run the work directly, with no span and nothing to propagate', async () => {
      expect(tracingEnabled()).toBe(false);
      const seen: unknown[] = [];
      const result = await withSpan('work', {}, (span) => {
        seen.push(span, Correlation.current()?.trace_id, currentTraceparent());
        return Promise.resolve(7);
      });
      expect(result).toBe(7);
      expect(seen).toEqual([null, undefined, undefined]);
      expect(withTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', () => 'ran')).toBe('ran');
    });
  });

  describe('with a trace SDK', () => {
    const exporter = new InMemorySpanExporter();

    beforeAll(() => {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
    });

    afterAll(() => {
      trace.disable();
      propagation.disable();
      context.disable();
    });

    beforeEach(() => exporter.reset());

    it('should nest spans, put the trace id in the log context and mark a failure', async () => {
      expect(tracingEnabled()).toBe(true);
      let carried: string | undefined;
      let logged: string | undefined;
      await withSpan('outer', { a: 1 }, () =>
        withSpan('inner', {}, () => {
          carried = currentTraceparent();
          logged = Correlation.current()?.trace_id;
          return Promise.resolve();
        }),
      );
      await expect(withSpan('failing', {}, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');

      const [inner, outer, failing] = exporter.getFinishedSpans();
      expect([inner.name, outer.name, failing.name]).toEqual(['inner', 'outer', 'failing']);
      expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
      expect(logged).toBe(outer.spanContext().traceId);
      expect(carried).toBe(`00-${inner.spanContext().traceId}-${inner.spanContext().spanId}-01`);
      expect(failing.status.code).toBe(2);
      expect(failing.events.map((e) => e.name)).toEqual(['exception']);
    });

    it('should continue a trace carried by a traceparent from another process', async () => {
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      await withTraceparent(traceparent, () => withSpan('run', {}, () => Promise.resolve()));

      const [run] = exporter.getFinishedSpans();
      expect(run.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
      expect(run.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    });
  });
});
