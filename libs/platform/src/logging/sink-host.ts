import { resolve } from 'node:path';

import { createConsoleSink } from './console-sink';
import { createFileSink } from './file-sink';
import { createHttpSink } from './http-sink';
import { levelValue } from './levels';
import type { ConsoleOptions } from './logging.types';
import { createRecordRouter, type RoutedSink } from './routing-stream';
import type { SinkDestination } from './sink-destination';
import type { PlannedSink } from './sink-plan';
import { createSyslogSink } from './syslog-sink';
import { createTextFormatter } from './text-format';

/**
 * Where serialized records go once pino has written them: the enabled sinks, with routing. The
 * logger holds one host; it runs the sinks on the calling thread (inline) or on a thread of its
 * own (see worker-sink-host), and the logger cannot tell the two apart.
 */
export interface SinkHost {
  /** One serialized record (newline-terminated) and its pino level value. */
  write(line: string, level: number): void;
  /** Resolves once every record written so far has reached its sinks (network sinks: sent or dropped). */
  flush(): Promise<void>;
  /**
   * Runs `config`'s sinks from now on, without losing a record: what was written before goes to
   * the old sinks, which are drained and closed before the promise resolves.
   */
  reconfigure(config: SinkHostConfig): Promise<void>;
  /** Flushes, then closes files, sockets and timers, and drains the console. Idempotent. */
  close(): Promise<void>;
}

/** Everything a host needs to open the sinks; plain data, so it can be handed to another thread. */
export interface SinkHostConfig {
  /** Absolute log directory (already created). */
  dir: string;
  /** The enabled sinks, in routing order. */
  sinks: PlannedSink[];
  /** Console settings other than an in-process destination (which cannot cross threads). */
  console: { colorize: boolean; fd?: number };
}

/** Opens every sink of `config` on this thread and routes records to them. */
export function createInlineSinkHost(config: SinkHostConfig, consoleDestination?: NodeJS.WritableStream): SinkHost {
  return new InlineSinkHost(config, consoleDestination);
}

/** What identifies an open destination: a sink whose target and format are unchanged keeps it. */
function destinationKey(sink: PlannedSink): string {
  return JSON.stringify([sink.target, sink.info.json_format]);
}

class InlineSinkHost implements SinkHost {
  private destinations = new Map<string, SinkDestination>();
  private route: (line: string, level: number) => void = () => undefined;
  private closing: Promise<void> | undefined;

  constructor(
    config: SinkHostConfig,
    private readonly consoleDestination: NodeJS.WritableStream | undefined,
  ) {
    this.open(config);
  }

  write(line: string, level: number): void {
    this.route(line, level);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.destinations.values()].map((destination) => destination.flush()));
  }

  /**
   * Swaps the routing in one step: records written before the call went to the old sinks, which
   * are flushed and closed here; records written after it go to the new ones. A sink whose target
   * is unchanged keeps its open file, socket or queue. Opening a new sink that fails leaves the
   * running sinks in place and throws.
   */
  async reconfigure(config: SinkHostConfig): Promise<void> {
    if (this.closing) {
      return;
    }
    const retired = this.open(config);
    await Promise.all(retired.map((destination) => destination.close()));
  }

  close(): Promise<void> {
    this.closing ??= Promise.all([...this.destinations.values()].map((destination) => destination.close())).then(
      () => undefined,
    );
    return this.closing;
  }

  /** Opens `config`'s sinks (reusing unchanged ones), routes to them, and returns those no longer used. */
  private open(config: SinkHostConfig): SinkDestination[] {
    const next = new Map<string, SinkDestination>();
    const opened: SinkDestination[] = [];
    const routed: RoutedSink[] = [];
    try {
      for (const sink of config.sinks) {
        const key = destinationKey(sink);
        let destination = next.get(key) ?? this.destinations.get(key);
        if (!destination) {
          destination = openDestination(sink, config.dir, {
            ...config.console,
            destination: this.consoleDestination,
          });
          opened.push(destination);
        }
        next.set(key, destination);
        routed.push({ level: levelValue(sink.level), prefixes: sink.info.routing_prefixes, destination });
      }
    } catch (error) {
      opened.forEach((destination) => void destination.close());
      throw error;
    }
    const retired = [...this.destinations].filter(([key]) => !next.has(key)).map(([, destination]) => destination);
    this.destinations = next;
    this.route = createRecordRouter(routed);
    return retired;
  }
}

function openDestination(sink: PlannedSink, dir: string, consoleOptions: ConsoleOptions): SinkDestination {
  const { target, info } = sink;
  switch (target.kind) {
    case 'console':
      return createConsoleSink({
        json: info.json_format,
        colorize: consoleOptions.colorize ?? false,
        destination: consoleOptions.destination,
        fd: consoleOptions.fd,
      });
    case 'file': {
      const file = createFileSink({
        identifier: info.identifier,
        filePath: resolve(dir, target.relativePath),
        rotation: target.rotation,
      });
      return info.json_format ? file : withTextFormat(file);
    }
    case 'syslog':
      return createSyslogSink(target.config);
    case 'http':
      return createHttpSink(target.config);
  }
}

/** json_format: false on a file sink: same records, rendered as plain (uncoloured) text lines. */
function withTextFormat(destination: SinkDestination): SinkDestination {
  const format = createTextFormatter(false);
  return {
    write: (line: string) => destination.write(format(line)),
    flush: () => destination.flush(),
    close: () => destination.close(),
  };
}
