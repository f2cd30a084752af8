import { randomUUID } from 'node:crypto';

import type { SpendState } from '@app/domain';
import {
  AgentEntity,
  BudgetReservationEntity,
  CostRecordEntity,
  CostRollupEntity,
  DepartmentEntity,
} from '@app/persistence';
import { agentRow, departmentRow, type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { CostLedgerRepository } from '../../../apps/api/src/modules/budget/cost-ledger.repository';
import { SpendReservationsRepository } from '../../../apps/api/src/modules/budget/spend-reservations.repository';

const PERIOD = { periodStart: new Date('2026-03-01T00:00:00Z'), periodEnd: new Date('2026-04-01T00:00:00Z') };
const TODAY = new Date('2026-03-10T00:00:00Z');

function reservation(agentId: string, estimateUsd: number): BudgetReservationEntity {
  const now = new Date('2026-03-10T12:00:00Z');
  return {
    id: randomUUID(),
    agentId,
    taskId: 'task-1',
    provider: 'mock',
    model: 'm',
    estimateUsd,
    state: 'open',
    owner: 'replica-1',
    createdAt: now,
    expiresAt: new Date(now.getTime() + 60_000),
    costRecordId: null,
  };
}

describe.each(testBackends())('spend reservations on %s', (backend) => {
  let m: MigratedDatabase;
  let reservations: SpendReservationsRepository;

  beforeAll(async () => {
    m = await openMigratedDatabase(backend);
    reservations = new SpendReservationsRepository(m.database);
  });

  beforeEach(async () => {
    await m.clear(BudgetReservationEntity, CostRollupEntity, CostRecordEntity, AgentEntity, DepartmentEntity);
    await m.source
      .getRepository(DepartmentEntity)
      .insert([departmentRow({ name: 'Engineering', budgetPercent: 25 }), departmentRow({ name: 'Ops', position: 1 })]);
    await m.source
      .getRepository(AgentEntity)
      .insert([
        agentRow({ name: 'Ada', department: 'engineering' }),
        agentRow({ name: 'Grace', department: 'engineering', position: 1 }),
        agentRow({ name: 'Linus', department: 'ops', position: 2 }),
      ]);
    const ledger = new CostLedgerRepository(m.database);
    for (const [agentId, costUsd] of [
      ['agent-ada', 0.5],
      ['agent-grace', 0.25],
      ['agent-linus', 1],
    ] as const) {
      await ledger.record(
        {
          id: randomUUID(),
          agentId,
          taskId: 'task-1',
          provider: 'mock',
          model: 'm',
          inputTokens: 10,
          outputTokens: 5,
          costUsd,
          callCategory: 'productive',
          timestamp: new Date('2026-03-10T09:00:00Z'),
        },
        null,
      );
    }
  });

  afterAll(async () => {
    await m.close();
  });

  const state = (department: string | null): Promise<SpendState> =>
    reservations.spendState({ ...PERIOD, today: TODAY, agentId: 'agent-ada', taskId: 'task-1', department });

  it("should read the department's share and its agents' spend and open reservations with the rest", async () => {
    const made = await reservations.reserve(
      { ...PERIOD, today: TODAY, row: reservation('agent-grace', 0.125) },
      () => null,
    );
    await made.committed;

    const spent = await state('engineering');

    expect(spent).toEqual({ period: 1.875, agentToday: 0.5, task: 1.875, department: 0.875, departmentPercent: 25 });
    expect(await state(null)).toEqual({ period: 1.875, agentToday: 0.5, task: 1.875 });
    expect(await state('ops')).toMatchObject({ department: 1, departmentPercent: 0 });
    expect(await state('no-such-department')).toMatchObject({ department: 0, departmentPercent: 0 });
  });

  it("should judge a reservation on the department's spend read under the lock, and insert only what it accepts", async () => {
    const seen: SpendState[] = [];
    const refuseOver = (cap: number) => (spent: SpendState) => {
      seen.push(spent);
      return (spent.department ?? 0) + 0.5 > cap ? 'department' : null;
    };
    const request = { ...PERIOD, today: TODAY, department: 'engineering' };

    const first = await reservations.reserve({ ...request, row: reservation('agent-ada', 0.5) }, refuseOver(1.5));
    const second = await reservations.reserve({ ...request, row: reservation('agent-ada', 0.5) }, refuseOver(1.5));

    expect(first.refusal).toBeNull();
    expect(second.refusal).toBe('department');
    expect(seen.map((s) => s.department)).toEqual([0.75, 1.25]);
    await first.committed;
    await second.committed;
    expect(await m.source.getRepository(BudgetReservationEntity).count()).toBe(1);
  });

  it('should let concurrent reservations through only as far as the limit fits them all', async () => {
    const request = { ...PERIOD, today: TODAY };
    const cap = 1.75 + 2 * 0.1; // the period's 1.75 recorded, and room for two calls of 0.1
    const judge = (spent: SpendState) => (spent.period + 0.1 > cap + 1e-9 ? 'monthly' : null);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => reservations.reserve({ ...request, row: reservation('agent-ada', 0.1) }, judge)),
    );

    expect(answers.filter((a) => a.refusal === null)).toHaveLength(2);
    await Promise.all(answers.map((a) => a.committed));
    expect(await m.source.getRepository(BudgetReservationEntity).count()).toBe(2);
  });

  it('should store nothing when judging fails, and reserve normally afterwards', async () => {
    const request = { ...PERIOD, today: TODAY };

    await expect(
      reservations.reserve({ ...request, row: reservation('agent-ada', 0.1) }, () => {
        throw new Error('judge failed');
      }),
    ).rejects.toThrow('judge failed');
    const after = await reservations.reserve({ ...request, row: reservation('agent-ada', 0.2) }, () => null);

    expect(after.refusal).toBeNull();
    expect(after.spent.period).toBe(1.75); // the failed reservation was never counted
    await after.committed;
    const stored = await m.source.getRepository(BudgetReservationEntity).find();
    expect(stored.map((r) => r.estimateUsd)).toEqual([0.2]);
    expect(stored[0]).toMatchObject({ state: 'open', agentId: 'agent-ada', owner: 'replica-1', costRecordId: null });
    expect(stored[0]?.expiresAt.toISOString()).toBe('2026-03-10T12:01:00.000Z');
  });

  it('should answer before the commit is done, and count the reservation for every reservation judged after it', async () => {
    const request = { ...PERIOD, today: TODAY };
    const first = await reservations.reserve({ ...request, row: reservation('agent-ada', 0.25) }, () => null);

    // Not awaiting `first.committed`: the next reservation waits on the lock the first still holds.
    const second = await reservations.reserve({ ...request, row: reservation('agent-ada', 0.5) }, () => null);

    expect(second.spent.period).toBe(2);
    await expect(first.committed).resolves.toBeUndefined();
    await second.committed;
    const refused = await reservations.reserve({ ...request, row: reservation('agent-ada', 1) }, () => 'monthly');
    expect(refused.refusal).toBe('monthly');
    await expect(refused.committed).resolves.toBeUndefined();
    expect(await m.source.getRepository(BudgetReservationEntity).count()).toBe(2);
  });
});
