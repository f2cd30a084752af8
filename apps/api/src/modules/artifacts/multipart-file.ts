import { Transform, type TransformCallback } from 'node:stream';

import { ErrorCode, ValidationError } from '@app/domain';

/** Bytes of one part's header block at most; a longer one is not a form a client means to send. */
const MAX_HEADER_BYTES = 16 * 1024;
/** Bytes before the file part (preamble and plain fields) at most. */
const MAX_SKIPPED_BYTES = 1024 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/form-data` content type, or null when the type is not one. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType.trim())) {
    return null;
  }
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) {
    throw invalid('a multipart body needs a boundary in its Content-Type');
  }
  return boundary;
}

/** What the file part said about itself. */
export interface FilePartInfo {
  filename: string | null;
  contentType: string | null;
}

type State = 'preamble' | 'headers' | 'skip' | 'file' | 'done';

/**
 * Streams the content of the first file part of a `multipart/form-data` body (the first part with
 * a filename, else the first part named `file`); plain fields before it are skipped, everything
 * after it is drained. Memory stays at a chunk plus a boundary's length, whatever the file's size.
 * `info` resolves once the file part's headers are read; a body without a file part fails with 2068.
 */
export class MultipartFileStream extends Transform {
  readonly info: Promise<FilePartInfo>;
  private resolveInfo!: (info: FilePartInfo) => void;
  private rejectInfo!: (error: Error) => void;
  private readonly delimiter: Buffer;
  private buffer: Buffer = Buffer.alloc(0);
  private state: State = 'preamble';
  private skipped = 0;

  constructor(boundary: string) {
    super();
    // The first delimiter may open the body without the CRLF that precedes every later one.
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    this.buffer = Buffer.from('\r\n');
    this.info = new Promise((resolve, reject) => {
      this.resolveInfo = resolve;
      this.rejectInfo = reject;
    });
    // A caller that only awaits the stream must not see an unhandled rejection.
    this.info.catch(() => undefined);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.state === 'done') {
      callback();
      return;
    }
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    try {
      this.advance();
      callback();
    } catch (error) {
      this.rejectInfo(error as Error);
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    if (this.state !== 'done') {
      const error = invalid('the multipart body ended before its file part was complete');
      this.rejectInfo(error);
      callback(error);
      return;
    }
    callback();
  }

  private advance(): void {
    let progressed = true;
    while (progressed && this.state !== 'done') {
      switch (this.state) {
        case 'preamble':
        case 'skip':
          progressed = this.skipToNextPart();
          break;
        case 'headers':
          progressed = this.readHeaders();
          break;
        case 'file':
          progressed = this.emitFile();
          break;
      }
    }
  }

  /** Drops bytes up to the next delimiter and its line end; false when more input is needed. */
  private skipToNextPart(): boolean {
    const at = this.buffer.indexOf(this.delimiter);
    if (at < 0) {
      this.skip(Math.max(0, this.buffer.length - this.delimiter.length));
      return false;
    }
    const after = at + this.delimiter.length;
    if (this.buffer.length < after + 2) {
      return false;
    }
    if (this.buffer[after] === 0x2d && this.buffer[after + 1] === 0x2d) {
      throw invalid('the multipart body has no file part');
    }
    this.skip(after + 2);
    this.state = 'headers';
    return true;
  }

  private skip(bytes: number): void {
    this.skipped += bytes;
    if (this.skipped > MAX_SKIPPED_BYTES) {
      throw invalid('the multipart body has no file part within its first megabyte');
    }
    this.buffer = this.buffer.subarray(bytes);
  }

  private readHeaders(): boolean {
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) {
      if (this.buffer.length > MAX_HEADER_BYTES) {
        throw invalid('a multipart part header is too long');
      }
      return false;
    }
    const headers = parseHeaders(this.buffer.subarray(0, end).toString('latin1'));
    // The part's body starts after the blank line and ends at the next delimiter (CRLF included).
    this.buffer = this.buffer.subarray(end + HEADER_END.length);
    const disposition = headers.get('content-disposition') ?? '';
    const filename = param(disposition, 'filename');
    if (filename === null && param(disposition, 'name') !== 'file') {
      this.state = 'skip';
      return true;
    }
    this.resolveInfo({ filename, contentType: headers.get('content-type') ?? null });
    this.state = 'file';
    return true;
  }

  /** Pushes the file's bytes up to the delimiter; holds back a delimiter's length that may be its start. */
  private emitFile(): boolean {
    const at = this.buffer.indexOf(this.delimiter);
    if (at >= 0) {
      if (at > 0) {
        this.push(this.buffer.subarray(0, at));
      }
      this.buffer = Buffer.alloc(0);
      this.state = 'done';
      return true;
    }
    const safe = this.buffer.length - (this.delimiter.length - 1);
    if (safe > 0) {
      this.push(this.buffer.subarray(0, safe));
      this.buffer = this.buffer.subarray(safe);
    }
    return false;
  }
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
  }
  return headers;
}

function param(header: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}="([^"]*)"|;\\s*${name}=([^;\\s]*)`, 'i').exec(header);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function invalid(message: string): ValidationError {
  return new ValidationError(message, ErrorCode.ArtifactUploadInvalid);
}
