import { DEFERRED_FROM_OFFSET, TaskEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, taskRow, testBackends } from '@app/testing';

import { toTaskDto, toTaskDtoFromRow } from '../../../apps/api/src/modules/tasks/tasks.mapper';
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
  let store: MigratedDatabase;
  let repo: TasksRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
  });

  beforeEach(async () => {
    await store.clear(TaskEntity);
    // A repository of its own per test: the table was emptied behind the last one's remembered totals.
    repo = new TasksRepository(store.database);
  });

  afterAll(() => store?.close());

  /** Records every statement the data source's manager runs, until the spy is restored. */
  function recordStatements(): { statements: string[]; spy: jest.SpyInstance } {
    const manager = store.database.dataSource.manager;
    const query = manager.query.bind(manager);
    const statements: string[] = [];
    const spy = jest.spyOn(manager, 'query').mockImplementation((sql: string, params) => {
      statements.push(sql);
      return query(sql, params);
    });
    return { statements, spy };
  }

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

  it('should raise the version by the steps a write stands for, and answer the stored row', async () => {
    const base = storedTask('task-cas-steps');
    await repo.insert(base);

    const saved = await repo.compareAndSet(base, { status: 'in_progress', statusReason: 'two steps' }, 2);
    const stale = await repo.compareAndSet({ ...base, version: base.version + 1 }, { title: 'Stale writer' });

    expect(saved?.version).toBe(base.version + 2);
    expect(saved).toEqual(await repo.findById(base.id));
    expect(stale).toBeNull();
  });

  it("should not share the changes' objects with the answer when the caller reuses them", async () => {
    const base = storedTask('task-cas-3');
    await repo.insert(base);
    const reviewers = ['reviewer-2'];

    const saved = await repo.compareAndSet(base, { reviewers });
    reviewers.push('late-edit');

    expect(saved?.reviewers).toEqual(['reviewer-2']);
  });

  it('should page tasks oldest first, by status, project, and an assignee named by id or in any case', async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute));
    await repo.insert(taskRow({ id: 't-4', status: 'assigned', project: 'p-2', createdAt: at(4) }));
    await repo.insert(taskRow({ id: 't-1', ...assigned('Ada', 'agent-ada'), project: 'p-1', createdAt: at(1) }));
    await repo.insert(taskRow({ id: 't-2', ...assigned('Grace', 'agent-grace'), project: 'p-1', createdAt: at(2) }));
    await repo.insert(taskRow({ id: 't-3', ...assigned('Ada', 'agent-ada'), project: 'p-2', createdAt: at(3) }));
    await repo.insert(taskRow({ id: 't-5', assignedTo: 'ADA', assigneeId: null, project: 'p-1', createdAt: at(5) }));
    const all = { offset: 0, limit: 10 };
    const ids = (page: { items: { id: unknown }[] }) => page.items.map((t) => t.id);

    const byAgent = await repo.page({ status: null, assignedTo: { ref: 'ada', agentId: 'agent-ada' } }, all);
    const byId = await repo.page({ status: null, assignedTo: { ref: 'agent-grace' } }, all);
    const filtered = await repo.page({ status: 'assigned', project: 'p-2' }, all);
    const second = await repo.page({ status: null }, { offset: 1, limit: 2 });

    expect(ids(byAgent)).toEqual(['t-1', 't-3', 't-5']);
    expect(ids(byId)).toEqual(['t-2']);
    expect(ids(filtered)).toEqual(['t-3', 't-4']);
    expect(second).toMatchObject({ total: 5, items: [{ id: 't-2' }, { id: 't-3' }] });
    expect(await repo.countByStatus('assigned')).toBe(4);
  });

  it('should map a raw list row to exactly what the stored entity maps to', async () => {
    const full = taskRow({
      ...storedTask('task-raw-1'),
      ...assigned('Ada', 'agent-ada'),
      status: 'completed',
      statusReason: 'done',
      parentTaskId: 'task-parent',
      taskStructure: 'sequential',
      deadline: '2026-02-01T00:00:00Z',
      artifactsExpected: [{ type: 'code', path: 'src/a.ts' }, 'notes'],
      delegationChain: ['ceo', 'lead'],
      dependencies: ['task-dep'],
      budgetLimit: 12.5,
      maxRetries: 3,
      retryCount: 1,
      startedAt: new Date('2026-01-02T03:04:06.001Z'),
      completedAt: new Date('2026-01-02T03:04:07.999Z'),
    });
    await repo.insert(full);
    await repo.insert(taskRow({ ...storedTask('task-raw-2'), startedAt: null, completedAt: null, budgetLimit: 0 }));

    const page = await repo.page({ status: null }, { offset: 0, limit: 10 });
    const stored = await Promise.all(['task-raw-1', 'task-raw-2'].map((id) => repo.findById(id)));

    expect(JSON.stringify(page.items.map(toTaskDtoFromRow))).toBe(
      JSON.stringify(stored.map((row) => toTaskDto(row as TaskEntity))),
    );
    expect(page.total).toBe(2);
    expect(await repo.page({ status: null }, { offset: 5, limit: 10 })).toEqual({ items: [], total: 2 });
  });

  it('should answer a total that follows every write, though totals are remembered between pages', async () => {
    const open = { status: 'created' as const };
    await repo.insert(taskRow({ id: 'count-1' }));
    expect((await repo.page(open, { offset: 0, limit: 1 })).total).toBe(1);

    await repo.insert(taskRow({ id: 'count-2' }));
    expect((await repo.page(open, { offset: 1, limit: 1 })).total).toBe(2);
    const moved = await repo.compareAndSet((await repo.findById('count-1')) as TaskEntity, { status: 'assigned' });
    expect(moved).not.toBeNull();
    expect((await repo.page(open, { offset: 0, limit: 1 })).total).toBe(1);
    await repo.delete('count-2');
    expect(await repo.page(open, { offset: 0, limit: 1 })).toEqual({ items: [], total: 0 });
  });

  it('should count a filter once for concurrent pages, and read timestamps as text of one shape', async () => {
    for (let i = 0; i < 5; i++) {
      await repo.insert(storedTask(`concurrent-${i}`));
    }
    const { statements, spy } = recordStatements();
    const counts = () => statements.filter((sql) => sql.includes('COUNT(*)'));
    try {
      const pages = await Promise.all(
        [0, 1, 2, 3, 4].map((offset) => repo.page({ status: null }, { offset, limit: 1 })),
      );

      expect(pages.map((p) => [p.items[0]?.id, p.total])).toEqual([0, 1, 2, 3, 4].map((i) => [`concurrent-${i}`, 5]));
      expect(counts()).toHaveLength(1);
      // SQLite stores this text; Postgres formats its timestamp column the same way.
      expect(pages[0]?.items[0]?.created_at).toBe('2026-01-02 03:04:05.678');
    } finally {
      spy.mockRestore();
    }
  });

  it('should serve a page asked for again from its last read, and read afresh after a write', async () => {
    for (let i = 0; i < 3; i++) {
      await repo.insert(storedTask(`shared-${i}`));
    }
    await repo.page({ status: null }, { offset: 0, limit: 2 }); // the total is now known
    const { statements, spy } = recordStatements();
    try {
      const same = await Promise.all([0, 1, 2].map(() => repo.page({ status: null }, { offset: 0, limit: 2 })));
      const again = await repo.page({ status: null }, { offset: 0, limit: 2 });
      const other = await repo.page({ status: null }, { offset: 1, limit: 2 });

      // The page asked for once before was let go; asked for again, one read serves the three requests
      // at once and is kept (POLLED_PAGE_RETAIN_MS): the next identical page costs no statement.
      expect(statements).toHaveLength(2); // that read's and the other window's
      expect(same[1]?.items).toBe(same[0]?.items);
      expect(again.items).toBe(same[0]?.items);
      expect(same[0]?.items.map((t) => t.id)).toEqual(['shared-0', 'shared-1']);
      expect(other.items.map((t) => t.id)).toEqual(['shared-1', 'shared-2']);

      const during = repo.page({ status: null }, { offset: 0, limit: 2 });
      await repo.delete('shared-0'); // committed while that page is still being read
      const after = await repo.page({ status: null }, { offset: 0, limit: 2 });
      await during;

      expect(after.items.map((t) => t.id)).toEqual(['shared-1', 'shared-2']);
      expect(after.total).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('should read a deep page through its keys alone, with the same rows and total as any page', async () => {
    const count = DEFERRED_FROM_OFFSET + 3;
    const start = Date.UTC(2026, 0, 2);
    const rows = Array.from({ length: count }, (_, i) =>
      taskRow({
        id: `deep-${String(i).padStart(5, '0')}`,
        status: i % 2 === 0 ? 'created' : 'assigned',
        createdAt: new Date(start + i * 1000),
      }),
    );
    for (let from = 0; from < count; from += 200) {
      await store.source.getRepository(TaskEntity).insert(rows.slice(from, from + 200));
    }
    const { statements, spy } = recordStatements();
    try {
      const deep = await repo.page({ status: null }, { offset: DEFERRED_FROM_OFFSET, limit: 2 });
      const created = await repo.page({ status: 'created' }, { offset: DEFERRED_FROM_OFFSET / 2, limit: 3 });
      const shallow = await repo.page({ status: null }, { offset: DEFERRED_FROM_OFFSET - 1, limit: 2 });

      expect(deep.items.map((t) => t.id)).toEqual(['deep-01000', 'deep-01001']);
      expect(deep.total).toBe(count);
      expect(created.items.map((t) => t.id)).toEqual(['deep-01000', 'deep-01002']);
      expect(created.total).toBe(DEFERRED_FROM_OFFSET / 2 + 2);
      expect(shallow.items.map((t) => t.id)).toEqual(['deep-00999', 'deep-01000']);
      expect(statements.map((sql) => sql.includes(' IN (SELECT'))).toEqual([true, false, false]);
      expect(shallow.items[0]).toEqual(expect.objectContaining({ title: rows[999]?.title, status: 'assigned' }));
    } finally {
      spy.mockRestore();
    }
  });

  it('should answer every page, deep ones from a known row, exactly as the whole order slices it', async () => {
    const count = 2 * DEFERRED_FROM_OFFSET + 150;
    const start = Date.UTC(2026, 0, 2);
    // Rows inserted out of order, with ties on created_at broken by the id.
    const rows = Array.from({ length: count }, (_, i) =>
      taskRow({
        id: `order-${String((i * 7919) % count).padStart(5, '0')}`,
        status: i % 3 === 0 ? 'assigned' : 'created',
        createdAt: new Date(start + Math.floor(((i * 7919) % count) / 3) * 1000),
      }),
    );
    for (let from = 0; from < count; from += 200) {
      await store.source.getRepository(TaskEntity).insert(rows.slice(from, from + 200));
    }
    const whole = async (createdOnly: boolean): Promise<string[]> => {
      const all = await store.source.getRepository(TaskEntity).find({
        where: createdOnly ? { status: 'created' } : {},
        order: { createdAt: 'ASC', id: 'ASC' },
      });
      return all.map((task) => task.id);
    };
    const expected = { all: await whole(false), created: await whole(true) };
    const { statements, spy } = recordStatements();
    try {
      for (const [status, ids] of [
        [null, expected.all],
        ['created', expected.created],
      ] as const) {
        for (let offset = 0; offset < ids.length + 200; offset += 170) {
          const page = await repo.page({ status }, { offset, limit: 170 });
          expect(page.items.map((t) => t.id)).toEqual(ids.slice(offset, offset + 170));
          expect(page.total).toBe(ids.length);
        }
      }
      const seeking = statements.filter((sql) => sql.includes('__anchor'));
      expect(seeking.length).toBeGreaterThan(5);

      // Pages out of sequence start from the nearest row known before them.
      const far = await repo.page({ status: null }, { offset: count - 5, limit: 10 });
      expect(far.items.map((t) => t.id)).toEqual(expected.all.slice(count - 5));
      const back = await repo.page({ status: null }, { offset: DEFERRED_FROM_OFFSET + 1, limit: 3 });
      expect(back.items.map((t) => t.id)).toEqual(
        expected.all.slice(DEFERRED_FROM_OFFSET + 1, DEFERRED_FROM_OFFSET + 4),
      );
    } finally {
      spy.mockRestore();
    }
  });

  it('should forget where rows stand on a write, and read from the start when a known row is gone', async () => {
    const count = DEFERRED_FROM_OFFSET + 400;
    const start = Date.UTC(2026, 0, 2);
    const rows = Array.from({ length: count }, (_, i) =>
      taskRow({ id: `moved-${String(i).padStart(5, '0')}`, createdAt: new Date(start + i * 1000) }),
    );
    for (let from = 0; from < count; from += 200) {
      await store.source.getRepository(TaskEntity).insert(rows.slice(from, from + 200));
    }
    const ids = rows.map((row) => row.id);
    for (let offset = 0; offset <= DEFERRED_FROM_OFFSET; offset += 200) {
      await repo.page({ status: null }, { offset, limit: 200 }); // learns where each page's last row stands
    }

    // A write through the repository: every place is forgotten, and the deep page is exact.
    await repo.delete(ids[10] ?? '');
    const afterDelete = ids.filter((_, i) => i !== 10);
    const deep = await repo.page({ status: null }, { offset: DEFERRED_FROM_OFFSET + 200, limit: 5 });
    expect(deep.items.map((t) => t.id)).toEqual(
      afterDelete.slice(DEFERRED_FROM_OFFSET + 200, DEFERRED_FROM_OFFSET + 205),
    );

    // The known row deleted behind the repository's back (another replica, not announced yet): the
    // statement from it finds nothing, and the page is read again from the start.
    await repo.page({ status: null }, { offset: DEFERRED_FROM_OFFSET, limit: 200 });
    await store.source.getRepository(TaskEntity).delete({ id: afterDelete[DEFERRED_FROM_OFFSET + 199] });
    const gone = afterDelete.filter((_, i) => i !== DEFERRED_FROM_OFFSET + 199);
    const { statements, spy } = recordStatements();
    try {
      const page = await repo.page({ status: null }, { offset: DEFERRED_FROM_OFFSET + 200, limit: 5 });
      expect(page.items.map((t) => t.id)).toEqual(gone.slice(DEFERRED_FROM_OFFSET + 200, DEFERRED_FROM_OFFSET + 205));
      expect(statements.map((sql) => sql.includes('__anchor'))).toEqual([true, false]);
    } finally {
      spy.mockRestore();
    }
  });

  it('should pick up stale runs of other owners and, when asked, interrupted tasks, never a live run', async () => {
    const staleBefore = new Date('2026-01-02T10:00:00.000Z');
    const old = new Date(staleBefore.getTime() - 60_000);
    const fresh = new Date(staleBefore.getTime() + 60_000);
    await repo.insert(taskRow({ id: 'stale', ...running('replica-dead', old) }));
    await repo.insert(taskRow({ id: 'no-beat', ...running('replica-dead', null) }));
    await repo.insert(taskRow({ id: 'fresh', ...running('replica-other', fresh) }));
    await repo.insert(taskRow({ id: 'mine', ...running('replica-me', old) }));
    await repo.insert(taskRow({ id: 'stopped', status: 'in_progress', runOwner: null }));
    await repo.insert(taskRow({ id: 'interrupted', status: 'interrupted' }));

    const abandoned = await repo.abandoned(staleBefore, 10, 'replica-me', false);
    const withInterrupted = await repo.abandoned(staleBefore, 10, 'replica-me', true);

    expect(abandoned.map((t) => t.id).sort()).toEqual(['no-beat', 'stale']);
    expect(withInterrupted.map((t) => t.id).sort()).toEqual(['interrupted', 'no-beat', 'stale']);
  });

  it('should count the tasks each assignee holds in the given statuses', async () => {
    const rows = [
      taskRow({ id: 'task-l1', status: 'assigned', assignedTo: 'ada', assigneeId: 'agent-ada' }),
      taskRow({ id: 'task-l2', status: 'in_progress', assignedTo: 'ada', assigneeId: 'agent-ada' }),
      taskRow({ id: 'task-l3', status: 'completed', assignedTo: 'ada', assigneeId: 'agent-ada' }),
      taskRow({ id: 'task-l4', status: 'in_review', assignedTo: 'bob', assigneeId: 'agent-bob' }),
      taskRow({ id: 'task-l5', status: 'created' }),
    ];
    for (const row of rows) {
      await repo.insert(row);
    }
    const loads = await repo.countsByAssignee(['assigned', 'in_progress', 'in_review']);
    expect([...loads.entries()].sort()).toEqual([
      ['agent-ada', 2],
      ['agent-bob', 1],
    ]);
  });

  it("should move only the owner's heartbeats, without a version change", async () => {
    const beat = new Date('2026-01-02T11:00:00.000Z');
    await repo.insert(taskRow({ id: 'a', ...running('replica-me', null) }));
    await repo.insert(taskRow({ id: 'b', ...running('replica-other', null) }));

    await repo.heartbeat(['a', 'b'], 'replica-me', beat);

    expect(await repo.findById('a')).toMatchObject({ runHeartbeatAt: beat, version: 1 });
    expect(await repo.findById('b')).toMatchObject({ runHeartbeatAt: null, version: 1 });
  });

  it("should find a former agent's tasks by name in any case, through an index rather than a scan", async () => {
    await repo.insert({ ...storedTask('task-name-1'), assignedTo: 'Zoe', status: 'assigned' });
    await repo.insert({ ...storedTask('task-name-2'), assignedTo: 'someone-else', status: 'assigned' });
    const page = await repo.page({ status: null, assignedTo: { ref: 'ZOE' } }, { offset: 0, limit: 10 });
    expect(page.items.map((t) => t.id)).toEqual(['task-name-1']);

    const filter = `(assignee_id IN ('agent-x') OR LOWER(assigned_to) = 'zoe')`;
    const runner = store.source.createQueryRunner();
    try {
      let plan: string;
      if (backend === 'sqlite') {
        const rows = (await runner.query(`EXPLAIN QUERY PLAN SELECT id FROM tasks WHERE ${filter}`)) as {
          detail: string;
        }[];
        plan = rows.map((r) => r.detail).join('\n');
      } else {
        // A two-row table is cheapest to scan; with scans priced out the planner shows which indexes serve.
        await runner.startTransaction();
        await runner.query('SET LOCAL enable_seqscan = off');
        const rows = (await runner.query(`EXPLAIN SELECT id FROM tasks WHERE ${filter}`)) as Record<string, string>[];
        plan = rows.map((r) => Object.values(r).join(' ')).join('\n');
        await runner.rollbackTransaction();
      }
      expect(plan).toContain('IDX_tasks_assigned_to_lower');
    } finally {
      await runner.release();
    }
  });
});

function assigned(name: string, agentId: string): Partial<TaskEntity> {
  return { status: 'assigned', assignedTo: name, assigneeId: agentId };
}

function running(owner: string, heartbeat: Date | null): Partial<TaskEntity> {
  return {
    status: 'in_progress',
    assignedTo: 'Ada',
    assigneeId: 'agent-ada',
    runOwner: owner,
    runHeartbeatAt: heartbeat,
  };
}
