import { TaskMetricEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, taskMetricRow, testBackends } from '@app/testing';

import { RunLedgerRepository } from '../../../apps/api/src/modules/run-ledger/run-ledger.repository';

describe.each(testBackends())('RunLedgerRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: RunLedgerRepository;
  const agentId = 'agent-ada-lovelace';
  const at = (minutes: number) => new Date(Date.UTC(2026, 5, 1, 12, minutes, 0, 250));
  const insert = (rows: Array<Partial<TaskMetricEntity>>) =>
    store.database.dataSource.getRepository(TaskMetricEntity).insert(rows.map((row) => taskMetricRow(row)));

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new RunLedgerRepository(store.database);
  });

  beforeEach(() => store.clear(TaskMetricEntity));

  afterAll(() => store?.close());

  it('should count no runs for an agent without metrics', async () => {
    expect(await repo.outcomeCounts(agentId, at(0), 200)).toEqual({ runs: 0, failures: 0 });
  });

  it("should count the agent's runs completed strictly after the moment, and their failures", async () => {
    await insert([
      { agentId, completedAt: at(0), isSuccess: false }, // at the moment itself: not after it
      { agentId, completedAt: at(1), isSuccess: true },
      { agentId, completedAt: at(2), isSuccess: false },
      { agentId, completedAt: at(3), isSuccess: false },
      { agentId: 'agent-grace-hopper', completedAt: at(4), isSuccess: false },
    ]);

    expect(await repo.outcomeCounts(agentId, at(0), 200)).toEqual({ runs: 3, failures: 2 });
    expect(await repo.outcomeCounts(agentId, at(2), 200)).toEqual({ runs: 1, failures: 1 });
    expect(await repo.outcomeCounts('agent-grace-hopper', at(0), 200)).toEqual({ runs: 1, failures: 1 });
  });

  it('should count only the newest runs up to the cap', async () => {
    // Oldest first: four failures, then three successes.
    await insert(
      [false, false, false, false, true, true, true].map((ok, i) => ({
        agentId,
        completedAt: at(i + 1),
        isSuccess: ok,
      })),
    );

    expect(await repo.outcomeCounts(agentId, at(0), 3)).toEqual({ runs: 3, failures: 0 });
    expect(await repo.outcomeCounts(agentId, at(0), 5)).toEqual({ runs: 5, failures: 2 });
    expect(await repo.outcomeCounts(agentId, at(0), 200)).toEqual({ runs: 7, failures: 4 });
  });

  it("should read the agent's runs since a moment, newest first and capped, with the summary's columns only", async () => {
    await insert([
      { agentId, completedAt: at(1), isSuccess: true, qualityScore: 7, costUsd: 0.25, complexity: 'simple' },
      { agentId, completedAt: at(2), isSuccess: false, qualityScore: null, costUsd: 0.5, taskType: 'research' },
      { agentId, completedAt: at(3), isSuccess: true, qualityScore: 9.5, costUsd: 1, complexity: 'complex' },
      { agentId: 'agent-grace-hopper', completedAt: at(4) },
    ]);

    const runs = await repo.runSummariesSince(agentId, at(2), 10);
    expect(runs).toEqual([
      {
        isSuccess: true,
        complexity: 'complex',
        taskType: 'development',
        qualityScore: 9.5,
        costUsd: 1,
        completedAt: at(3),
      },
      {
        isSuccess: false,
        complexity: 'medium',
        taskType: 'research',
        qualityScore: null,
        costUsd: 0.5,
        completedAt: at(2),
      },
    ]);
    expect((await repo.runSummariesSince(agentId, at(0), 1)).map((r) => r.completedAt)).toEqual([at(3)]);
  });

  it("should read a performance summary's columns of every run since a moment as TypeORM reads them, newest first", async () => {
    await insert([
      { agentId, completedAt: at(1), startedAt: null, qualityScore: null, collaborationScore: 6.5, costUsd: 0.125 },
      { agentId, completedAt: at(2), isSuccess: false, durationSeconds: 12.75, tokensUsed: 98_765 },
      { agentId, completedAt: at(3), taskType: 'research', complexity: 'epic', qualityScore: 9.25 },
      { agentId, completedAt: at(0) }, // before the moment
      { agentId: 'agent-grace-hopper', completedAt: at(2) },
    ]);
    const entities = await store.database.dataSource
      .getRepository(TaskMetricEntity)
      .find({ where: { agentId }, order: { completedAt: 'DESC' } });
    const expected = entities
      .filter((row) => row.completedAt.getTime() >= at(1).getTime())
      .map((row) => ({
        completedAt: row.completedAt,
        isSuccess: row.isSuccess,
        durationSeconds: row.durationSeconds,
        costUsd: row.costUsd,
        qualityScore: row.qualityScore,
        collaborationScore: row.collaborationScore,
        tokensUsed: row.tokensUsed,
      }));

    const records = await repo.performanceRecordsSince(agentId, at(1));

    expect(records).toEqual(expected);
    expect(records.map((r) => r.completedAt)).toEqual([at(3), at(2), at(1)]);
    expect(records[2]).toMatchObject({ qualityScore: null, collaborationScore: 6.5, costUsd: 0.125 });
    expect(records[1]).toMatchObject({ isSuccess: false, durationSeconds: 12.75, tokensUsed: 98_765 });
  });

  it("should count a feed's completions and the starts within its window among the newest runs", async () => {
    await insert([
      { agentId, completedAt: at(10), startedAt: at(9) },
      { agentId, completedAt: at(11), startedAt: at(4) }, // started before the window
      { agentId, completedAt: at(12), startedAt: null },
      { agentId, completedAt: at(13), startedAt: at(12) },
      { agentId, completedAt: at(3), startedAt: at(2) }, // completed before the window
      { agentId: 'agent-grace-hopper', completedAt: at(14), startedAt: at(13) },
    ]);
    const mine = { since: at(5), agentIds: [agentId] };

    expect(await repo.countRunEvents(mine, 100)).toEqual({ completed: 4, started: 2 });
    expect(await repo.countRunEvents({ since: at(5) }, 100)).toEqual({ completed: 5, started: 3 });
    expect(await repo.countRunEvents({ since: null, agentIds: [agentId] }, 100)).toEqual({ completed: 5, started: 4 });
    // The cap keeps the newest runs by completion: at(13) and at(12); one of them started.
    expect(await repo.countRunEvents(mine, 2)).toEqual({ completed: 2, started: 1 });
    expect(await repo.countRunEvents({ since: null, agentIds: ['nobody'] }, 100)).toEqual({ completed: 0, started: 0 });
  });

  it("should read a feed's newest runs by completion or by start, and every run tied with the last", async () => {
    await insert([
      { agentId, taskId: 'a', completedAt: at(20), startedAt: at(1) },
      { agentId, taskId: 'b', completedAt: at(19), startedAt: at(18) },
      { agentId, taskId: 'c', completedAt: at(18), startedAt: at(17) },
      { agentId, taskId: 'd', completedAt: at(18), startedAt: null },
      { agentId, taskId: 'e', completedAt: at(18), startedAt: at(16) },
      { agentId, taskId: 'f', completedAt: at(10), startedAt: at(9) },
    ]);
    const scope = { since: null, agentIds: [agentId] };
    const tasks = (rows: TaskMetricEntity[]) => rows.map((row) => row.taskId);

    expect(tasks(await repo.newestMetrics(scope, 2, 'completed'))).toEqual(['a', 'b']);
    // The third is tied with two more: all three come, so a page never splits them.
    expect(tasks(await repo.newestMetrics(scope, 3, 'completed')).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(tasks(await repo.newestMetrics(scope, 3, 'started'))).toEqual(['b', 'c', 'e']);
    expect(tasks(await repo.newestMetrics({ since: at(17), agentIds: [agentId] }, 10, 'started'))).toEqual(['b', 'c']);
    expect(await repo.newestMetrics(scope, 0, 'completed')).toEqual([]);
  });
});
