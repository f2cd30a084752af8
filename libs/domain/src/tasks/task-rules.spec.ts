import {
  ErrorCode,
  newTaskId,
  parseDeadline,
  parseTaskStatusFilter,
  requireText,
  TASK_STATUSES,
  uniqueRefs,
  ValidationError,
} from '@app/domain';

function validationErrorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('newTaskId', () => {
  it('should answer task- and 32 lowercase hex digits', () => {
    expect(newTaskId()).toMatch(/^task-[0-9a-f]{32}$/);
  });

  it('should answer a fresh id every time', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newTaskId()));
    expect(ids.size).toBe(1000);
  });
});

describe('parseTaskStatusFilter', () => {
  it('should default to created when the filter is omitted', () => {
    expect(parseTaskStatusFilter(undefined)).toBe('created');
  });

  it.each(['', '   ', 'null', ' null '])('should list every status for %j', (raw) => {
    expect(parseTaskStatusFilter(raw)).toBeNull();
  });

  it.each([...TASK_STATUSES])('should accept the status %s', (status) => {
    expect(parseTaskStatusFilter(status)).toBe(status);
    expect(parseTaskStatusFilter(` ${status} `)).toBe(status);
  });

  it.each(['done', 'Created', 'NULL', 'in-progress', 'undefined'])('should refuse %j with 2001', (raw) => {
    const error = validationErrorOf(() => parseTaskStatusFilter(raw));
    expect(error.code).toBe(ErrorCode.RequestValidationError);
    expect(error.code).toBe(2001);
    expect(error.message).toContain('status:');
  });
});

describe('parseDeadline', () => {
  it.each([
    ['2026-03-01T12:00:00Z', '2026-03-01T12:00:00.000Z'],
    ['2026-03-01T12:00:00.123Z', '2026-03-01T12:00:00.123Z'],
    ['2026-03-01T14:00:00+02:00', '2026-03-01T12:00:00.000Z'],
    ['2026-03-01T07:30:00-04:30', '2026-03-01T12:00:00.000Z'],
    ['2026-03-01', '2026-03-01T00:00:00.000Z'],
    ['  2026-03-01T12:00:00Z  ', '2026-03-01T12:00:00.000Z'],
  ])('should normalise %j to %s', (raw, expected) => {
    expect(parseDeadline(raw)).toBe(expected);
  });

  it.each([null, undefined])('should answer null for %s', (raw) => {
    expect(parseDeadline(raw)).toBeNull();
  });

  it.each([
    '',
    '   ',
    'tomorrow',
    'not a date',
    '2026-13-45',
    '2026-02-30T25:00:00Z',
    '03/01/2026',
    '1700000000',
    '2026-02-30',
    '2026-02-31T00:00:00Z',
    '2026-03-01T12:00',
    '2026-03-01 12:00:00Z',
  ])('should refuse %j with 2001', (raw) => {
    const error = validationErrorOf(() => parseDeadline(raw));
    expect(error.code).toBe(ErrorCode.RequestValidationError);
    expect(error.message).toContain('deadline:');
  });
});

describe('requireText', () => {
  it('should answer the trimmed text', () => {
    expect(requireText('title', '  Ship it  ')).toBe('Ship it');
  });

  it.each(['', ' ', '\t\n'])('should refuse %j with 2001 naming the field', (raw) => {
    const error = validationErrorOf(() => requireText('title', raw));
    expect(error.code).toBe(ErrorCode.RequestValidationError);
    expect(error.message).toBe('title: must not be blank');
  });
});

describe('uniqueRefs', () => {
  it.each<[readonly string[] | undefined, string[]]>([
    [undefined, []],
    [[], []],
    [
      ['b', 'a', 'b', 'c', 'a'],
      ['b', 'a', 'c'],
    ],
    [
      [' a ', 'a', 'b '],
      ['a', 'b'],
    ],
  ])('should dedupe %j in first-seen order', (values, expected) => {
    expect(uniqueRefs('dependencies', values)).toEqual(expected);
  });

  it.each([['task-1'], [' task-1 ']])('should refuse a self-reference %j', (self) => {
    const error = validationErrorOf(() => uniqueRefs('dependencies', ['task-2', self], 'task-1'));
    expect(error.code).toBe(ErrorCode.RequestValidationError);
    expect(error.message).toBe('dependencies: a task cannot reference itself');
  });

  it('should allow any reference when no own id is given', () => {
    expect(uniqueRefs('dependencies', ['task-1'])).toEqual(['task-1']);
  });

  it.each(['', '  '])('should refuse a blank reference %j', (blank) => {
    const error = validationErrorOf(() => uniqueRefs('reviewers', ['alice', blank], 'task-1'));
    expect(error.code).toBe(ErrorCode.RequestValidationError);
    expect(error.message).toBe('reviewers: must not be blank');
  });
});
