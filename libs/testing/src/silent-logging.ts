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
    reconfigure: () => Promise.resolve(),
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** One structured log line as a recording runtime captured it: `logger` names the `forName` logger. */
export interface RecordedLogLine {
  level: number;
  logger: string;
  msg: string;
  [field: string]: unknown;
}

/** A logging runtime that keeps every line at info and above, for specs that check audit lines. */
export function recordingLoggingRuntime(): { runtime: LoggingRuntime; lines: RecordedLogLine[] } {
  const lines: RecordedLogLine[] = [];
  const root = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as RecordedLogLine) },
  );
  return {
    runtime: { ...silentLoggingRuntime(), root, forName: (name: string) => root.child({ logger: name }) },
    lines,
  };
}
