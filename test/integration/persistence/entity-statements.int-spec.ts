import {
  AgentEntity,
  DomainEventEntity,
  EntityStatements,
  SecurityRecordEntity,
  TaskEntity,
  TaskMetricEntity,
} from '@app/persistence';
import {
  agentRow,
  type MigratedDatabase,
  openMigratedDatabase,
  taskMetricRow,
  taskRow,
  testBackends,
} from '@app/testing';

/** A row with a value of every kind the entities store: JSON, booleans, floats, dates, nulls. */
function fullTask(id: string): TaskEntity {
  return taskRow({
    id,
    title: "Ünïcode “quotes” and 'apostrophes'",
    reviewers: ['ada', 'grace'],
    dependencies: ['task-0'],
    acceptanceCriteria: [{ description: 'it works', met: false }],
    delegationChain: ['ceo', 'cto'],
    taskStructure: 'parallel',
    budgetLimit: 2.75,
    outputWithheld: true,
    deadline: '2026-12-31T00:00:00Z',
    statusReason: null,
    result: 'line one\nline two',
    runHeartbeatAt: new Date('2026-03-04T05:06:07.089Z'),
    startedAt: new Date('2026-03-04T05:06:00.001Z'),
    createdAt: new Date('2026-03-01T00:00:00.000Z'),
    updatedAt: new Date('2026-03-02T12:34:56.789Z'),
  });
}

describe.each(testBackends())('EntityStatements on %s', (backend) => {
  let store: MigratedDatabase;
  let tasks: EntityStatements<TaskEntity>;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    tasks = EntityStatements.for(store.source, TaskEntity);
  });

  afterAll(async () => {
    await store?.close();
  });

  it('should write a row that TypeORM reads back exactly as given', async () => {
    const row = fullTask('task-es-1');
    await tasks.insert(row);
    const read = await store.source.getRepository(TaskEntity).findOneByOrFail({ id: row.id });
    expect(read).toEqual(row);
  });

  it('should read a row exactly as TypeORM reads it, as an instance of the entity', async () => {
    const row = fullTask('task-es-2');
    await store.source.getRepository(TaskEntity).insert(row);
    const viaTypeOrm = await store.source.getRepository(TaskEntity).findOneByOrFail({ id: row.id });
    const viaStatements = await tasks.findOne({ id: row.id });
    expect(viaStatements).toBeInstanceOf(TaskEntity);
    expect(viaStatements).toEqual(viaTypeOrm);
    expect(await tasks.findOne({ id: 'task-none' })).toBeNull();
  });

  it('should read the same entity again and again from one statement text', async () => {
    const first = await tasks.findOne({ id: 'task-es-2' });
    const second = await tasks.findOne({ id: 'task-es-2' });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  it('should match any of several alternatives, in order, with a limit and a subset of columns', async () => {
    const agents = EntityStatements.for(store.source, AgentEntity);
    await agents.insert(agentRow({ id: 'agent-a', name: 'Ada', nameKey: 'ada', position: 1 }));
    await agents.insert(agentRow({ id: 'agent-b', name: 'Bob', nameKey: 'bob', position: 2 }));
    await agents.insert(agentRow({ id: 'agent-c', name: 'Cy', nameKey: 'cy', position: 3 }));
    const found = await agents.find([{ id: 'agent-c' }, { nameKey: 'ada' }], { orderBy: [['position', 'DESC']] });
    expect(found.map((a) => a.id)).toEqual(['agent-c', 'agent-a']);
    const limited = await agents.find([{ id: 'agent-c' }, { nameKey: 'ada' }, { nameKey: 'bob' }], {
      orderBy: [['position', 'ASC']],
      limit: 2,
      select: ['id', 'name'],
    });
    expect(limited).toEqual([
      Object.assign(new AgentEntity(), { id: 'agent-a', name: 'Ada' }),
      Object.assign(new AgentEntity(), { id: 'agent-b', name: 'Bob' }),
    ]);
    expect(await agents.find({ id: 'agent-a', nameKey: 'bob' })).toEqual([]);
  });

  it('should update by key, raising counters, and report the rows it changed', async () => {
    const row = fullTask('task-es-3');
    await tasks.insert(row);
    const at = new Date('2026-04-01T10:00:00.500Z');
    const changes = {
      status: 'assigned' as const,
      assignedTo: 'Ada',
      statusReason: null,
      updatedAt: at,
      title: undefined,
    };
    const changed = await tasks.update({ id: row.id, version: 1 }, changes, { increment: { version: 2 } });
    expect(changed).toBe(1);
    const read = await store.source.getRepository(TaskEntity).findOneByOrFail({ id: row.id });
    expect(read).toEqual({
      ...row,
      status: 'assigned',
      assignedTo: 'Ada',
      statusReason: null,
      updatedAt: at,
      version: 3,
    });
    // A stale version changes nothing.
    expect(await tasks.update({ id: row.id, version: 1 }, { status: 'created' }, { increment: { version: 1 } })).toBe(
      0,
    );
    expect((await tasks.findOne({ id: row.id }))?.version).toBe(3);
  });

  it('should insert a row whose undefined properties take the column defaults', async () => {
    const metrics = EntityStatements.for(store.source, TaskMetricEntity);
    const row = taskMetricRow({ id: 'metric-es-1', qualityScore: undefined });
    await metrics.insert(row);
    const read = await store.source.getRepository(TaskMetricEntity).findOneByOrFail({ id: row.id });
    expect(read).toEqual({ ...row, qualityScore: null });
    const records = EntityStatements.for(store.source, SecurityRecordEntity);
    const newest = await records.findOne(
      { agentId: 'agent-none', kind: 'autonomy_change' },
      { select: ['createdAt'], orderBy: [['createdAt', 'DESC']] },
    );
    expect(newest).toBeNull();
  });

  it('should run inside a unit of work, whose rollback takes its writes back', async () => {
    const runner = store.source.createQueryRunner();
    await runner.startTransaction();
    try {
      await tasks.insert(fullTask('task-es-4'), runner.manager);
      expect(await tasks.update({ id: 'task-es-4' }, { title: 'inside' }, {}, runner.manager)).toBe(1);
      expect((await tasks.findOne({ id: 'task-es-4' }, {}, runner.manager))?.title).toBe('inside');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await tasks.findOne({ id: 'task-es-4' })).toBeNull();
  });

  it('should refuse statements it cannot write faithfully', async () => {
    await expect(tasks.findOne({ id: undefined })).rejects.toThrow('no value to match for "id"');
    await expect(tasks.findOne({ assignedTo: null })).rejects.toThrow('no value to match for "assignedTo"');
    await expect(tasks.findOne({})).rejects.toThrow('a statement needs a condition');
    await expect(tasks.update({ id: 'task-es-1' }, { title: undefined })).rejects.toThrow('at least one change');
    await expect(tasks.findOne({ nope: 'x' } as never)).rejects.toThrow('no column for property "nope"');
    expect(() => EntityStatements.for(store.source, DomainEventEntity)).toThrow('generated columns');
  });

  it('should hand out one set of statements per entity and data source', () => {
    expect(EntityStatements.for(store.source, TaskEntity)).toBe(tasks);
  });
});
