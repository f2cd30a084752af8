import {
  type AppError,
  CATEGORY_TITLES,
  categoryOf,
  categoryTypeUri,
  type ErrorCategory,
  type ErrorCode,
  Page,
  type RenderedPage,
} from '@app/domain';

/** `error_detail` of the envelope (snake_case on the wire). */
export interface ErrorDetail {
  detail: string;
  error_code: number;
  error_category: ErrorCategory;
  retryable: boolean;
  retry_after: number | null;
  instance: string;
  title: string;
  type: string;
}

export interface ApiResponseBody<T> {
  data: T | null;
  error: string | null;
  error_detail: ErrorDetail | null;
  success: boolean;
}

export interface PaginatedResponseBody<T> extends ApiResponseBody<T[]> {
  pagination: { total: number; offset: number; limit: number } | null;
  degraded_sources: string[];
}

/** RFC 9457 body sent when the client prefers application/problem+json. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  error_code: number;
  error_category: ErrorCategory;
  retryable: boolean;
  retry_after: number | null;
}

export function ok<T>(data: T): ApiResponseBody<T> {
  return { data, error: null, error_detail: null, success: true };
}

export function paged<T>(page: Page<T>): PaginatedResponseBody<T> {
  return {
    data: page.items as T[],
    error: null,
    error_detail: null,
    success: true,
    pagination: { total: page.total, offset: page.offset, limit: page.limit },
    degraded_sources: [...page.degradedSources],
    ...page.extra,
  };
}

/**
 * A reply body already rendered as JSON, as UTF-8 bytes, sent as is. Whatever serializes it
 * instead (a reply Express renders itself, a stored idempotent answer) gets the value it stands for.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}

/** The envelope's first field: the page's items are spliced in after it. */
const DATA_FIELD = '{"data":';
const DATA_HEAD = Buffer.from(DATA_FIELD);

/** {@link paged} for a page whose items are rendered already: their bytes spliced in, never parsed. */
export function pagedBytes(page: RenderedPage): JsonBytes {
  const rest = JSON.stringify(paged(new Page([], page.total, page.offset, page.limit)));
  return new JsonBytes(Buffer.concat([DATA_HEAD, page.items, Buffer.from(rest.slice(`${DATA_FIELD}[]`.length))]));
}

export interface RenderedError {
  status: number;
  code: ErrorCode;
  detail: string;
  retryable: boolean;
  retryAfter: number | null;
}

export function fromAppError(error: AppError): RenderedError {
  return {
    status: error.httpStatus,
    code: error.code,
    detail: error.message,
    retryable: error.retryable,
    retryAfter: error.retryable ? error.retryAfterSec : null,
  };
}

export function errorDetail(rendered: RenderedError, instance: string): ErrorDetail {
  const category = categoryOf(rendered.code);
  return {
    detail: rendered.detail,
    error_code: rendered.code,
    error_category: category,
    retryable: rendered.retryable,
    retry_after: rendered.retryable ? rendered.retryAfter : null,
    instance,
    title: CATEGORY_TITLES[category],
    type: categoryTypeUri(category),
  };
}

export function errorEnvelope(detail: ErrorDetail): ApiResponseBody<null> {
  return { data: null, error: detail.detail, error_detail: detail, success: false };
}

export function problemBody(detail: ErrorDetail, status: number): ProblemDetails {
  return {
    type: detail.type,
    title: detail.title,
    status,
    detail: detail.detail,
    instance: detail.instance,
    error_code: detail.error_code,
    error_category: detail.error_category,
    retryable: detail.retryable,
    retry_after: detail.retry_after,
  };
}

interface MediaRange {
  type: string;
  q: number;
  index: number;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').map((part, index) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q' && value !== undefined) {
        const parsed = Number(value);
        q = Number.isFinite(parsed) && parsed >= 0 && parsed <= 1 ? parsed : 0;
      }
    }
    return { type: type.trim(), q, index };
  });
}

/**
 * True when the Accept header prefers application/problem+json over application/json.
 * Missing, wildcard-only or unparsable headers get the envelope.
 */
export function prefersProblemJson(accept: string | undefined): boolean {
  if (!accept || !accept.includes('problem+json')) {
    return false;
  }
  const ranges = parseAccept(accept);
  const problem = ranges.find((r) => r.type === 'application/problem+json');
  if (!problem || problem.q === 0) {
    return false;
  }
  const json = ranges.find((r) => r.type === 'application/json');
  if (!json) {
    // Wildcards are less specific than the explicit problem type, so the explicit choice wins.
    return true;
  }
  return problem.q > json.q || (problem.q === json.q && problem.index < json.index);
}
