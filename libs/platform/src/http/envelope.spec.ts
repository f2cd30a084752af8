import { ErrorCode, Page, RateLimitedError, RenderedPage, ValidationError } from '@app/domain';

import {
  errorDetail,
  errorEnvelope,
  fromAppError,
  JsonBytes,
  ok,
  paged,
  pagedBytes,
  prefersProblemJson,
  problemBody,
} from './envelope';

describe('envelope', () => {
  it('should wrap a payload as a successful ApiResponse', () => {
    expect(ok({ a: 1 })).toEqual({ data: { a: 1 }, error: null, error_detail: null, success: true });
  });

  it('should render a page with pagination and degraded sources', () => {
    const body = paged(new Page([1, 2], 10, 4, 2, ['cost_records']));
    expect(body).toEqual({
      data: [1, 2],
      error: null,
      error_detail: null,
      success: true,
      pagination: { total: 10, offset: 4, limit: 2 },
      degraded_sources: ['cost_records'],
    });
  });

  it('should splice a rendered page into the same envelope a page of its items renders to', () => {
    const items = [
      { id: 'a', tags: ['x'], at: null },
      { id: 'b "quoted" é', tags: [], at: '2026-01-01T00:00:00.000Z' },
    ];

    const body = pagedBytes(new RenderedPage(Buffer.from(JSON.stringify(items)), 12, 2, 2));

    expect(body).toBeInstanceOf(JsonBytes);
    expect(body.bytes.toString()).toBe(JSON.stringify(paged(new Page(items, 12, 2, 2))));
    // Serialized by anything else (a stored idempotent answer, Express itself), it is the same value.
    expect(JSON.stringify(body)).toBe(body.bytes.toString());
    const empty = pagedBytes(new RenderedPage(Buffer.from('[]'), 0, 0, 50));
    expect(empty.bytes.toString()).toBe(JSON.stringify(paged(new Page([], 0, 0, 50))));
  });

  it('should fill every error_detail field from an AppError', () => {
    const detail = errorDetail(fromAppError(new RateLimitedError('too many', 12)), 'req-1');
    expect(detail).toEqual({
      detail: 'too many',
      error_code: ErrorCode.RateLimited,
      error_category: 'rate_limit',
      retryable: true,
      retry_after: 12,
      instance: 'req-1',
      title: 'Rate Limit Exceeded',
      type: 'https://synthorg.io/docs/errors#rate_limit',
    });
    expect(errorEnvelope(detail)).toMatchObject({ data: null, error: 'too many', success: false });
  });

  it('should keep retry_after null when the error is not retryable', () => {
    const detail = errorDetail(fromAppError(new ValidationError('bad', ErrorCode.ValidationError)), 'r');
    expect(detail.retry_after).toBeNull();
    expect(problemBody(detail, 400)).toEqual({
      type: detail.type,
      title: 'Validation Error',
      status: 400,
      detail: 'bad',
      instance: 'r',
      error_code: ErrorCode.ValidationError,
      error_category: 'validation',
      retryable: false,
      retry_after: null,
    });
  });
});

describe(prefersProblemJson.name, () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['application/problem+json', true],
    ['application/problem+json, application/json', true],
    ['application/json, application/problem+json', false],
    ['application/json;q=0.5, application/problem+json', true],
    ['application/problem+json;q=0.2, application/json', false],
    ['application/problem+json;q=0', false],
    ['application/problem+json, */*;q=0.1', true],
    ['garbage;;;,problem+json', false],
  ])('should decide %p → %p', (accept, expected) => {
    expect(prefersProblemJson(accept)).toBe(expected);
  });
});
