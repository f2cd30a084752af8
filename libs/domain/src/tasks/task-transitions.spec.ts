import {
  AppError,
  assertAssignment,
  assertCancellable,
  assertTransition,
  canTransition,
  ConflictError,
  ErrorCode,
  isTerminalStatus,
  TASK_STATUSES,
  TASK_TRANSITIONS,
  type TaskStatus,
} from '@app/domain';

const LEGAL: ReadonlyArray<readonly [TaskStatus, TaskStatus]> = [
  ['created', 'assigned'],
  ['assigned', 'in_progress'],
  ['assigned', 'blocked'],
  ['assigned', 'cancelled'],
  ['assigned', 'failed'],
  ['assigned', 'interrupted'],
  ['in_progress', 'in_review'],
  ['in_progress', 'blocked'],
  ['in_progress', 'cancelled'],
  ['in_progress', 'failed'],
  ['in_progress', 'interrupted'],
  ['in_review', 'completed'],
  ['in_review', 'in_progress'],
  ['in_review', 'blocked'],
  ['in_review', 'cancelled'],
  ['blocked', 'assigned'],
  ['failed', 'assigned'],
  ['interrupted', 'assigned'],
];

const isLegal = (from: TaskStatus, to: TaskStatus): boolean => LEGAL.some(([f, t]) => f === from && t === to);

const ALL_PAIRS = TASK_STATUSES.flatMap((from) => TASK_STATUSES.map((to) => [from, to] as const));
const TERMINAL: readonly TaskStatus[] = ['completed', 'cancelled'];

function conflictOf(fn: () => unknown): ConflictError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConflictError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a ConflictError');
}

describe('TASK_TRANSITIONS', () => {
  it('should cover all 81 ordered pairs of the 9 statuses', () => {
    expect(TASK_STATUSES).toHaveLength(9);
    expect(ALL_PAIRS).toHaveLength(81);
    expect(Object.keys(TASK_TRANSITIONS).sort()).toEqual([...TASK_STATUSES].sort());
  });

  it('should list exactly the expected legal moves', () => {
    const table = TASK_STATUSES.flatMap((from) => TASK_TRANSITIONS[from].map((to) => [from, to] as const));
    expect(table).toHaveLength(LEGAL.length);
    expect(table).toEqual(expect.arrayContaining(LEGAL.map((pair) => [...pair])));
  });

  it('should never allow a move to the same state', () => {
    for (const status of TASK_STATUSES) {
      expect(TASK_TRANSITIONS[status]).not.toContain(status);
    }
  });
});

describe('assertTransition', () => {
  it.each(ALL_PAIRS.filter(([from, to]) => isLegal(from, to)))('should allow %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it.each(ALL_PAIRS.filter(([from]) => TERMINAL.includes(from)))(
    'should refuse %s -> %s with 4016 because the source is terminal',
    (from, to) => {
      expect(canTransition(from, to)).toBe(false);
      const error = conflictOf(() => assertTransition(from, to));
      expect(error.code).toBe(ErrorCode.TaskAlreadyTerminal);
      expect(error.code).toBe(4016);
      expect(error.message).toContain(from);
      expect(error.message).toContain(to);
    },
  );

  it.each(ALL_PAIRS.filter(([from, to]) => !TERMINAL.includes(from) && !isLegal(from, to)))(
    'should refuse %s -> %s with 4015 naming the legal exits',
    (from, to) => {
      expect(canTransition(from, to)).toBe(false);
      const error = conflictOf(() => assertTransition(from, to));
      expect(error.code).toBe(ErrorCode.InvalidTaskTransition);
      expect(error.code).toBe(4015);
      expect(error.message).toContain(`${from} -> ${to}`);
      expect(error.message).toContain(`allowed from ${from}: ${TASK_TRANSITIONS[from].join(', ')}`);
    },
  );

  it('should account for every one of the 81 pairs exactly once', () => {
    const legal = ALL_PAIRS.filter(([from, to]) => isLegal(from, to)).length;
    const terminal = ALL_PAIRS.filter(([from]) => TERMINAL.includes(from)).length;
    const otherIllegal = ALL_PAIRS.filter(([from, to]) => !TERMINAL.includes(from) && !isLegal(from, to)).length;
    expect([legal, terminal, otherIllegal]).toEqual([18, 18, 45]);
    expect(legal + terminal + otherIllegal).toBe(81);
  });

  it('should throw a 409 AppError', () => {
    const error = conflictOf(() => assertTransition('created', 'completed'));
    expect(error).toBeInstanceOf(AppError);
    expect(error.httpStatus).toBe(409);
  });
});

describe('assertCancellable', () => {
  it.each<TaskStatus>(['assigned', 'in_progress', 'in_review'])('should allow cancelling a task that is %s', (from) => {
    expect(() => assertCancellable(from)).not.toThrow();
  });

  it.each<[TaskStatus, ErrorCode]>([
    ['created', ErrorCode.InvalidTaskTransition],
    ['blocked', ErrorCode.InvalidTaskTransition],
    ['failed', ErrorCode.InvalidTaskTransition],
    ['interrupted', ErrorCode.InvalidTaskTransition],
    ['completed', ErrorCode.TaskAlreadyTerminal],
    ['cancelled', ErrorCode.TaskAlreadyTerminal],
  ])('should refuse cancelling a task that is %s with %s', (from, code) => {
    expect(conflictOf(() => assertCancellable(from)).code).toBe(code);
  });
});

describe('assertAssignment', () => {
  // [status, without an assignee allowed, with an assignee allowed]
  it.each<[TaskStatus, boolean, boolean]>([
    ['created', true, false],
    ['assigned', false, true],
    ['in_progress', false, true],
    ['in_review', false, true],
    ['completed', false, true],
    ['blocked', true, true],
    ['failed', true, true],
    ['interrupted', true, true],
    ['cancelled', true, true],
  ])('should check a %s task (unassigned ok: %s, assigned ok: %s)', (status, withoutOk, withOk) => {
    for (const [assignee, ok] of [
      [null, withoutOk],
      ['', withoutOk],
      ['alice', withOk],
    ] as const) {
      if (ok) {
        expect(() => assertAssignment(status, assignee)).not.toThrow();
      } else {
        expect(conflictOf(() => assertAssignment(status, assignee)).code).toBe(ErrorCode.TaskAssignmentConflict);
      }
    }
  });

  it('should use code 4017', () => {
    expect(conflictOf(() => assertAssignment('assigned', null)).code).toBe(4017);
    expect(conflictOf(() => assertAssignment('created', 'alice')).code).toBe(4017);
  });
});

describe('isTerminalStatus', () => {
  it.each(TASK_STATUSES.map((status) => [status, TERMINAL.includes(status)] as const))(
    'should answer for %s: %s',
    (status, terminal) => {
      expect(isTerminalStatus(status)).toBe(terminal);
    },
  );
});
