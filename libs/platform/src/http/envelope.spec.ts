import { ErrorCode, Page, RateLimitedError, ValidationError } from '@app/domain';

import { errorDetail, errorEnvelope, fromAppError, ok, paged, prefersProblemJson, problemBody } from './envelope';

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
