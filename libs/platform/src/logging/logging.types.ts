import type { Logger } from 'pino';

import type { LogLevelName } from './levels';
import type { CustomSinkConfig, SinkInfo, SinkOverride } from './sink-config';

export interface ConsoleOptions {
  /** Capture console output in-process (tests); stderr when absent. */
  destination?: NodeJS.WritableStream;
  /** ANSI colours in text mode; default on unless the NO_COLOR environment variable is set. */
  colorize?: boolean;
  /** Without a destination: the file descriptor written, stderr (2) by default. */
  fd?: number;
}

export interface LoggingOptions {
  /** Log directory, absolute or relative to the working directory; created when missing. */
  dir: string;
  /** Default 'info'. */
  rootLevel?: LogLevelName;
  /** Inject request_id/task_id/agent_id from the correlation context into every record. Default true. */
  enableCorrelation?: boolean;
  /** Output of validateSinkSettings. */
  sinkOverrides?: Record<string, SinkOverride>;
  /** Output of validateSinkSettings. */
  customSinks?: CustomSinkConfig[];
  console?: ConsoleOptions;
  /**
   * Where the sinks run: 'inline' (default) on the logging thread, or 'worker' on a thread of their
   * own, which keeps routing, rendering and I/O off a busy server's event loop. 'worker' needs
   * compiled output and no in-process console destination; otherwise the sinks run inline.
   */
  sinkThread?: 'inline' | 'worker';
}

/**
 * A logger for one record shape the caller serializes itself, for the hottest paths (the access log):
 * it skips pino's generic work (record merging, redaction walk, per-key serialization) and writes the
 * same line pino would. The caller owns the members' safety: valid, escaped JSON, no sensitive keys,
 * and the correlation ids the record needs (none are added).
 */
export interface PrebuiltRecordLogger {
  isLevelEnabled(level: LogLevelName): boolean;
  /** `members`: the record's fields as JSON object members, e.g. `"a":1,"b":{"c":"x"}`. */
  write(level: LogLevelName, members: string, event: string): void;
}

export interface LoggingRuntime {
  /** Logger named `synthorg`. */
  readonly root: Logger;
  /** Child logger named `synthorg.<name>` (a name already starting with `synthorg.` is kept); cached per name. */
  forName(name: string): Logger;
  /** The same logger as forName(name), for records serialized by the caller. */
  prebuilt(name: string): PrebuiltRecordLogger;
  /** Every sink, disabled defaults included (enabled: false). */
  sinks(): SinkInfo[];
  /**
   * Applies the runtime-editable settings (root level, correlation, sink overrides, custom sinks:
   * the last two as validateSinkSettings returns them) without a restart and without losing a
   * record. Rejects, leaving the running sinks in place, when a new sink cannot be opened.
   */
  reconfigure(
    options: Pick<LoggingOptions, 'rootLevel' | 'enableCorrelation' | 'sinkOverrides' | 'customSinks'>,
  ): Promise<void>;
  /** Resolves once every record logged so far has reached its sinks (network sinks: sent or dropped). */
  flush(): Promise<void>;
  /** Flushes, then closes files, sockets and timers, and drains the console. Idempotent. */
  close(): Promise<void>;
}
