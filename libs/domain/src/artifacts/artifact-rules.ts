import { AppError, ErrorCode, ValidationError } from '../errors';
import { ARTIFACT_TYPES, type ArtifactType } from '../tasks';

export const ARTIFACT_LIMITS = {
  /** Characters of an artifact's id, and of the list filters. */
  maxIdChars: 128,
  maxPathChars: 1024,
  maxDescriptionChars: 4096,
  maxContentTypeChars: 255,
  /** Default per-artifact content limit (SYNTHORG_ARTIFACT_MAX_BYTES). */
  defaultMaxBytes: 50 * 1024 * 1024,
  /** Default total of all artifacts' content (SYNTHORG_ARTIFACT_STORAGE_BYTES). */
  defaultMaxTotalBytes: 1024 * 1024 * 1024,
} as const;

/** Content types served as stored; anything else (SVG and HTML among them) is served as octet-stream. */
export const SAFE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'application/octet-stream',
  'application/json',
  'application/pdf',
  'application/xml',
  'application/zip',
  'application/gzip',
  'application/x-tar',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'text/plain',
  'text/csv',
  'text/xml',
  'text/markdown',
]);

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

// An id is one file name: letters, digits, dot, hyphen, underscore; no leading dot, never `..`.
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
// A media type `type/subtype` with optional parameters, as a client may send it.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;

/** Refuses (2065) an id that could name anything but one file in the store: traversal, separators. */
export function assertArtifactId(id: string): string {
  if (id.length === 0 || id.length > ARTIFACT_LIMITS.maxIdChars || !SAFE_ID.test(id) || id.includes('..')) {
    throw new ValidationError(
      `artifact_id: "${id.slice(0, 64)}" is not a valid artifact id (letters, digits, ".", "-", "_")`,
      ErrorCode.ArtifactIdInvalid,
    );
  }
  return id;
}

/** A relative path inside the project, with forward slashes (2066 otherwise). */
export function assertArtifactPath(path: string): string {
  const normalised = path.replace(/\\/g, '/');
  const segments = normalised.split('/');
  if (
    normalised.trim().length === 0 ||
    normalised.length > ARTIFACT_LIMITS.maxPathChars ||
    normalised.startsWith('/') ||
    /^[A-Za-z]:/.test(normalised) ||
    segments.some((s) => s === '..' || s === '') ||
    [...normalised].some((c) => c.charCodeAt(0) < 0x20)
  ) {
    throw new ValidationError(
      'path: a relative path inside the project (no "..", no leading "/", no empty segment)',
      ErrorCode.ArtifactPathInvalid,
    );
  }
  return normalised;
}

/** Narrows a type (2067 otherwise). */
export function parseArtifactType(value: string): ArtifactType {
  if (!(ARTIFACT_TYPES as readonly string[]).includes(value)) {
    throw new ValidationError(`type: must be one of ${ARTIFACT_TYPES.join(', ')}`, ErrorCode.ArtifactTypeInvalid);
  }
  return value as ArtifactType;
}

/** A stored content type: the media type, lower-cased, parameters kept; 2068 when it is not one. */
export function normaliseContentType(value: string | undefined | null): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '') {
    return DEFAULT_CONTENT_TYPE;
  }
  if (trimmed.length > ARTIFACT_LIMITS.maxContentTypeChars || !MEDIA_TYPE.test(trimmed)) {
    throw new ValidationError(
      `content type "${trimmed.slice(0, 64)}" is not a media type`,
      ErrorCode.ArtifactUploadInvalid,
    );
  }
  const [type, ...params] = trimmed.split(';');
  return [type.trim().toLowerCase(), ...params.map((p) => p.trim())].join('; ');
}

/** What a download is served as: the stored type when it is on the safe list, else octet-stream. */
export function servedContentType(stored: string): string {
  const base = stored.split(';')[0].trim().toLowerCase();
  return SAFE_CONTENT_TYPES.has(base) ? stored : DEFAULT_CONTENT_TYPE;
}

/** The type a committed file's artifact gets, by its path: tests, documentation, or code. */
export function artifactTypeForPath(path: string): ArtifactType {
  const lower = path.toLowerCase();
  const name = lower.split('/').pop() ?? lower;
  if (
    /(^|\/)(tests?|__tests__|spec)\//.test(lower) ||
    /[._-](test|spec)\.[a-z0-9]+$/.test(name) ||
    name.startsWith('test_')
  ) {
    return 'tests';
  }
  if (/(^|\/)docs?\//.test(lower) || /\.(md|markdown|rst|txt|adoc)$/.test(name) || name.startsWith('readme')) {
    return 'documentation';
  }
  return 'code';
}

/** A byte range to serve: first and last byte, inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A `Range` header for content of `size` bytes: null when there is none or it asks for several
 * ranges (the whole content is served, as RFC 9110 allows), the range otherwise; one that cannot be
 * satisfied is refused (416, 2069).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null {
  if (header === undefined || header.trim() === '') {
    return null;
  }
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) {
    if (/^\s*bytes\s*=.*,/.test(header)) {
      return null;
    }
    throw new RangeNotSatisfiableError(`Range "${header.slice(0, 64)}" is not a single byte range`, size);
  }
  const [, first, last] = match;
  let start: number;
  let end: number;
  if (first === '') {
    const suffix = Number(last);
    if (last === '' || suffix === 0) {
      throw new RangeNotSatisfiableError('an empty suffix range', size);
    }
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
    if (last !== '' && Number(last) < start) {
      throw new RangeNotSatisfiableError(`Range "${header.slice(0, 64)}" ends before it starts`, size);
    }
  }
  if (start >= size) {
    throw new RangeNotSatisfiableError(`Range starts at ${start} of ${size} bytes`, size);
  }
  return { start, end };
}

/** Content over the per-artifact limit: 413, code 2002. */
export class ArtifactTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(ErrorCode.ArtifactTooLarge, `Artifact content is larger than the limit of ${limitBytes} bytes`, false, {
      httpStatus: 413,
    });
  }
}

/** The store's total would pass its limit: 507, code 8007. */
export class ArtifactStorageFullError extends AppError {
  constructor(totalLimitBytes: number) {
    super(
      ErrorCode.ArtifactStorageFull,
      `Artifact storage is full (limit ${totalLimitBytes} bytes in total); delete artifacts to make room`,
      false,
      { httpStatus: 507 },
    );
  }
}

/** A Range that cannot be served: 416, code 2069; `size` goes into `Content-Range: bytes *\/size`. */
export class RangeNotSatisfiableError extends AppError {
  constructor(
    message: string,
    readonly size: number,
  ) {
    super(ErrorCode.ArtifactRangeInvalid, message, false, { httpStatus: 416 });
  }
}
