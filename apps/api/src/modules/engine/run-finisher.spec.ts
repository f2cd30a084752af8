import pino from 'pino';

import { ConflictError, ErrorCode, type ReactLoopResult, type TaskStatus } from '@app/domain';
import type { TaskEntity, TaskMetricEntity } from '@app/persistence';
import { type LoggingRuntime, ServiceMetrics } from '@app/platform';
import { agentRow, gate, taskRow } from '@app/testing';

import type { TaskChanges, TaskLifecycle } from '../tasks';
import { RunMemory } from './run-memory';
import { RunFinisher } from './run-finisher';
import type { RunRecordsRepository } from './run-records.repository';
import type { RunSession } from './run-session';
import type { MergedFiles } from './workspace/merged-files';
import type { Workspace, WorkspaceManager } from './workspace/workspace-manager';

const COMPLETED: ReactLoopResult = {
  reason: 'completed',
  turns: 1,
  inputTokens: 100,
  outputTokens: 20,
  finalContent: 'Done.',
  truncated: false,
  detail: null,
  error: null,
  messages: [],
};

/** Everything the finisher touched, in order. */
type Step = string;

function setup(options: { workspace?: boolean; retryCount?: number; maxRetries?: number } = {}) {
  const steps: Step[] = [];
  const metrics = new Map<string, TaskMetricEntity>();
  const settle = gate();
  const records = {
    insertMetric: jest.fn((row: TaskMetricEntity) => {
      steps.push(`metric ${row.isSuccess ? 'success' : 'failure'}`);
      metrics.set(row.id, row);
      return Promise.resolve();
    }),
    deleteMetric: jest.fn((id: string | null) => {
      steps.push('metric deleted');
      if (id !== null) {
        metrics.delete(id);
      }
      return Promise.resolve();
    }),
  };
  const task = taskRow({
    status: 'in_progress',
    assignedTo: 'Ada',
    assigneeId: 'agent-1',
    retryCount: options.retryCount ?? 0,
    maxRetries: options.maxRetries ?? 1,
  });
  const writes: { path: readonly TaskStatus[]; changes: TaskChanges[] }[] = [];
  const lifecycle = {
    transitionThrough: jest.fn(
      (
        _id: string,
        path: readonly TaskStatus[],
        opts: { changes: (row: TaskEntity, step: TaskStatus) => TaskChanges; current: TaskEntity },
      ) => {
        steps.push(`write ${path.join(' > ')}`);
        writes.push({ path, changes: path.map((step) => opts.changes(opts.current, step)) });
        return Promise.resolve({ ...opts.current, status: path[path.length - 1] });
      },
    ),
    update: jest.fn((_id: string, changes: (row: TaskEntity) => TaskChanges) =>
      Promise.resolve({ ...task, ...changes(task) }),
    ),
  };
  const workspaces = {
    merge: jest.fn(() => {
      steps.push('merge');
      return Promise.resolve({ merged: true, sha: 'abc123', conflicts: [] });
    }),
  };
  const merged = { note: jest.fn((_id: string, sha: string | null) => steps.push(`note ${sha}`)) };
  const logging = { forName: () => pino({ level: 'silent' }) };
  const sut = new RunFinisher(
    lifecycle as unknown as TaskLifecycle,
    records as unknown as RunRecordsRepository,
    workspaces as unknown as WorkspaceManager,
    merged as unknown as MergedFiles,
    new RunMemory(),
    logging as unknown as LoggingRuntime,
    new ServiceMetrics(false),
  );
  const session = {
    spent: 0.25,
    promptTokens: 100,
    coordinationTokens: 0,
    workspace: options.workspace ? ({ path: '/w' } as unknown as Workspace) : null,
    settle: jest.fn(() => {
      steps.push('settle');
      return settle.promise.then(() => {
        steps.push('settled');
      });
    }),
  } as unknown as RunSession;
  const agent = agentRow({ id: 'agent-1', name: 'Ada' });
  return { sut, steps, settle, metrics, records, lifecycle, writes, workspaces, session, prepared: { task, agent } };
}

