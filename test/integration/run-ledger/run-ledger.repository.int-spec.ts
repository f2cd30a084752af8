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
});
