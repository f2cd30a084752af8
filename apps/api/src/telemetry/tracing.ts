// Imported by main right after the compile cache, before anything else loads: the database driver's
// instrumentation must be in place before `pg` is first required. Tracing is on only when an OTLP
// endpoint is configured (the standard OTEL_* variables); otherwise nothing of the SDK is loaded and
// the service's span helpers run their work directly.

/** The SDK's handle, when tracing is on: flushed and shut down last at exit. */
interface TracingHandle {
  shutdown(): Promise<void>;
}

let handle: TracingHandle | null = null;

/** True when the environment asks for trace export (an endpoint, and the SDK not disabled). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '';
  return (
    endpoint.trim() !== '' &&
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true' &&
    env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== 'none'
  );
}

/** Starts tracing once, when requested; safe to call again. */
export function startTracing(env: NodeJS.ProcessEnv = process.env): void {
  if (handle !== null || !tracingRequested(env)) {
    return;
  }
  // Loaded only when tracing is on.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  handle = sdk.startTracingSdk(env);
}

/** Exports the spans still buffered and stops the SDK (a no-op when tracing is off). */
export async function shutdownTracing(): Promise<void> {
  const current = handle;
  handle = null;
  await current?.shutdown().catch(() => undefined);
}

startTracing();
