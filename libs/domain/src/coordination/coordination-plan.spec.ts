import type { TaskStatus } from '../tasks/task-enums';
import {
  classifyStructure,
  computeWaves,
  DecompositionError,
  limitWaves,
  parentSteps,
  parseDecomposition,
  rollupStatus,
  subtaskSettled,
  validateDag,
} from './coordination-plan';

const node = (id: string, ...dependencies: string[]) => ({ id, dependencies });

describe('validateDag', () => {
  it.each([
    ['a chain', [node('a'), node('b', 'a'), node('c', 'b')]],
    ['a diamond', [node('a'), node('b', 'a'), node('c', 'a'), node('d', 'b', 'c')]],
    ['independent subtasks', [node('a'), node('b')]],
  ])('should accept %s when every dependency is known and acyclic', (_name, graph) => {
    expect(() => validateDag(graph)).not.toThrow();
  });

  it.each([
    ['a two-node cycle', [node('a', 'b'), node('b', 'a')], /cycle: a -> b -> a/],
    ['a longer cycle', [node('a'), node('b', 'a', 'd'), node('c', 'b'), node('d', 'c')], /cycle: b -> d -> c -> b/],
    ['a self-dependency', [node('a', 'a')], /depends on itself/],
    ['a dangling dependency', [node('a'), node('b', 'zz')], /unknown subtask "zz"/],
    ['a duplicate id', [node('a'), node('a')], /used twice/],
  ])('should reject %s when the graph is checked', (_name, graph, message) => {
    expect(() => validateDag(graph)).toThrow(message);
  });
});

describe('computeWaves', () => {
  it.each([
    ['parallel subtasks in one wave', [node('a'), node('b'), node('c')], [['a', 'b', 'c']]],
    ['a chain one per wave', [node('a'), node('b', 'a'), node('c', 'b')], [['a'], ['b'], ['c']]],
    [
      'a diamond in three waves',
      [node('a'), node('b', 'a'), node('c', 'a'), node('d', 'b', 'c')],
      [['a'], ['b', 'c'], ['d']],
    ],
    ['dependencies listed after their dependants', [node('c', 'a', 'b'), node('a'), node('b')], [['a', 'b'], ['c']]],
    ['a deep dependency beside a shallow one', [node('a'), node('b', 'a'), node('c', 'a', 'b')], [['a'], ['b'], ['c']]],
  ])('should put %s', (_name, graph, expected) => {
    expect(computeWaves(graph).map((wave) => wave.map((s) => s.id))).toEqual(expected);
  });

  it('should cut waves to the concurrency limit when one is set', () => {
    expect(limitWaves([[1, 2, 3], [4]], 2)).toEqual([[1, 2], [3], [4]]);
    expect(limitWaves([[1, 2, 3]], null)).toEqual([[1, 2, 3]]);
  });
});

describe('classifyStructure', () => {
  it.each([
    [[['a'], ['b']], 'sequential'],
    [[['a']], 'sequential'],
    [[['a', 'b']], 'parallel'],
    [[['a', 'b'], ['c']], 'mixed'],
  ])('should classify waves %j as %s', (waves, expected) => {
    expect(classifyStructure(waves)).toBe(expected);
  });
});

describe('parseDecomposition', () => {
  it('should read subtasks with defaults when optional fields are missing', () => {
    const parsed = parseDecomposition(
      {
        subtasks: [
          { id: 'a', title: 'Plan' },
          { id: 'b', title: 'Build', dependencies: ['a'], estimated_complexity: 'complex', required_skills: ['ts'] },
        ],
      },
      10,
    );
    expect(parsed).toEqual([
      {
        id: 'a',
        title: 'Plan',
        description: 'Plan',
        dependencies: [],
        estimatedComplexity: 'medium',
        requiredSkills: [],
        requiredRole: null,
        assignedTo: null,
      },
      {
        id: 'b',
        title: 'Build',
        description: 'Build',
        dependencies: ['a'],
        estimatedComplexity: 'complex',
        requiredSkills: ['ts'],
        requiredRole: null,
        assignedTo: null,
      },
    ]);
  });

  it.each([
    ['no subtasks array', { tasks: [] }, /no "subtasks" array/],
    ['an empty list', { subtasks: [] }, /no subtasks/],
    [
      'too many subtasks',
      {
        subtasks: [
          { id: 'a', title: 'x' },
          { id: 'b', title: 'y' },
          { id: 'c', title: 'z' },
        ],
      },
      /at most 2/,
    ],
    ['a missing title', { subtasks: [{ id: 'a' }] }, /subtasks\[0\]\.title is required/],
    [
      'an unknown complexity',
      { subtasks: [{ id: 'a', title: 'x', estimated_complexity: 'huge' }] },
      /estimated_complexity/,
    ],
    [
      'a cycle',
      {
        subtasks: [
          { id: 'a', title: 'x', dependencies: ['b'] },
          { id: 'b', title: 'y', dependencies: ['a'] },
        ],
      },
      /cycle/,
    ],
  ])('should refuse %s when a decomposition is read', (_name, raw, message) => {
    expect(() => parseDecomposition(raw, 2)).toThrow(DecompositionError);
    expect(() => parseDecomposition(raw, 2)).toThrow(message);
  });
});

describe('rollupStatus', () => {
  it.each<[TaskStatus[], TaskStatus]>([
    [[], 'created'],
    [['completed', 'completed'], 'completed'],
    [['cancelled', 'cancelled'], 'cancelled'],
    [['completed', 'failed', 'in_progress'], 'failed'],
    [['completed', 'in_progress', 'blocked'], 'in_progress'],
    [['completed', 'blocked', 'assigned'], 'blocked'],
    [['completed', 'cancelled'], 'cancelled'],
    [['completed', 'assigned'], 'in_progress'],
    [['created'], 'in_progress'],
  ])('should roll %j up to %s', (statuses, expected) => {
    expect(rollupStatus(statuses)).toBe(expected);
  });
});

describe('parentSteps and subtaskSettled', () => {
  it.each<[TaskStatus, TaskStatus[] | null]>([
    ['completed', ['in_review', 'completed']],
    ['failed', ['failed']],
    ['in_progress', []],
    ['created', null],
  ])('should move a parent in progress to %s by %j', (target, steps) => {
    expect(parentSteps(target)).toEqual(steps);
  });

  it.each<[TaskStatus, number, number, boolean]>([
    ['completed', 0, 1, true],
    ['cancelled', 0, 1, true],
    ['blocked', 0, 1, true],
    ['failed', 0, 1, false],
    ['failed', 1, 1, true],
    ['in_progress', 0, 0, false],
    ['assigned', 0, 0, false],
  ])('should treat %s (retries %i of %i) as settled: %s', (status, retries, max, settled) => {
    expect(subtaskSettled(status, retries, max)).toBe(settled);
  });
});
