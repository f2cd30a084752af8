import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';

import { Inject, Injectable } from '@nestjs/common';

import { assertArtifactId, ArtifactStorageFullError, ArtifactTooLargeError, type ByteRange } from '@app/domain';
import { APP_CONFIG, type AppConfig } from '@app/platform';

/** Content written to a temporary file, not yet in place. */
export interface StagedContent {
  readonly tempPath: string;
  readonly sizeBytes: number;
  readonly sha256: string;
}

/** Content put in place; `rollback` restores what was there before, `settle` drops the old copy. */
export interface PlacedContent {
  rollback(): Promise<void>;
  settle(): Promise<void>;
}

/** Why a stream was cut short: the artifact limit (413) or the room left in the store (507). */
export interface WriteLimits {
  /** Bytes one artifact may hold. */
  maxBytes: number;
  /** Bytes still free in the store for this artifact (its current content counts as free). */
  freeBytes: number;
  maxTotalBytes: number;
}

/**
 * Artifact content on the filesystem: one file per artifact, named by its id, under the configured
 * directory (a shared volume across replicas). Ids are checked and the resolved path must stay in
 * the directory; writes go to a temporary file first and are renamed into place, so a reader never
 * sees half a file and a failed upload leaves the previous content.
 */
@Injectable()
export class ArtifactStore {
  private readonly root: string;
  private ready: Promise<void> | null = null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.root = resolve(config.artifacts.dir);
  }

  /** Streams `source` to a temporary file, counting and hashing; cut short at either limit. */
  async stage(id: string, source: Readable, limits: WriteLimits): Promise<StagedContent> {
    this.pathOf(id);
    await this.ensureRoot();
    const tempPath = join(this.root, `.upload-${id}-${randomBytes(6).toString('hex')}`);
    const meter = new LimitMeter(limits);
    try {
      await copy(source, meter, createWriteStream(tempPath, { flags: 'wx' }));
    } catch (error) {
      await rm(tempPath, { force: true });
      throw meter.refusal ?? error;
    }
    return { tempPath, sizeBytes: meter.bytes, sha256: meter.digest() };
  }

  /** Moves staged content into place, keeping the previous content until the caller settles. */
  async place(id: string, staged: StagedContent): Promise<PlacedContent> {
    const target = this.pathOf(id);
    const backup = join(this.root, `.previous-${id}-${randomBytes(6).toString('hex')}`);
    const hadPrevious = await rename(target, backup).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') {
          return false;
        }
        throw error;
      },
    );
    try {
      await rename(staged.tempPath, target);
    } catch (error) {
      if (hadPrevious) {
        await rename(backup, target);
      }
      await rm(staged.tempPath, { force: true });
      throw error;
    }
    return {
      rollback: async () => {
        await rm(target, { force: true });
        if (hadPrevious) {
          await rename(backup, target);
        }
      },
      settle: async () => {
        if (hadPrevious) {
          await rm(backup, { force: true });
        }
      },
    };
  }

  /** Drops staged content that will not be placed. */
  async discard(staged: StagedContent): Promise<void> {
    await rm(staged.tempPath, { force: true });
  }

  /** The content's size, or null when there is no file. */
  async sizeOf(id: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(id))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return null;
      }
      throw error;
    }
  }

  /** A stream of the content, or of one inclusive byte range of it. */
  read(id: string, range: ByteRange | null): ReadStream {
    const path = this.pathOf(id);
    return range ? createReadStream(path, { start: range.start, end: range.end }) : createReadStream(path);
  }

  /** Removes the content; nothing to remove is not an error. */
  async remove(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }

  private pathOf(id: string): string {
    const path = resolve(this.root, assertArtifactId(id));
    // The id check already rules out separators and `..`; this holds even if that rule ever loosens.
    if (!path.startsWith(this.root + sep)) {
      assertArtifactId('..');
    }
    return path;
  }

  private ensureRoot(): Promise<void> {
    this.ready ??= mkdir(this.root, { recursive: true }).then(
      () => undefined,
      (error: unknown) => {
        this.ready = null;
        throw error;
      },
    );
    return this.ready;
  }
}

/**
 * source → meter → file. Unlike `pipeline`, a failure never destroys the source: the request body is
 * drained instead, so the client still reads the refusal (413, 507) rather than a reset connection.
 */
function copy(source: Readable, meter: LimitMeter, sink: WriteStream): Promise<void> {
  return new Promise<void>((resolvePromise, reject) => {
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) {
        return;
      }
      settled = true;
      source.unpipe(meter);
      source.resume();
      meter.destroy();
      sink.destroy();
      reject(error);
    };
    source.once('error', fail);
    source.once('close', () => {
      if (!source.readableEnded) {
        fail(new Error('the upload was aborted before its end'));
      }
    });
    meter.once('error', fail);
    sink.once('error', fail);
    sink.once('close', () => {
      if (!settled) {
        settled = true;
        resolvePromise();
      }
    });
    if (source.destroyed) {
      // Failed (or aborted) before it reached here: its events are already past.
      fail(source.errored ?? new Error('the upload was aborted before its end'));
      return;
    }
    source.pipe(meter).pipe(sink);
  });
}

/** Counts and hashes bytes in flight and stops the stream at the first limit it passes. */
class LimitMeter extends Transform {
  bytes = 0;
  refusal: Error | null = null;
  private readonly hash = createHash('sha256');

  constructor(private readonly limits: WriteLimits) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxBytes) {
      this.refusal = new ArtifactTooLargeError(this.limits.maxBytes);
    } else if (this.bytes > this.limits.freeBytes) {
      this.refusal = new ArtifactStorageFullError(this.limits.maxTotalBytes);
    }
    if (this.refusal) {
      callback(this.refusal);
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
