import pino from 'pino';

import type { AgentEntity } from '@app/persistence';
import type { AppConfig, LoggingRuntime } from '@app/platform';
import { agentRow, taskRow } from '@app/testing';

import type { AgentRoster } from '../agents';
import type { TaskLifecycle } from '../tasks';
import { AgentRunner } from './agent-runner';
import { RunMemory } from './run-memory';

/**
 * A runner whose task is assigned to `assigneeId` and whose roster knows `agents`. Every agent here
 * is on leave, so a run stops at the agent check (the task is blocked) before it routes or claims.
 */
function setup(assigneeId: string, agents: AgentEntity[], stopped = false) {
  const task = taskRow({ id: 'task-1', status: 'assigned', assignedTo: assigneeId, assigneeId });
  const lifecycle = {
    getOrThrow: jest.fn(() => Promise.resolve(task)),
    transition: jest.fn(() => Promise.resolve(task)),
  };
  const roster = {
    findByRef: jest.fn((ref: string) => Promise.resolve(agents.find((a) => a.id === ref) ?? null)),
  };
  const unused = {} as never;
  // An active agent's run gets as far as its claim: one model, a pre-flight that lets it through.
  const router = { route: () => ({ model: { provider: 'mock', id: 'mock-small' } }) };
  const preflight = { run: () => Promise.resolve({ ok: true, provider: 'mock', model: 'mock-small' }) };
  const runner = new AgentRunner(
    lifecycle as unknown as TaskLifecycle,
    roster as unknown as AgentRoster,
    unused,
    router as never,
    preflight as never,
    unused,
    unused,
    unused,
    unused,
    unused,
    unused,
    unused,
    new RunMemory(),
    unused,
    {} as AppConfig,
    { forName: () => pino({ level: 'silent' }) } as unknown as LoggingRuntime,
  );
  const control = { shouldStop: () => stopped, signal: new AbortController().signal };
  return { runner, lifecycle, roster, control };
}

describe(AgentRunner.name, () => {
  const ada = agentRow({ id: 'agent-1', name: 'Ada', status: 'on_leave' });
  const bob = agentRow({ id: 'agent-2', name: 'Bob', status: 'on_leave' });

  it('should use the agent read beside the task when the task still names it', async () => {
    const { runner, lifecycle, roster, control } = setup('agent-1', [ada, bob]);

    expect(await runner.run('task-1', 'owner-1', control, 'agent-1')).toBeNull();

    expect(roster.findByRef.mock.calls.map(([ref]) => ref)).toEqual(['agent-1']);
    expect(lifecycle.transition).toHaveBeenCalledWith(
      'task-1',
      'blocked',
      expect.objectContaining({ changes: expect.any(Function) }),
    );
  });

  it('should read the assignee again when the task was given to another agent after its job was queued', async () => {
    const { runner, lifecycle, roster, control } = setup('agent-2', [ada, bob]);

    expect(await runner.run('task-1', 'owner-1', control, 'agent-1')).toBeNull();

    expect(roster.findByRef.mock.calls.map(([ref]) => ref)).toEqual(['agent-1', 'agent-2']);
    const blocked = lifecycle.transition.mock.calls[0] as unknown as [string, string, { changes: () => object }];
    expect(blocked[2].changes()).toEqual({ statusReason: 'assignee agent-2 is not an active agent' });
  });

  it("should leave a fired agent's task assigned for its offboarding to hand over, not block it", async () => {
    const fired = agentRow({ id: 'agent-1', name: 'Ada', status: 'terminated' });
    const { runner, lifecycle, control } = setup('agent-1', [fired]);

    expect(await runner.run('task-1', 'owner-1', control, 'agent-1')).toBeNull();

    expect(lifecycle.transition).not.toHaveBeenCalled();
  });

  it('should not claim a task once its run was stopped while it prepared', async () => {
    const active = agentRow({ id: 'agent-1', name: 'Ada', status: 'active' });
    const { runner, lifecycle, control } = setup('agent-1', [active], true);

    expect(await runner.run('task-1', 'owner-1', control, 'agent-1')).toBeNull();

    expect(lifecycle.transition).not.toHaveBeenCalled();
  });

  it('should read the assignee itself when the early read failed', async () => {
    const { runner, roster, control } = setup('agent-1', [ada]);
    roster.findByRef.mockRejectedValueOnce(new Error('connection reset'));

    expect(await runner.run('task-1', 'owner-1', control, 'agent-1')).toBeNull();

    expect(roster.findByRef.mock.calls.map(([ref]) => ref)).toEqual(['agent-1', 'agent-1']);
  });
});
