// Shared fixtures of the TaskLifecycle specs (excluded from the build).
import pino from 'pino';

import type { TaskEntity } from '@app/persistence';
import type { EventBus, LoggingRuntime, PublishableEvent } from '@app/platform';

import { RunDispatch } from './run-dispatch';
import { TaskLifecycle } from './task-lifecycle';
import type { TaskChanges, TasksRepository } from './tasks.repository';

export const T0 = new Date('2026-01-01T00:00:00.000Z');

export const ASSIGNED = { assignedTo: 'Ada', assigneeId: 'agent-ada' } as const;

/** The repository's contract in memory: rows are copied in and out, every CAS bumps the version. */
export class FakeTasksRepository {
  readonly rows = new Map<string, TaskEntity>();
  readonly casCalls: { id: string; version: number; changes: TaskChanges; steps: number }[] = [];
  /** Runs just before the next compare-and-set, like a concurrent writer sneaking in. */
  beforeNextCas: (() => void) | null = null;

  findById = jest.fn((id: string): Promise<TaskEntity | null> => {
    const row = this.rows.get(id);
    return Promise.resolve(row ? { ...row } : null);
  });

  insert = jest.fn((row: TaskEntity): Promise<void> => {
    this.rows.set(row.id, { ...row });
    return Promise.resolve();
  });

  compareAndSet = jest.fn((base: TaskEntity, changes: TaskChanges, steps = 1): Promise<TaskEntity | null> => {
    const { id, version } = base;
    this.casCalls.push({ id, version, changes, steps });
    const interfere = this.beforeNextCas;
    this.beforeNextCas = null;
    interfere?.();
    const row = this.rows.get(id);
    if (!row || row.version !== version) {
      return Promise.resolve(null);
    }
    const saved = { ...row, ...changes, version: row.version + steps, updatedAt: new Date() };
    this.rows.set(id, saved);
    return Promise.resolve({ ...saved });
  });

  delete = jest.fn((id: string): Promise<boolean> => Promise.resolve(this.rows.delete(id)));

  /** Another writer's edit: bumps the stored version. */
  bump(id: string, changes: TaskChanges = {}): void {
    const row = this.rows.get(id);
    if (row) {
      this.rows.set(id, { ...row, ...changes, version: row.version + 1 });
    }
  }
}

/** A TaskLifecycle over the fake repository and a bus that records what is published (unless `publish` is given). */
export function setupLifecycle(seed: TaskEntity[] = [], publish?: (event: PublishableEvent) => Promise<void>) {
  const repo = new FakeTasksRepository();
  for (const row of seed) {
    repo.rows.set(row.id, { ...row });
  }
  const events: PublishableEvent[] = [];
  const bus: EventBus = {
    publish:
      publish ??
      ((event: PublishableEvent) => {
        events.push(event);
        return Promise.resolve();
      }),
    subscribe: () => () => {},
  };
  const logging = { forName: () => pino({ level: 'silent' }) };
  const dispatch = new RunDispatch(bus, logging as unknown as LoggingRuntime);
  const sut = new TaskLifecycle(
    repo as unknown as TasksRepository,
    bus,
    dispatch,
    logging as unknown as LoggingRuntime,
  );
  return { sut, repo, events, dispatch };
}

/** What the promise rejects with; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
