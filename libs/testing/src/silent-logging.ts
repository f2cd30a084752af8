import pino from 'pino';

import type { LoggingRuntime } from '@app/platform';

/** A logging runtime that drops every record: the default for services built in unit specs. */
export function silentLoggingRuntime(): LoggingRuntime {
  const root = pino({ level: 'silent' });
  return {
    root,
    forName: () => root,
    prebuilt: () => ({ isLevelEnabled: () => false, write: () => undefined }),
    sinks: () => [],
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
