import pino from 'pino';
import { type PrettyOptions, prettyFactory } from 'pino-pretty';

import { type SinkDestination, settleWithin } from './sink-destination';
import { reportSinkProblem } from './sink-diagnostics';

export interface ConsoleSinkOptions {
  /** Raw JSON lines instead of human-readable text. */
  json: boolean;
  colorize: boolean;
  /** In-process destination (tests capture it); when absent the sink writes to stderr. */
  destination?: NodeJS.WritableStream;
  /** Format and write on a worker thread (only for stderr; a custom destination is always in-process). */
  worker: boolean;
}

const CONSOLE_ID = '__console__';
const DEADLINE_MS = 5_000;

/** pino-pretty settings shared by the console and by text-format (json_format: false) file sinks. */
export function textFormatOptions(colorize: boolean): PrettyOptions {
  return {
    colorize,
    messageKey: 'event',
    timestampKey: 'time',
    translateTime: 'SYS:standard',
    // Our records carry the wire label ("WARNING"), which pino-pretty maps back to a colour by name.
    customLevels: 'debug:20,info:30,warning:40,error:50,critical:60',
    useOnlyCustomProps: true,
    messageFormat: '{logger} {event}',
    ignore: 'logger',
    errorLikeObjectKeys: ['err', 'error'],
  };
}

/** Turns one serialized record into one human-readable (possibly multi-line) entry. */
export function createTextFormatter(colorize: boolean): (line: string) => string {
  return prettyFactory(textFormatOptions(colorize));
}

/**
 * The console sink. Pretty-printing costs ~15 µs per record, far too much for the event loop at
 * the access-log rate, so by default stderr output is formatted and written by a pino transport
 * worker thread; the main thread only copies the serialized line into the worker's buffer.
 */
export function createConsoleSink(options: ConsoleSinkOptions): SinkDestination {
  if (options.worker && !options.destination) {
    return createWorkerConsole(options);
  }
  return createInProcessConsole(options.destination ?? process.stderr, options.json ? undefined : options.colorize);
}

function createWorkerConsole(options: ConsoleSinkOptions): SinkDestination {
  const transport = options.json
    ? pino.transport({ target: 'pino/file', options: { destination: 2 } })
    : pino.transport({ target: 'pino-pretty', options: { ...textFormatOptions(options.colorize), destination: 2 } });
  transport.on('error', (error: Error) => reportSinkProblem(CONSOLE_ID, 'console worker failed', error));
  let closed: Promise<void> | undefined;
  return {
    write(line: string): void {
      if (!closed) {
        transport.write(line);
      }
    },
    flush: () => settleWithin(new Promise<void>((resolve) => transport.flush(() => resolve())), DEADLINE_MS),
    close(): Promise<void> {
      closed ??= settleWithin(
        new Promise<void>((resolve) => {
          transport.once('close', () => resolve());
          transport.end();
        }),
        DEADLINE_MS,
      );
      return closed;
    },
  };
}

/** `colorize` undefined means JSON pass-through. The destination is not ours, so close leaves it open. */
function createInProcessConsole(destination: NodeJS.WritableStream, colorize: boolean | undefined): SinkDestination {
  const format = colorize === undefined ? undefined : createTextFormatter(colorize);
  let closed = false;
  return {
    write(line: string): void {
      if (!closed) {
        destination.write(format ? format(line) : line);
      }
    },
    flush: () => waitForDrain(destination),
    async close(): Promise<void> {
      if (!closed) {
        closed = true;
        await waitForDrain(destination);
      }
    },
  };
}

/** An empty write completes after every earlier write, whatever the stream's buffering. */
function waitForDrain(destination: NodeJS.WritableStream): Promise<void> {
  return settleWithin(new Promise<void>((resolve) => destination.write('', () => resolve())), DEADLINE_MS);
}
