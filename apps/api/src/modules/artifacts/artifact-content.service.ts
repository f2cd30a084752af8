import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  ArtifactStorageFullError,
  ArtifactTooLargeError,
  type ByteRange,
  DEFAULT_CONTENT_TYPE,
  ErrorCode,
  InternalError,
  normaliseContentType,
  NotFoundError,
  parseByteRange,
  servedContentType,
  ValidationError,
} from '@app/domain';
import type { ArtifactEntity } from '@app/persistence';
import { type ActorContext, APP_CONFIG, type AppConfig, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { ArtifactStore, type StagedContent } from './artifact-store';
import type { ArtifactDto } from './dto/artifact.dto';
import { toArtifactDto } from './artifacts.mapper';
import { ArtifactsRepository } from './artifacts.repository';
import { ArtifactsService } from './artifacts.service';
import { isMultipartForm, MAX_FORM_OVERHEAD_BYTES, openMultipartFile } from './multipart-file';

/** An upload as the HTTP layer hands it over: the request body stream and its headers. */
export interface UploadSource {
  body: Readable;
  headers: IncomingHttpHeaders;
}

/** A download ready to stream. */
export interface Download {
  artifact: ArtifactEntity;
  /** What to send as Content-Type: the stored type when it is safe, else octet-stream. */
  contentType: string;
  /** The file name for Content-Disposition (the path's last segment). */
  filename: string;
  size: number;
  range: ByteRange | null;
  stream: Readable;
}

/**
 * Artifact content: uploads streamed to the store under the per-artifact and total limits (never
 * buffered), the metadata updated after the content is in place (and the content rolled back when
 * that fails), and downloads streamed, whole or as one byte range.
 */
@Injectable()
export class ArtifactContentService {
  private readonly log: Logger;

  constructor(
    private readonly artifacts: ArtifactsRepository,
    private readonly service: ArtifactsService,
    private readonly store: ArtifactStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('artifacts');
  }

  async upload(actor: ActorContext, id: string, source: UploadSource): Promise<ArtifactDto> {
    const row = await this.service.getOrThrow(id);
    const { maxBytes, maxTotalBytes } = this.config.artifacts;
    const freeBytes = maxTotalBytes - ((await this.artifacts.totalBytes()) - row.sizeBytes);
    const declared = declaredLength(source.headers);
    // A declared length over a limit is refused before a byte is read (Node drains the rest); a form
    // may carry a bounded overhead beside its file, which the streamed count does not include.
    const overhead = isMultipartForm(source.headers['content-type']) ? MAX_FORM_OVERHEAD_BYTES : 0;
    if (declared !== null && declared - overhead > maxBytes) {
      throw new ArtifactTooLargeError(maxBytes);
    }
    if (declared !== null && declared - overhead > freeBytes) {
      throw new ArtifactStorageFullError(maxTotalBytes);
    }
    const { stream, contentType } = await this.open(source);
    const staged = await this.store.stage(row.id, stream, { maxBytes, freeBytes, maxTotalBytes });
    const type = contentType ?? (row.contentType || DEFAULT_CONTENT_TYPE);
    const saved = await this.place(row, staged, type);
    this.log.info(
      { artifact_id: row.id, size_bytes: staged.sizeBytes, content_type: type, actor: actor.username },
      'artifacts.content.uploaded',
    );
    await this.service.announce('artifact.content_uploaded', saved);
    return toArtifactDto(saved);
  }

  /**
   * Stores content the service itself produced (a committed file) under the same limits as an
   * upload, from the stream `open` gives; answers the artifact as saved.
   */
  async storeProduced(row: ArtifactEntity, open: () => Readable, contentType: string): Promise<ArtifactEntity> {
    const { maxBytes, maxTotalBytes } = this.config.artifacts;
    const freeBytes = maxTotalBytes - ((await this.artifacts.totalBytes()) - row.sizeBytes);
    // Opened only now, when it is read at once: a producer's stream must not wait across other I/O.
    const staged = await this.store.stage(row.id, open(), { maxBytes, freeBytes, maxTotalBytes });
    const saved = await this.place(row, staged, contentType);
    await this.service.announce('artifact.content_uploaded', saved);
    return saved;
  }

  /** The content to stream; 404 (3025) when the artifact or its content is missing, 416 for a bad range. */
  async download(id: string, rangeHeader: string | undefined): Promise<Download> {
    const artifact = await this.service.getOrThrow(id);
    const size = artifact.sha256 === null ? null : await this.store.sizeOf(artifact.id);
    if (size === null) {
      throw new NotFoundError(`Artifact "${id}" has no content`, ErrorCode.ArtifactNotFound);
    }
    const range = size === 0 ? null : parseByteRange(rangeHeader, size);
    return {
      artifact,
      contentType: servedContentType(artifact.contentType || DEFAULT_CONTENT_TYPE),
      filename: artifact.path.split('/').pop() || artifact.id,
      size,
      range,
      stream: this.store.read(artifact.id, range),
    };
  }

  /** The raw body, or the file part of a multipart form, with the content type it declares. */
  private async open(source: UploadSource): Promise<{ stream: Readable; contentType: string | null }> {
    const header = source.headers['content-type'];
    if (header !== undefined && /^application\/json\b/i.test(header.trim())) {
      // The JSON body parser has already read such a body: send JSON files as multipart or octet-stream.
      throw new ValidationError(
        'upload the content as a raw body of another type (application/octet-stream) or as multipart/form-data',
        ErrorCode.ArtifactUploadInvalid,
      );
    }
    if (!isMultipartForm(header)) {
      return { stream: source.body, contentType: header ? normaliseContentType(header) : null };
    }
    const { stream, info } = await openMultipartFile(source.body, source.headers);
    return { stream, contentType: normaliseContentType(info.contentType) };
  }

  /** Puts the content in place, then the metadata; content is rolled back when the metadata fails. */
  private async place(row: ArtifactEntity, staged: StagedContent, contentType: string): Promise<ArtifactEntity> {
    const placed = await this.store.place(row.id, staged).catch(async (error: unknown) => {
      await this.store.discard(staged);
      throw new InternalError('artifact content could not be stored', ErrorCode.InternalError, error);
    });
    const change = { contentType, sizeBytes: staged.sizeBytes, sha256: staged.sha256, updatedAt: new Date() };
    let updated: boolean;
    try {
      updated = await this.artifacts.setContent(row.id, change);
    } catch (error) {
      await placed.rollback();
      throw error;
    }
    if (!updated) {
      // Deleted while the bytes were in flight: its content must not outlive it.
      await placed.rollback();
      await this.store.remove(row.id);
      throw new NotFoundError(`Artifact "${row.id}" not found`, ErrorCode.ArtifactNotFound);
    }
    await placed.settle();
    return { ...row, ...change };
  }
}

function declaredLength(headers: IncomingHttpHeaders): number | null {
  const value = headers['content-length'];
  if (value === undefined || !/^\d+$/.test(value)) {
    return null;
  }
  return Number(value);
}
