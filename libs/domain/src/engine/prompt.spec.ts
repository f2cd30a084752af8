import { buildSystemPrompt, buildTaskMessage, type PromptAgent, type PromptTask, seedMessages } from '@app/domain';

const agent = (overrides: Partial<PromptAgent> = {}): PromptAgent => ({
  name: 'Ada',
  role: 'backend developer',
  level: 'senior',
  department: 'engineering',
  personality: {},
  ...overrides,
});

const task = (overrides: Partial<PromptTask> = {}): PromptTask => ({
  id: 'task-0123',
  title: 'Add a health endpoint',
  description: 'Expose GET /health returning 200.',
  type: 'development',
  priority: 'high',
  deadline: null,
  acceptanceCriteria: [],
  ...overrides,
});

describe('buildSystemPrompt', () => {
  it('should name the agent, level, role and department', () => {
    const prompt = buildSystemPrompt(agent());
    expect(prompt.split('\n')[0]).toBe('You are Ada, a senior backend developer in the engineering department.');
  });

  it('should hyphenate a snake_case level', () => {
    expect(buildSystemPrompt(agent({ level: 'c_suite' }))).toContain('a c-suite backend developer');
  });

  it('should leave out the personality when there is none', () => {
    const prompt = buildSystemPrompt(agent());
    expect(prompt).not.toContain('Working style');
    expect(prompt.split('\n')).toHaveLength(3);
  });

  it('should include the trimmed personality description', () => {
    const prompt = buildSystemPrompt(agent({ personality: { description: '  Calm and methodical.  ' } }));
    expect(prompt.split('\n')[1]).toBe('Calm and methodical.');
    expect(prompt).not.toContain('Working style');
  });

  it('should include the traits and other style fields when present', () => {
    const prompt = buildSystemPrompt(
      agent({
        personality: {
          traits: ['curious', 'precise'],
          communication_style: 'concise',
          decision_making: 'data-driven',
          verbosity: 'low',
        },
      }),
    );
    expect(prompt).toContain(
      'Working style (traits: curious, precise; communication: concise; decisions: data-driven; verbosity: low).',
    );
  });

  it('should leave out empty traits', () => {
    const prompt = buildSystemPrompt(agent({ personality: { traits: [] } }));
    expect(prompt).not.toContain('traits');
    expect(prompt).not.toContain('Working style');
  });

  it('should end with the workspace and finishing instructions', () => {
    const lines = buildSystemPrompt(agent()).split('\n');
    expect(lines.at(-2)).toContain('git workspace');
    expect(lines.at(-1)).toBe('When the task is done, reply with a short summary of what you did and no tool calls.');
  });
});

describe('buildTaskMessage', () => {
  it('should state the id, title, type, priority and description', () => {
    expect(buildTaskMessage(task())).toBe(
      [
        'Task task-0123: Add a health endpoint',
        'Type: development. Priority: high.',
        '',
        'Expose GET /health returning 200.',
      ].join('\n'),
    );
  });

  it('should include the deadline when set', () => {
    expect(buildTaskMessage(task({ deadline: '2026-03-01T12:00:00.000Z' })).split('\n')[1]).toBe(
      'Type: development. Priority: high. Deadline: 2026-03-01T12:00:00.000Z.',
    );
  });

  it('should list only the unmet acceptance criteria', () => {
    const message = buildTaskMessage(
      task({
        acceptanceCriteria: [
          { description: 'returns 200', met: true },
          { description: 'has a test', met: false },
          { description: 'is documented' },
        ],
      }),
    );
    expect(message.endsWith('\n\nAcceptance criteria:\n- has a test\n- is documented')).toBe(true);
    expect(message).not.toContain('returns 200');
  });

  it('should leave out the criteria heading when every criterion is met', () => {
    const message = buildTaskMessage(task({ acceptanceCriteria: [{ description: 'returns 200', met: true }] }));
    expect(message).not.toContain('Acceptance criteria');
  });
});

describe('seedMessages', () => {
  it('should answer the system prompt then the task message', () => {
    expect(seedMessages(agent(), task())).toEqual([
      { role: 'system', content: buildSystemPrompt(agent()) },
      { role: 'user', content: buildTaskMessage(task()) },
    ]);
  });
});
