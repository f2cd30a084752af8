import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

import pino, { type Logger, type LoggerOptions } from 'pino';

import { Correlation } from '../context/correlation';
import { type LogLevelName, levelValue, maxLevel, toPinoLevel, wireLevelForValue } from './levels';
import type { LoggingOptions, LoggingRuntime, PrebuiltRecordLogger } from './logging.types';
import { redact, redactRecord } from './redaction';
import { createLevelledStream } from './routing-stream';
import type { SinkInfo } from './sink-config';
import { createInlineSinkHost, type SinkHost, type SinkHostConfig } from './sink-host';
import { type PlannedSink, planSinks } from './sink-plan';
import { sinkWorkerEntry, WorkerSinkHost } from './worker-sink-host';

const ROOT_LOGGER = 'synthorg';

/**
 * Builds the logger and its sinks. The log directory is created here (synchronously, once); every
 * sink writes asynchronously afterwards. Call `close()` on shutdown to flush and release resources.
 */
export function createLogging(options: LoggingOptions): LoggingRuntime {
  const dir = resolve(options.dir);
  mkdirSync(dir, { recursive: true });
  const console = {
    colorize: options.console?.colorize ?? process.env['NO_COLOR'] === undefined,
    fd: options.console?.fd,
  };
  const plan = planLogging(options);
  const host = openSinkHost({ dir, sinks: plan.enabled, console }, options);
  const state: LiveState = { correlation: options.enableCorrelation ?? true };
  const base = pino(
    loggerOptions(plan.level, state),
    createLevelledStream((line, level) => host.write(line, level)),
  );
  redactChildren(base);
  return new Runtime(base, plan.infos, host, state, { dir, console });
}

/** The runtime-editable part of the logging configuration. */
type LiveOptions = Pick<LoggingOptions, 'rootLevel' | 'enableCorrelation' | 'sinkOverrides' | 'customSinks'>;

interface LoggingPlan {
  infos: SinkInfo[];
  enabled: PlannedSink[];
  /** The logger's level: the root level, raised to the least severe level any enabled sink takes. */
  level: LogLevelName;
}

function planLogging(options: LiveOptions): LoggingPlan {
  const planned = planSinks(options.sinkOverrides ?? {}, options.customSinks ?? []);
  const enabled = planned.filter((sink) => sink.info.enabled);
  // Nothing below the least severe enabled sink can be written anywhere, so pino's level check drops it for free.
  const effective = enabled.map((sink) => sink.level).reduce(minLevel, 'critical' as LogLevelName);
  return { infos: planned.map((sink) => sink.info), enabled, level: maxLevel(options.rootLevel ?? 'info', effective) };
}

/** What a reconfiguration changes beside the sinks, read on every record. */
interface LiveState {
  correlation: boolean;
}

/**
 * The sink thread when asked for and possible: an in-process console stream cannot cross threads,
 * and without compiled output (a TypeScript test runner) there is no thread entry to start.
 */
function openSinkHost(config: SinkHostConfig, options: LoggingOptions): SinkHost {
  const consoleDestination = options.console?.destination;
  const entry = options.sinkThread === 'worker' && !consoleDestination ? sinkWorkerEntry() : undefined;
  return entry ? new WorkerSinkHost(entry, config) : createInlineSinkHost(config, consoleDestination);
}

function minLevel(a: LogLevelName, b: LogLevelName): LogLevelName {
  return levelValue(a) <= levelValue(b) ? a : b;
}

type Fields = Record<string, unknown>;
const NO_FIELDS: Fields = Object.freeze({});
const CORRELATION_KEYS = ['request_id', 'task_id', 'agent_id', 'trace_id'] as const;

/** The mixin: correlation ids bound to the current async context, only those that are set. */
function correlationFields(): Fields {
  const context = Correlation.current();
  if (
    !context ||
    (context.request_id === undefined &&
      context.task_id === undefined &&
      context.agent_id === undefined &&
      context.trace_id === undefined)
  ) {
    return NO_FIELDS;
  }
  const fields: Fields = {};
  for (const key of CORRELATION_KEYS) {
    if (context[key] !== undefined) {
      fields[key] = context[key];
    }
  }
  return fields;
}

/** pino's default merge writes into the mixin result; a fresh object keeps the caller's record untouched. */
function mergeCorrelation(record: object, fields: object): object {
  return fields === NO_FIELDS ? record : { ...fields, ...record };
}

function serializeError(value: unknown): unknown {
  // formatters.log leaves a redacted, Error-shaped copy under `err`; render it as a plain
  // `{type, message, stack, ...}` object (redacting again is a no-op on already redacted content).
  return value instanceof Error ? redact(value) : value;
}

let stampedAt = Number.NaN;
let stamp = '';
let secondAt = Number.NaN;
let secondPrefix = '';

/**
 * pino's isoTime, rendered once per millisecond rather than once per record: at the access-log
 * rate many records share a millisecond, and formatting a Date is a measurable part of a record.
 * Within one second only the milliseconds change, so a new millisecond costs a concatenation and
 * a Date is formatted once a second.
 */
