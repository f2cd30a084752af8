import { MESSAGE_LIMITS } from '../messages/message-rules';
import {
  departmentChannel,
  nextOffboardingStep,
  OFFBOARDING_STEPS,
  offboardingNotice,
  offboardingStepReached,
  pickSuccessor,
  raisedPriority,
  type SuccessorCandidate,
} from './offboarding-rules';

function agent(id: string, overrides: Partial<SuccessorCandidate> = {}): SuccessorCandidate {
  return { id, name: id.toUpperCase(), department: 'engineering', status: 'active', position: 0, ...overrides };
}

describe('offboarding steps', () => {
  it('should run every step once, in order, from the request to the end', () => {
    const seen: string[] = [];
    for (let step = nextOffboardingStep('requested'); step !== null; step = nextOffboardingStep(step)) {
      seen.push(step);
    }
    expect(seen).toEqual([...OFFBOARDING_STEPS]);
    expect(nextOffboardingStep('offboarded')).toBeNull();
  });

  it('should tell whether a step is done by the time a record stands somewhere', () => {
    expect(offboardingStepReached('tasks_reassigned', 'tasks_interrupted')).toBe(true);
    expect(offboardingStepReached('tasks_reassigned', 'tasks_reassigned')).toBe(true);
    expect(offboardingStepReached('requested', 'terminated')).toBe(false);
  });

  it('should refuse a step it does not know', () => {
    expect(() => nextOffboardingStep('nope' as never)).toThrow(RangeError);
  });
});

describe(raisedPriority.name, () => {
  it.each([
    ['low', 'medium'],
    ['medium', 'high'],
    ['high', 'critical'],
    ['critical', 'critical'],
  ] as const)('should raise %s to %s', (from, to) => {
    expect(raisedPriority(from)).toBe(to);
  });
});

describe(pickSuccessor.name, () => {
  const departing = { id: 'gone', department: 'engineering' };

  it('should pick the least loaded active colleague of the department, roster order breaking ties', () => {
    const candidates = [
      agent('gone'),
      agent('busy', { position: 1 }),
      agent('idle-late', { position: 5 }),
      agent('idle-early', { position: 3 }),
      agent('other-dept', { department: 'product', position: 0 }),
      agent('on-leave', { status: 'on_leave', position: 0 }),
      agent('fired', { status: 'terminated', position: 0 }),
    ];
    const loads = new Map([['busy', 2]]);
    expect(pickSuccessor(candidates, departing, loads)?.id).toBe('idle-early');
    expect(pickSuccessor(candidates, departing, new Map([...loads, ['idle-early', 1]]))?.id).toBe('idle-late');
  });

  it('should answer null when the department has nobody else', () => {
    expect(pickSuccessor([agent('gone'), agent('pm', { department: 'product' })], departing, new Map())).toBeNull();
  });
});

describe(departmentChannel.name, () => {
  it.each([
    ['engineering', '#engineering'],
    ['quality_assurance', '#quality_assurance'],
    ['data analytics', '#data-analytics'],
    ['_R&D_', '#r-d'],
    ['!!!', '#all-hands'],
  ])('should name the channel of %s %s', (key, channel) => {
    expect(departmentChannel(key)).toBe(channel);
  });
});

describe(offboardingNotice.name, () => {
  const base = {
    agentName: 'Ada',
    role: 'Developer',
    department: 'engineering',
    reason: 'project_completion' as const,
  };

  it('should name the agent, the reason, the details and where each task went', () => {
    const text = offboardingNotice({
      ...base,
      details: 'The project shipped.',
      tasks: [
        { taskId: 'task-1', title: 'Write docs', toAgent: 'Bob' },
        { taskId: 'task-2', title: 'Fix bug', toAgent: null },
      ],
    });
    expect(text).toBe(
      [
        'Ada (Developer, engineering) has left the company (reason: project completion).',
        'The project shipped.',
        'Their 2 open task(s) were handed over:',
        '- task-1 "Write docs" to Bob',
        '- task-2 "Fix bug" unassigned: no other active agent in the department',
      ].join('\n'),
    );
  });

  it('should say so when there were no tasks, and count the tasks beyond the listed ones', () => {
    expect(offboardingNotice({ ...base, details: '', tasks: [] })).toContain('They held no open tasks.');
    const many = Array.from({ length: 25 }, (_, i) => ({ taskId: `task-${i}`, title: 'x'.repeat(2000), toAgent: 'B' }));
    const text = offboardingNotice({ ...base, details: '', tasks: many });
    expect(text.length).toBeLessThanOrEqual(MESSAGE_LIMITS.maxContentChars);
    expect(offboardingNotice({ ...base, details: '', tasks: many.map((t) => ({ ...t, title: 't' })) })).toContain(
      '- and 5 more',
    );
  });
});
