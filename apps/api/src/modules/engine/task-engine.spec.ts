import { join } from 'node:path';

import pino from 'pino';

import type { TaskStatus } from '@app/domain';
import {
  type AppConfig,
  type DatabaseService,
  type DistributedLock,
  type LoggingRuntime,
  ServiceMetrics,
} from '@app/platform';
import { taskRow } from '@app/testing';

import type { RunDispatch, TaskLifecycle } from '../tasks';
import type { AgentRunner, RunEnd } from './agent-runner';
import type { RunParking } from './parking/run-parking';
import { RunRecovery } from './run-recovery';
import { RunSpend } from './run-spend';
import { TaskEngine } from './task-engine';
import type { WorkspaceManager } from './workspace/workspace-manager';

const WAITING = taskRow({ id: 'task-1', status: 'assigned', assignedTo: 'Ada', assigneeId: 'agent-1' });

/**
 * An engine on the in-process queue whose only waiting task is WAITING: each run of it answers the
 * next of `ends`, and a read of the task after a run finds it in `found`.
 */
function setup(ends: Array<RunEnd | null>, found: TaskStatus[] = []) {
  const lifecycle = {
    abandoned: jest.fn(() => Promise.resolve([])),
    orphaned: jest.fn(() => Promise.resolve([])),
    waiting: jest.fn(() => Promise.resolve([WAITING])),
    find: jest.fn((id: string) => Promise.resolve(taskRow({ ...WAITING, id, status: found.shift() ?? 'completed' }))),
    heartbeat: jest.fn(() => Promise.resolve()),
  };
  const runner = { run: jest.fn(() => Promise.resolve(ends.shift() ?? null)) };
  const parking = {
    onDecided: jest.fn(() => () => undefined),
    decidedFor: jest.fn(() => Promise.resolve(null)),
    decidedRuns: jest.fn(() => Promise.resolve([])),
  };
  const dispatch = { onAssigned: jest.fn(() => () => undefined), onMoved: jest.fn(() => () => undefined) };
  const workspaces = {
    init: jest.fn(() => Promise.resolve()),
    active: jest.fn(() => Promise.resolve([])),
    pathOf: (id: string) => join(__dirname, 'no-such-workspace', id),
  };
  const hooks = { register: jest.fn(() => () => undefined) };
  const config = {
    engine: {
      enabled: true,
      concurrency: 1,
      perAgentConcurrency: 1,
      heartbeatSeconds: 30,
      graceSeconds: 5,
      livenessGraceSeconds: 0,
    },
    persistence: { backend: 'sqlite' },
  };
  const logging = { forName: () => pino({ level: 'silent' }) } as unknown as LoggingRuntime;
  const engine = new TaskEngine(
    lifecycle as unknown as TaskLifecycle,
    dispatch as unknown as RunDispatch,
    runner as unknown as AgentRunner,
    workspaces as unknown as WorkspaceManager,
    { state: 'ready' } as unknown as DatabaseService,
    { tryRunExclusive: jest.fn() } as unknown as DistributedLock,
    hooks as never,
    parking as unknown as RunParking,
    hooks as never,
    new RunRecovery(lifecycle as unknown as TaskLifecycle, new RunSpend(), logging),
    {} as never,
    { enabled: false, start: () => Promise.resolve() } as never,
    { owner: 'this-replica' },
    config as unknown as AppConfig,
    logging,
    new ServiceMetrics(false),
  );
  /** Starts the engine, which queues WAITING and runs it, and stops it once that job is done. */
  const runWaiting = async (): Promise<void> => {
    await engine.onApplicationBootstrap();
    await engine.beforeApplicationShutdown();
  };
  return { engine, runWaiting, lifecycle, runner, parking };
}

describe(TaskEngine.name, () => {
  it('should not read a task again, nor look for a parked decision, once its run completed it', async () => {
    const { runWaiting, lifecycle, runner, parking } = setup([{ stored: 'completed' }]);

    await runWaiting();

    expect(runner.run).toHaveBeenCalledTimes(1);
    expect(lifecycle.find.mock.calls.map(([id]) => id)).toEqual([]);
    expect(parking.decidedFor).not.toHaveBeenCalled();
  });

  it('should read the task and look for a decision when its run left it in progress (parked)', async () => {
    const { runWaiting, lifecycle, runner, parking } = setup([{ stored: 'in_progress' }], ['in_progress']);

    await runWaiting();

    expect(runner.run).toHaveBeenCalledTimes(1);
    expect(lifecycle.find.mock.calls.map(([id]) => id)).toEqual(['task-1']);
    expect(parking.decidedFor).toHaveBeenCalledWith('task-1');
  });

  it('should run a task again while its outcome puts it back to assigned, until a run completes it', async () => {
    const { runWaiting, lifecycle, runner, parking } = setup(
      [{ stored: 'assigned' }, { stored: 'completed' }],
      ['assigned'],
    );

    await runWaiting();

    expect(runner.run).toHaveBeenCalledTimes(2);
    expect(lifecycle.find.mock.calls.map(([id]) => id)).toEqual(['task-1']);
    expect(parking.decidedFor).not.toHaveBeenCalled();
  });

  it('should judge by a fresh read when the outcome was not applied (someone moved the task)', async () => {
    const { runWaiting, lifecycle, runner, parking } = setup([{ stored: null }], ['cancelled']);

    await runWaiting();

    expect(runner.run).toHaveBeenCalledTimes(1);
    expect(lifecycle.find.mock.calls.map(([id]) => id)).toEqual(['task-1']);
    expect(parking.decidedFor).not.toHaveBeenCalled();
  });
});

describe('TaskEngine and its runs', () => {
  it('should hand the run the agent its job was queued for, to read beside the task', async () => {
    const { runWaiting, runner } = setup([{ stored: 'completed' }]);

    await runWaiting();

    expect(runner.run).toHaveBeenCalledWith('task-1', expect.any(String), expect.anything(), 'agent-1');
  });
});
