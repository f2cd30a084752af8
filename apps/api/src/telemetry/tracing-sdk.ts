import { hostname } from 'node:os';

import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

import { SERVICE_VERSION } from '../version';

/**
 * The trace SDK of the service: W3C trace context, an async-local context, OTLP/HTTP export (the
 * exporter reads OTEL_EXPORTER_OTLP_* itself), batching (OTEL_BSP_*), sampling (OTEL_TRACES_SAMPLER,
 * OTEL_TRACES_SAMPLER_ARG), the resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) and the
 * Postgres driver's statements (only inside a traced request or run: the queue's polling is not).
 */
export function startTracingSdk(env: NodeJS.ProcessEnv): { shutdown(): Promise<void> } {
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        'service.name': env.OTEL_SERVICE_NAME?.trim() || 'synthorg',
        'service.version': SERVICE_VERSION,
        'service.instance.id': `${hostname()}-${process.pid}`,
      }),
    )
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler: samplerFrom(env),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        scheduledDelayMillis: numberFrom(env.OTEL_BSP_SCHEDULE_DELAY, 5000),
        maxQueueSize: numberFrom(env.OTEL_BSP_MAX_QUEUE_SIZE, 2048),
        maxExportBatchSize: numberFrom(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, 512),
        exportTimeoutMillis: numberFrom(env.OTEL_BSP_EXPORT_TIMEOUT, 30000),
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(provider);
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new PgInstrumentation({ requireParentSpan: true })],
  });
  return {
    shutdown: async () => {
      unregister();
      await provider.shutdown();
    },
  };
}

function samplerFrom(env: NodeJS.ProcessEnv): Sampler {
  const ratio = Math.min(1, Math.max(0, numberFrom(env.OTEL_TRACES_SAMPLER_ARG, 1)));
  switch (env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() ?? 'parentbased_always_on') {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function numberFrom(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}
