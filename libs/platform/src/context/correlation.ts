import { AsyncLocalStorage } from 'node:async_hooks';

/** Correlation ids bound to the current async context and injected into every log event. */
export interface CorrelationContext {
  request_id?: string;
  /** The OpenTelemetry trace of the request or run (only while tracing is on). */
  trace_id?: string;
  task_id?: string;
  agent_id?: string;
}

const storage = new AsyncLocalStorage<CorrelationContext>();

export const Correlation = {
  /** Runs `fn` with the given ids added to (a copy of) the current context. */
  run<T>(ids: CorrelationContext, fn: () => T): T {
    const parent = storage.getStore();
    return storage.run(parent ? { ...parent, ...ids } : { ...ids }, fn);
  },
  /** Binds ids on the current context for the rest of its lifetime (used by the request middleware). */
  enterWith(ids: CorrelationContext): void {
    storage.enterWith(ids);
  },
  current(): CorrelationContext | undefined {
    return storage.getStore();
  },
  requestId(): string | undefined {
    return storage.getStore()?.request_id;
  },
};
