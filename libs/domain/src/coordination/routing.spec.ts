import type { RoutingCandidate } from './routing';
import { assignSubtask, dispatchPlanOf, parseTopology, resolveTopology, routingScore } from './routing';

const agent = (overrides: Partial<RoutingCandidate>): RoutingCandidate => ({
  id: overrides.name ?? 'a',
  name: 'a',
  role: 'Backend Developer',
  department: 'engineering',
  level: 'mid',
  primarySkills: [],
  secondarySkills: [],
  costPer1k: 1,
  load: 0,
  ...overrides,
});

const subtask = (overrides: Record<string, unknown> = {}) => ({
  id: 's1',
  requiredSkills: [] as string[],
  requiredRole: null as string | null,
  estimatedComplexity: 'medium' as const,
  assignedTo: null as string | null,
  ...overrides,
});

describe('routingScore', () => {
  it.each([
    [
      'primary skills, role and seniority met',
      agent({ primarySkills: ['ts'] }),
      subtask({ requiredSkills: ['ts'], requiredRole: 'backend developer' }),
      0.4 + 0.2 + 0.2,
    ],
    ['secondary skills only', agent({ secondarySkills: ['ts'] }), subtask({ requiredSkills: ['ts'] }), 0.2 + 0.2 + 0.2],
    [
      'half the skills in primary',
      agent({ primarySkills: ['ts'] }),
      subtask({ requiredSkills: ['ts', 'go'] }),
      0.2 + 0.2 + 0.2,
    ],
    [
      'the wrong role and seniority',
      agent({ level: 'junior' }),
      subtask({ requiredSkills: ['go'], requiredRole: 'Designer', estimatedComplexity: 'epic' }),
      0,
    ],
    ['a lead on complex work', agent({ level: 'lead' }), subtask({ estimatedComplexity: 'complex' }), 1],
  ])('should score %s', (_name, candidate, task, expected) => {
    expect(routingScore(candidate, task).score).toBeCloseTo(expected, 4);
  });
});

describe('assignSubtask', () => {
  const base = { minScore: 0.1, maxConcurrentTasksPerAgent: 5 };
  const ann = agent({ name: 'ann', primarySkills: ['ts'], load: 3, costPer1k: 5 });
  const bob = agent({ name: 'bob', load: 0, costPer1k: 1 });
  const cid = agent({ name: 'cid', level: 'principal', department: 'product', load: 1, costPer1k: 3 });

  it.each([
    ['role_based', 'ann'],
    ['load_balanced', 'bob'],
    ['cost_optimized', 'bob'],
    ['auction', 'bob'],
  ] as const)('should pick by %s', (strategy, expected) => {
    const result = assignSubtask(subtask({ requiredSkills: ['ts'] }), [ann, bob, cid], { ...base, strategy });
    expect(result.ok && result.selected.candidate.name).toBe(expected);
  });

  it('should prefer the parent department, then seniority when hierarchical', () => {
    const result = assignSubtask(subtask(), [ann, bob, cid], {
      ...base,
      strategy: 'hierarchical',
      parentDepartment: 'product',
    });
    expect(result.ok && result.selected.candidate.name).toBe('cid');
  });

  it('should skip agents at the concurrency limit when assigning', () => {
    const result = assignSubtask(subtask({ requiredSkills: ['ts'] }), [ann, bob], {
      ...base,
      strategy: 'role_based',
      maxConcurrentTasksPerAgent: 3,
    });
    expect(result.ok && result.selected.candidate.name).toBe('bob');
  });

  it('should select nobody when no candidate reaches the minimum score', () => {
    const result = assignSubtask(
      subtask({ requiredSkills: ['go'], requiredRole: 'x', estimatedComplexity: 'epic' }),
      [bob],
      { ...base, strategy: 'role_based' },
    );
    expect(result).toEqual({ ok: false, reason: 'no candidate scores at least 0.1' });
  });

  it.each([
    [null, /names no agent/],
    ['zed', /unknown agent "zed"/],
  ])('should fail a manual assignment naming %s', (name, message) => {
    const result = assignSubtask(subtask({ assignedTo: name }), [ann, bob], { ...base, strategy: 'manual' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(message);
  });

  it('should take the named agent when manual', () => {
    const result = assignSubtask(subtask({ assignedTo: 'BOB' }), [ann, bob], { ...base, strategy: 'manual' });
    expect(result.ok && result.selected.candidate.name).toBe('bob');
  });
});

describe('topology', () => {
  it.each([
    ['auto', 'sequential', 'sas'],
    ['auto', 'parallel', 'centralized'],
    ['auto', 'mixed', 'context_dependent'],
    ['decentralized', 'sequential', 'decentralized'],
  ] as const)('should resolve %s for a %s structure to %s', (requested, structure, expected) => {
    expect(resolveTopology(requested, structure)).toBe(expected);
  });

  it('should read the settings spelling of sas and fall back to auto', () => {
    expect(parseTopology('single_agent_sequential')).toBe('sas');
    expect(parseTopology('centralized')).toBe('centralized');
    expect(parseTopology('bogus')).toBe('auto');
  });

  it('should run sas one subtask at a time and require worktrees only when decentralized', () => {
    expect(dispatchPlanOf('sas')).toEqual({ sequential: true, isolation: 'never' });
    expect(dispatchPlanOf('decentralized').isolation).toBe('required');
  });
});
