import { createWriteStream } from 'node:fs';

import { BatchedWriter } from './batched-writer';

import { type SinkDestination, settleWithin } from './sink-destination';
import { reportSinkProblem } from './sink-diagnostics';
import { createTextFormatter } from './text-format';

export interface ConsoleSinkOptions {
  /** Raw JSON lines instead of human-readable text. */
  json: boolean;
  colorize: boolean;
  /** In-process destination (tests capture it); when absent the sink writes to `fd`. */
  destination?: NodeJS.WritableStream;
  /** The file descriptor written when there is no destination: stderr (2) unless told otherwise. */
  fd?: number;
}

const CONSOLE_ID = '__console__';
const DEADLINE_MS = 5_000;
/** A stalled stderr (a blocked pipe) may hold this much before records are dropped, not memory exhausted. */
const MAX_BUFFERED_CHARS = 16 * 1024 * 1024;
const MAX_CHUNK_CHARS = 64 * 1024;
/** Lines wait at most this long for company: imperceptible on a terminal, and few writes under load. */
const LINGER_MS = 5;

/**
 * The console sink: human-readable text (or JSON lines) on stderr. Formatting is cheap enough for
 * the event loop (see text-format); the writes are asynchronous and coalesce while one is in flight,
 * so a terminal or a pipe never blocks a request.
 */
export function createConsoleSink(options: ConsoleSinkOptions): SinkDestination {
  const format = options.json ? undefined : createTextFormatter(options.colorize);
  return options.destination
    ? createStreamConsole(options.destination, format)
    : createFdConsole(options.fd ?? 2, format);
}

function createFdConsole(fd: number, format: ((line: string) => string) | undefined): SinkDestination {
  // The descriptor stays open when the sink closes: other writers (crash reports) still need stderr.
  const stderr = createWriteStream('', { fd, autoClose: false });
  stderr.on('error', (error: Error) => reportSinkProblem(CONSOLE_ID, 'stderr write failed', error));
  const writer = new BatchedWriter(stderr, {
    identifier: CONSOLE_ID,
    maxChunkChars: MAX_CHUNK_CHARS,
    maxPendingChars: MAX_BUFFERED_CHARS,
    lingerMs: LINGER_MS,
  });
  let closed: Promise<void> | undefined;
  return {
    write(line: string): void {
      if (!closed) {
        writer.write(format ? format(line) : line);
      }
    },
    flush: () => settleWithin(writer.flush(), DEADLINE_MS),
    close(): Promise<void> {
      closed ??= settleWithin(writer.flush(), DEADLINE_MS);
      return closed;
    },
  };
}

/** The destination is not ours, so close leaves it open. */
function createStreamConsole(
  destination: NodeJS.WritableStream,
  format: ((line: string) => string) | undefined,
): SinkDestination {
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