describe(RunFinisher.name, () => {
  it('should write the metric while the cost records land, then complete in one write of two steps', async () => {
    const { sut, steps, settle, writes, metrics, session, prepared } = setup();

    const finishing = sut.finish(prepared, session, COMPLETED, Date.now());
    await new Promise((resolve) => setImmediate(resolve));
    expect(steps).toEqual(['settle', 'metric success']);
    settle.open();
    await expect(finishing).resolves.toBe('completed');

    expect(steps).toEqual(['settle', 'metric success', 'settled', 'note null', 'write in_review > completed']);
    expect(writes[0].changes[0]).toMatchObject({ statusReason: 'completed', runOwner: null });
    expect(writes[0].changes[1]).toMatchObject({ statusReason: null, result: 'Done.', completedAt: expect.any(Date) });
    expect([...metrics.values()]).toEqual([expect.objectContaining({ isSuccess: true, costUsd: 0.25, turnsUsed: 1 })]);
  });

  it('should fail a run whose cost record was not written, replacing the metric begun for its success', async () => {
    const { sut, steps, settle, writes, metrics, session, prepared } = setup({ retryCount: 0, maxRetries: 1 });

    const finishing = sut.finish(prepared, session, COMPLETED, Date.now());
    settle.fail(new Error('cost record not written: disk full'));
    await expect(finishing).resolves.toBe('assigned');

    expect(steps).toEqual(['settle', 'metric success', 'metric deleted', 'metric failure', 'write failed > assigned']);
    expect([...metrics.values()]).toEqual([expect.objectContaining({ isSuccess: false })]);
    expect(writes[0].changes[0]).toMatchObject({ statusReason: 'cost record not written: disk full' });
    expect(writes[0].changes[1]).toMatchObject({ retryCount: 1 });
  });

  it('should merge a completed run only once its cost records are in', async () => {
    const { sut, steps, settle, session, prepared } = setup({ workspace: true });

    const finishing = sut.finish(prepared, session, COMPLETED, Date.now());
    await new Promise((resolve) => setImmediate(resolve));
    expect(steps).toEqual(['settle']);
    settle.open();
    await finishing;

    expect(steps).toEqual([
      'settle',
      'settled',
      'merge',
      'note abc123',
      'metric success',
      'write in_review > completed',
    ]);
  });

  it('should not merge the work of a run whose cost record was not written', async () => {
    const { sut, steps, settle, workspaces, session, prepared } = setup({ workspace: true, maxRetries: 0 });

    const finishing = sut.finish(prepared, session, COMPLETED, Date.now());
    settle.fail(new Error('cost record not written: gone'));
    await finishing;

    expect(workspaces.merge).not.toHaveBeenCalled();
    expect(steps).toEqual(['settle', 'metric failure', 'write failed']);
  });

  it('should leave a run stopped at max turns in progress with its reason and no metric', async () => {
    const { sut, steps, settle, lifecycle, metrics, session, prepared } = setup();
    settle.open();

    const stored = await sut.finish(prepared, session, { ...COMPLETED, reason: 'max_turns' }, Date.now());

    expect(stored).toBe('in_progress');
    expect(metrics.size).toBe(0);
    expect(lifecycle.transitionThrough).not.toHaveBeenCalled();
    expect(lifecycle.update).toHaveBeenCalledTimes(1);
    expect(steps).toEqual(['settle', 'settled']);
  });

  it('should answer no status when someone moved the task before the outcome was written', async () => {
    const { sut, settle, lifecycle, session, prepared } = setup();
    lifecycle.transitionThrough.mockImplementationOnce(() =>
      Promise.reject(new ConflictError('Task "t" is at version 9, not 3', ErrorCode.TaskVersionConflict)),
    );
    settle.open();

    await expect(sut.finish(prepared, session, COMPLETED, Date.now())).resolves.toBeNull();
  });
});
