/** Injection token of the LoggingRuntime (sinks, named loggers, flush/close). */
export const LOGGING_RUNTIME = Symbol('LOGGING_RUNTIME');
