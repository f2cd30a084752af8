import { ErrorCode, type SubtaskDefinition } from '@app/domain';
import type { AgentEntity } from '@app/persistence';
import { EventBus } from '@app/platform';
import { actorContext, agentRow, makeServiceUnderTest, taskRow } from '@app/testing';

import { AgentRoster } from '../agents';
import { TaskEngine } from '../engine';
import { ModelRouter, ProviderRegistry, type RegisteredProvider } from '../providers';
import { SettingsSnapshot } from '../settings';
import { TaskLifecycle, TaskStatistics } from '../tasks';
import { CoordinateTaskUseCase } from './coordinate-task.use-case';
import { COORDINATION_SETTINGS } from './coordination.settings';
import { TaskDecomposer } from './task-decomposer';

/** The coordination namespace at its defaults, with overrides. */
function settings(overrides: Record<string, unknown> = {}): Pick<SettingsSnapshot, 'value'> {
  const values = new Map<string, unknown>(
    COORDINATION_SETTINGS.map((d) => {
      const raw = d.default;
      const parsed = d.type === 'int' || d.type === 'float' ? Number(raw) : d.type === 'bool' ? raw === 'true' : raw;
      return [d.key, parsed];
    }),
  );
  Object.entries(overrides).forEach(([key, value]) => values.set(key, value));
  return { value: ((_ns: string, key: string) => values.get(key)) as SettingsSnapshot['value'] };
}

const subtask = (id: string, overrides: Partial<SubtaskDefinition> = {}): SubtaskDefinition => ({
  id,
  title: id,
  description: id,
  dependencies: [],
  estimatedComplexity: 'medium',
  requiredSkills: [],
  requiredRole: null,
  assignedTo: null,
  ...overrides,
});

describe(CoordinateTaskUseCase.name, () => {
  const ada = agentRow({ name: 'Ada' });

  function build(options: { engineRunning?: boolean; settings?: Record<string, unknown> } = {}) {
    const built = makeServiceUnderTest(CoordinateTaskUseCase, [
      { provide: TaskEngine, useValue: { isRunning: options.engineRunning ?? true, owner: 'replica-1' } },
      { provide: SettingsSnapshot, useValue: settings(options.settings) },
    ]);
    built.mock(ProviderRegistry).list.mockReturnValue([{} as RegisteredProvider]);
    built.mock(EventBus).publish.mockResolvedValue(undefined);
    built.mock(ModelRouter).models.mockReturnValue([]);
    return built;
  }

  function staffed(built: ReturnType<typeof build>, agents: AgentEntity[] = [ada], status = 'created') {
    built.mock(TaskLifecycle).getOrThrow.mockResolvedValue(taskRow({ status }));
    built.mock(AgentRoster).all.mockResolvedValue(agents);
  }

  it.each<[string, { providers: number; engineRunning: boolean }]>([
    ['no provider is registered', { providers: 0, engineRunning: true }],
    ['the engine is off', { providers: 1, engineRunning: false }],
  ])('should answer 503 when %s', async (_why, setup) => {
    const { sut, mock } = build({ engineRunning: setup.engineRunning });
    if (setup.providers === 0) {
      mock(ProviderRegistry).list.mockReturnValue([]);
    }
    await expect(sut.execute(actorContext(), 'task-1', {})).rejects.toMatchObject({
      code: ErrorCode.ServiceUnavailable,
    });
  });

  it('should answer 503 when no agent is active', async () => {
    const built = build();
    staffed(built, [agentRow({ name: 'Gone', status: 'terminated' })]);
    await expect(built.sut.execute(actorContext(), 'task-1', {})).rejects.toMatchObject({
      code: ErrorCode.ServiceUnavailable,
    });
  });

  it('should refuse an agent name listed twice', async () => {
    const built = build();
    staffed(built);
    await expect(built.sut.execute(actorContext(), 'task-1', { agent_names: ['Ada', 'ADA'] })).rejects.toMatchObject({
      code: ErrorCode.CoordinationAgentUnknown,
    });
  });

  it('should fail the route phase with 2086 when a manual assignment names nobody', async () => {
    const built = build({ settings: { assignment_strategy: 'manual' } });
    staffed(built);
    built.mock(TaskStatistics).activeLoads.mockResolvedValue(new Map());
    built
      .mock(TaskDecomposer)
      .decompose.mockResolvedValue({ subtasks: [subtask('a')], provider: 'p', model: 'm', tokens: 10, cost: 0.1 });
    await expect(built.sut.execute(actorContext(), 'task-1', {})).rejects.toMatchObject({
      code: ErrorCode.CoordinationRouteFailed,
      message: expect.stringMatching(/phase route: subtask "a" names no agent/),
    });
  });

  it.each([
    ['the parent is already running', {}, 'in_progress', /only a created task can be coordinated/],
    ['no agent scores high enough', { min_score: 1 }, 'created', /no subtask can be routed/],
    [
      'a decentralized run has no worktrees',
      { default_topology: 'decentralized', enable_workspace_isolation: false },
      'created',
      /needs workspace isolation/,
    ],
  ])('should fail the validate phase with 2087 when %s', async (_why, overrides, status, message) => {
    const built = build({ settings: overrides });
    staffed(built, [ada], status);
    built.mock(TaskStatistics).activeLoads.mockResolvedValue(new Map());
    built.mock(TaskDecomposer).decompose.mockResolvedValue({
      subtasks: [subtask('a', { requiredSkills: ['go'] })],
      provider: 'p',
      model: 'm',
      tokens: 10,
      cost: 0.1,
    });
    await expect(built.sut.execute(actorContext(), 'task-1', {})).rejects.toMatchObject({
      code: ErrorCode.CoordinationValidateFailed,
      message: expect.stringMatching(message),
    });
  });
});
