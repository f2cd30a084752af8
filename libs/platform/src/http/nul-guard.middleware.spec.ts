import type { Request, Response } from 'express';

import { ErrorCode, ValidationError } from '@app/domain';

import { containsNul, rejectNulCharacters } from './nul-guard.middleware';

function run(url: string, body?: unknown): unknown {
  let passed: unknown = 'not called';
  rejectNulCharacters({ url, body } as Request, {} as Response, (error?: unknown) => {
    passed = error;
  });
  return passed;
}

describe('NUL guard', () => {
  it.each([
    ['a string', 'a\u0000b'],
    ['a key', { ['k\u0000']: 1 }],
    ['a nested array', [[['x', 'y\u0000']]]],
    ['an object in an array', [{ a: { b: '\u0000' } }]],
  ])('should find U+0000 in %s', (_label, value) => {
    expect(containsNul(value)).toBe(true);
  });

  it('should walk a 10,000-deep array without recursion and pass clean values', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i += 1) {
      deep = [deep];
    }
    expect(containsNul(deep)).toBe(false);
    expect(containsNul({ a: [1, true, null, 'text'] })).toBe(false);
  });

  it('should refuse an encoded NUL in the path or query and one in the body with 400 (2001)', () => {
    for (const outcome of [run('/api/v1/tasks/a%00b'), run('/api/v1/tasks?project=%00'), run('/x', { t: '\u0000' })]) {
      expect(outcome).toBeInstanceOf(ValidationError);
      expect((outcome as ValidationError).code).toBe(ErrorCode.RequestValidationError);
    }
    expect(run('/api/v1/tasks?project=p%2500', { t: 'ok' })).toBeUndefined();
  });
});
