import type { DataSource } from 'typeorm';

import { createDataSource, runMigrations, type TaskEntity } from '@app/persistence';
import type { DatabaseService } from '@app/platform';
import { createTestDatabase, type TestDatabase, taskRow, testBackends } from '@app/testing';

import { TasksRepository } from '../../../apps/api/src/modules/tasks/tasks.repository';

function storedTask(id: string): TaskEntity {
  const at = new Date('2026-01-02T03:04:05.678Z');
  return taskRow({
    id,
    type: 'documentation',
    reviewers: ['reviewer-1'],
    acceptanceCriteria: [{ description: 'covers every change', met: false }],
    budgetLimit: 0.25,
    createdAt: at,
    updatedAt: at,
  });
}

describe.each(testBackends())('TasksRepository on %s', (backend) => {
  let db: TestDatabase;
  let source: DataSource;
  let repo: TasksRepository;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    source = await createDataSource(db.settings).initialize();
    await runMigrations(source);
    repo = new TasksRepository({ dataSource: source } as DatabaseService);
  });

  afterAll(async () => {
    await source?.destroy();
    await db?.drop();
  });

  it('should answer a compare-and-set with exactly the row a fresh read returns', async () => {
    const base = storedTask('task-cas-1');
    await repo.insert(base);
    const startedAt = new Date('2026-01-02T03:05:00.123Z');

    const saved = await repo.compareAndSet(base, {
      status: 'in_progress',
      assignedTo: 'ada',
      assigneeId: 'agent-1',
      acceptanceCriteria: [{ description: 'covers every change', met: true }],
      delegationChain: ['ceo', 'ada'],
      runOwner: 'replica-1',
      runHeartbeatAt: startedAt,
      startedAt,
      statusReason: undefined,
    });

    expect(saved).not.toBeNull();
    expect(saved?.version).toBe(2);
    expect(saved).toEqual(await repo.findById(base.id));
  });

  it('should answer null and leave the row alone when the version moved on', async () => {
    const base = storedTask('task-cas-2');
    await repo.insert(base);
    const first = await repo.compareAndSet(base, { title: 'First writer' });

    const second = await repo.compareAndSet(base, { title: 'Second writer' });

    expect(second).toBeNull();
    expect(await repo.findById(base.id)).toEqual(first);
    expect(first?.title).toBe('First writer');
  });

  it("should not share the changes' objects with the answer when the caller reuses them", async () => {
    const base = storedTask('task-cas-3');
    await repo.insert(base);
    const reviewers = ['reviewer-2'];

    const saved = await repo.compareAndSet(base, { reviewers });
    reviewers.push('late-edit');

    expect(saved?.reviewers).toEqual(['reviewer-2']);
  });
});
