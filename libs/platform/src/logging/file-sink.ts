import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';

import { createStream } from 'rotating-file-stream';

import { BatchedWriter } from './batched-writer';
import type { RotationConfig } from './sink-config';
import { type SinkDestination, settleWithin } from './sink-destination';
import { reportSinkProblem } from './sink-diagnostics';

export interface FileSinkOptions {
  /** Name used in diagnostics. */
  identifier: string;
  /** Absolute path of the live log file. */
  filePath: string;
  rotation: RotationConfig;
}

const MAX_CHUNK_CHARS = 64 * 1024;
const MAX_PENDING_CHARS = 64 * 1024 * 1024;
const CLOSE_DEADLINE_MS = 5_000;
// Lines wait at most this long for company before they are written (flush and close do not wait).
const LINGER_MS = 10;

/**
 * A JSON-lines file. Writes are asynchronous and coalesced; `builtin` rotation is delegated to
 * rotating-file-stream in its logrotate-compatible mode (`name.log.1` … `.N`, `.N.gz` when compressed).
 */
export function createFileSink(options: FileSinkOptions): SinkDestination {
  // Once per sink at startup, never per record.
  mkdirSync(dirname(options.filePath), { recursive: true });
  const stream = openStream(options);
  stream.on('error', (error: Error) => reportSinkProblem(options.identifier, 'file stream failed', error));
  const writer = new BatchedWriter(stream, {
    identifier: options.identifier,
    maxChunkChars: chunkLimit(options.rotation),
    maxPendingChars: MAX_PENDING_CHARS,
    lingerMs: LINGER_MS,
  });
  let closed: Promise<void> | undefined;
  return {
    write(line: string): void {
      if (!closed) {
        writer.write(line);
      }
    },
    flush: () => writer.flush(),
    close(): Promise<void> {
      closed ??= (async () => {
        await settleWithin(writer.flush(), CLOSE_DEADLINE_MS);
        await settleWithin(new Promise<void>((resolve) => stream.end(resolve)), CLOSE_DEADLINE_MS);
      })();
      return closed;
    },
  };
}

function openStream({ filePath, rotation, identifier }: FileSinkOptions): Writable {
  if (rotation.strategy === 'external') {
    // Append mode keeps logrotate's copytruncate safe: the next write lands at the new end of file.
    return createWriteStream(filePath, { flags: 'a' });
  }
  const stream = createStream(filePath, {
    size: `${rotation.max_bytes}B`,
    rotate: rotation.backup_count,
    ...(rotation.compress_rotated ? { compress: 'gzip' } : {}),
  });
  stream.on('warning', (error: Error) => reportSinkProblem(identifier, 'rotation warning', error));
  return stream;
}

/**
 * Rotation happens only between writes, so a file can overshoot `max_bytes` by one chunk; keeping
 * chunks to a small fraction of the limit keeps rotated files close to the configured size.
 */
function chunkLimit(rotation: RotationConfig): number {
  if (rotation.strategy === 'external') {
    return MAX_CHUNK_CHARS;
  }
  return Math.max(1, Math.min(MAX_CHUNK_CHARS, Math.floor(rotation.max_bytes / 16)));
}
