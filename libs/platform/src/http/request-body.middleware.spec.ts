import type { NextFunction, Request, Response } from 'express';

import { ErrorCode, ValidationError } from '@app/domain';

import { createRequestBodyMiddleware } from './request-body.middleware';

interface Outcome {
  parsed: boolean;
  passed: unknown;
}

/** Runs the middleware with a parser that sets `body` (or fails with `parseError`). */
function run(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  parseError?: Error,
  maxDepth?: number,
): Outcome {
  const outcome: Outcome = { parsed: false, passed: 'not called' };
  const req = { url, headers } as unknown as Request;
  const parse = (request: Request, _res: Response, next: NextFunction): void => {
    outcome.parsed = true;
    if (parseError) {
      next(parseError);
      return;
    }
    request.body = body;
    next();
  };
  createRequestBodyMiddleware(parse, maxDepth)(req, {} as Response, (error?: unknown) => {
    outcome.passed = error;
  });
  return outcome;
}

const withBody = { 'content-type': 'application/json', 'content-length': '12' };

describe('request body middleware', () => {
  it('should not parse a request that announces no body, and still refuse a NUL in its URL', () => {
    expect(run('/api/v1/tasks', {}, undefined)).toEqual({ parsed: false, passed: undefined });

    const refused = run('/api/v1/tasks?project=%00', {}, undefined);
    expect(refused.parsed).toBe(false);
    expect(refused.passed).toBeInstanceOf(ValidationError);
    expect((refused.passed as ValidationError).code).toBe(ErrorCode.RequestValidationError);
  });

  it('should parse a body announced by a length or by chunks, then pass a clean one on', () => {
    expect(run('/x', withBody, { title: 'ok' })).toEqual({ parsed: true, passed: undefined });
    expect(run('/x', { 'transfer-encoding': 'chunked' }, { title: 'ok' })).toEqual({ parsed: true, passed: undefined });
    expect(run('/x', { 'content-length': '0' }, {})).toEqual({ parsed: true, passed: undefined });
  });

  it("should hand on the parser's own error before any check", () => {
    const malformed = new SyntaxError('Unexpected token');
    expect(run('/x', withBody, undefined, malformed)).toEqual({ parsed: true, passed: malformed });
  });

  it('should refuse a body nested too deep before looking for NUL, and a NUL in a body of legal depth', () => {
    const deep = run('/x', withBody, [[['\u0000']]], undefined, 2);
    expect((deep.passed as ValidationError).code).toBe(ErrorCode.RequestNestingTooDeep);

    const nul = run('/x', withBody, { a: '\u0000' }, undefined, 2);
    expect((nul.passed as ValidationError).code).toBe(ErrorCode.RequestValidationError);
  });
});
