import { AppError, defaultStatusFor } from './app-error';
import { categoryOf, ErrorCode, CATEGORY_TITLES, ERROR_CATEGORIES } from './error-codes';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
  RateLimitedError,
} from './errors';

describe('error code catalogue', () => {
  it('should keep every code unique', () => {
    const codes = Object.values(ErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('should put every code in the band of a known category', () => {
    for (const code of Object.values(ErrorCode)) {
      expect(code).toBeGreaterThanOrEqual(1000);
      expect(code).toBeLessThanOrEqual(8999);
      expect(ERROR_CATEGORIES).toContain(categoryOf(code));
    }
  });

  it('should derive the category from the first digit', () => {
    expect(categoryOf(1003)).toBe('auth');
    expect(categoryOf(2001)).toBe('validation');
    expect(categoryOf(3002)).toBe('not_found');
    expect(categoryOf(4014)).toBe('conflict');
    expect(categoryOf(5000)).toBe('rate_limit');
    expect(categoryOf(6004)).toBe('budget_exhausted');
    expect(categoryOf(7001)).toBe('provider_error');
    expect(categoryOf(8001)).toBe('internal');
  });

  it('should reject codes outside the bands', () => {
    expect(() => categoryOf(999)).toThrow(RangeError);
    expect(() => categoryOf(9000)).toThrow(RangeError);
  });

  it('should title every category', () => {
    for (const category of ERROR_CATEGORIES) {
      expect(CATEGORY_TITLES[category]).toMatch(/\w/);
    }
  });

  it('should keep agent runtime not configured at 4014', () => {
    expect(ErrorCode.AgentRuntimeNotConfigured).toBe(4014);
  });
});

describe(AppError.name, () => {
  it('should map categories to statuses when no override is given', () => {
    expect(defaultStatusFor(ErrorCode.Unauthorized)).toBe(401);
    expect(defaultStatusFor(ErrorCode.Forbidden)).toBe(403);
    expect(defaultStatusFor(ErrorCode.AccountLocked)).toBe(429);
    expect(defaultStatusFor(ErrorCode.RequestValidationError)).toBe(400);
    expect(defaultStatusFor(ErrorCode.RouteNotFound)).toBe(404);
    expect(defaultStatusFor(ErrorCode.TaskVersionConflict)).toBe(409);
    expect(defaultStatusFor(ErrorCode.RateLimited)).toBe(429);
    expect(defaultStatusFor(ErrorCode.ServiceUnavailable)).toBe(503);
    expect(defaultStatusFor(ErrorCode.InternalError)).toBe(500);
  });

  it('should drop retry_after when the error is not retryable', () => {
    const error = new AppError(ErrorCode.ResourceConflict, 'x', false, { retryAfterSec: 10 });
    expect(error.retryAfterSec).toBeNull();
  });

  it('should keep retry_after for retryable errors and round it up to at least one second', () => {
    expect(new RateLimitedError('slow down', 0.2).retryAfterSec).toBe(1);
    expect(new ServiceUnavailableError('not wired').retryable).toBe(true);
  });

  it('should carry the specific code a category error is given', () => {
    expect(new ConflictError('last', ErrorCode.LastCeoRequired)).toMatchObject({ code: 4019, httpStatus: 409 });
    expect(new NotFoundError('gone', ErrorCode.WorkspaceNotFound)).toMatchObject({ code: 3023, httpStatus: 404 });
    expect(new ValidationError('bad', ErrorCode.ProviderUrlInvalid)).toMatchObject({ code: 2022, httpStatus: 400 });
    // A route's own refusal of the caller stays a 403, though its code is in the auth band.
    expect(new ForbiddenError('not yours', ErrorCode.AgentOutsideManagedDepartment)).toMatchObject({
      code: 1999,
      httpStatus: 403,
    });
    expect(new ForbiddenError().httpStatus).toBe(403);
  });

  it('should render domain validation errors as 400', () => {
    expect(new ValidationError('bad', ErrorCode.ValidationError).httpStatus).toBe(400);
  });
});