export function isoTimestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    const ms = now % 1000;
    const second = now - ms;
    if (second !== secondAt) {
      secondAt = second;
      // `YYYY-MM-DDTHH:MM:SS.` of the ISO text (years 0–9999 keep this length).
      secondPrefix = `,"time":"${new Date(second).toISOString().slice(0, 20)}`;
    }
    stamp = `${secondPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  }
  return stamp;
}

function loggerOptions(level: LogLevelName, state: LiveState): LoggerOptions {
  return {
    level: toPinoLevel(level),
    messageKey: 'event',
    base: null,
    timestamp: isoTimestamp,
    formatters: {
      level: (_label: string, value: number) => ({ level: wireLevelForValue(value) }),
      log: (record: Fields) => redactRecord(record),
    },
    serializers: { err: serializeError },
    mixin: () => (state.correlation ? correlationFields() : NO_FIELDS),
    mixinMergeStrategy: mergeCorrelation,
  };
}

/**
 * Closes two gaps in redaction. pino applies formatters.bindings to the root logger only, so child
 * bindings (`child({ token })`) would bypass it; and serializers run after formatters.log, so what a
 * child's serializers produce (pino-http's `req` with its headers) would too. Children are created
 * with Object.create(parent), so an own `child` on the base logger is inherited by every descendant.
 */
function redactChildren(base: Logger): void {
  type ChildFn = (this: Logger, bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => Logger;
  const inherited: unknown = Reflect.get(base, 'child');
  const original = inherited as ChildFn;
  const child: ChildFn = function (bindings, options) {
    const serializers = options?.serializers;
    const safeOptions = serializers ? { ...options, serializers: redactingSerializers(serializers) } : options;
    return original.call(this, redact(bindings), safeOptions);
  };
  Object.defineProperty(base, 'child', { value: child, writable: true, configurable: true });
}

type Serializers = NonNullable<pino.ChildLoggerOptions['serializers']>;

function redactingSerializers(serializers: Serializers): Serializers {
  const wrapped: Serializers = { ...serializers };
  for (const [key, serializer] of Object.entries(serializers)) {
    wrapped[key] = (value: unknown): unknown => redact(serializer(value));
  }
  return wrapped;
}

/** Keeps names JSON-safe so routing can find them by string search. */
function qualify(name: string): string {
  const cleaned = name.trim().replace(/[^A-Za-z0-9_.:-]/g, '_');
  if (cleaned === '' || cleaned === ROOT_LOGGER) {
    return ROOT_LOGGER;
  }
  return cleaned.startsWith(`${ROOT_LOGGER}.`) ? cleaned : `${ROOT_LOGGER}.${cleaned}`;
}

class Runtime implements LoggingRuntime {
  readonly root: Logger;
  private readonly named = new Map<string, Logger>();

  /** Counts reconfigurations, so a failed one only rolls back if no later one was asked for since. */
  private generation = 0;

  constructor(
    private readonly base: Logger,
    private infos: readonly SinkInfo[],
    private readonly host: SinkHost,
    private readonly state: LiveState,
    private readonly fixed: Pick<SinkHostConfig, 'dir' | 'console'>,
  ) {
    this.root = base.child({ logger: ROOT_LOGGER });
    this.named.set(ROOT_LOGGER, this.root);
  }

  forName(name: string): Logger {
    const qualified = qualify(name);
    let logger = this.named.get(qualified);
    if (!logger) {
      // Children hang off the unnamed base logger: a child of `root` would repeat the `logger` key.
      logger = this.base.child({ logger: qualified });
      this.named.set(qualified, logger);
    }
    return logger;
  }

  prebuilt(name: string): PrebuiltRecordLogger {
    const logger = this.forName(name);
    const binding = `,"logger":${JSON.stringify(qualify(name))}`;
    const host = this.host;
    const events = new Map<string, string>();
    const enabled = (level: LogLevelName): boolean => logger.isLevelEnabled(toPinoLevel(level));
    return {
      isLevelEnabled: enabled,
      write(level: LogLevelName, members: string, event: string): void {
        if (!enabled(level)) {
          return;
        }
        let tail = events.get(event);
        if (tail === undefined) {
          tail = `,"event":${JSON.stringify(event)}}\n`;
          // Events are constants of the calling code; the bound only guards against misuse.
          if (events.size < 64) {
            events.set(event, tail);
          }
        }
        const value = levelValue(level);
        const fields = members === '' ? '' : `,${members}`;
        host.write(`{"level":"${wireLevelForValue(value)}"${isoTimestamp()}${binding}${fields}${tail}`, value);
      },
    };
  }

  sinks(): SinkInfo[] {
    return this.infos.map((info) => ({
      ...info,
      rotation: info.rotation ? { ...info.rotation } : null,
      routing_prefixes: [...info.routing_prefixes],
    }));
  }

  /**
   * Applies new runtime settings to the running logger. Calls are applied one after another, in
   * order; records written before a call go to the sinks of before, later ones to the new sinks.
   */
  reconfigure(options: LiveOptions): Promise<void> {
    const plan = planLogging(options);
    const previous = { infos: this.infos, level: this.base.level, correlation: this.state.correlation };
    const generation = ++this.generation;
    // Both hosts take the swap in call order (inline: at once; sink thread: in order with the records),
    // so the logger switches now, and the promise only waits for the retired sinks to drain.
    const swapped = this.host.reconfigure({ ...this.fixed, sinks: plan.enabled });
    const apply = (infos: readonly SinkInfo[], level: string, correlation: boolean): void => {
      // Children without a level of their own read it from the base logger, so one assignment reaches them all.
      this.base.level = level;
      this.state.correlation = correlation;
      this.infos = infos;
    };
    apply(plan.infos, toPinoLevel(plan.level), options.enableCorrelation ?? true);
    return swapped.catch((error: unknown) => {
      if (generation === this.generation) {
        apply(previous.infos, previous.level, previous.correlation);
      }
      throw error;
    });
  }

  flush(): Promise<void> {
    return this.host.flush();
  }

  close(): Promise<void> {
    return this.host.close();
  }
}
