import { randomUUID } from 'node:crypto';

import type { CostEntry } from '@app/domain';
import { BudgetReservationEntity, CostRecordEntity, CostRollupEntity } from '@app/persistence';
import { openMigratedDatabase, type MigratedDatabase, testBackends } from '@app/testing';

import { CostLedgerRepository } from '../../../apps/api/src/modules/budget/cost-ledger.repository';
import { CostRollupsRepository } from '../../../apps/api/src/modules/budget/cost-rollups.repository';
import { SpendHistory } from '../../../apps/api/src/modules/budget/spend-history';

function entry(at: string, overrides: Partial<CostEntry> = {}): CostEntry {
  return {
    id: randomUUID(),
    agentId: 'agent-a',
    taskId: 'task-1',
    provider: 'mock',
    model: 'm',
    inputTokens: 100,
    outputTokens: 50,
    costUsd: 0.25,
    callCategory: 'productive',
    timestamp: new Date(at),
    ...overrides,
  };
}

describe.each(testBackends())('cost ledger and spend history on %s', (backend) => {
  let m: MigratedDatabase;
  let ledger: CostLedgerRepository;
  let history: SpendHistory;

  beforeAll(async () => {
    m = await openMigratedDatabase(backend);
    ledger = new CostLedgerRepository(m.database);
    history = new SpendHistory(new CostRollupsRepository(m.database));
  });

  afterAll(async () => {
    await m.close();
  });

  beforeEach(async () => {
    await m.clear(CostRecordEntity, CostRollupEntity, BudgetReservationEntity);
  });

  const reservation = (state: 'open' | 'recovered', costRecordId: string | null = null): BudgetReservationEntity => ({
    id: randomUUID(),
    agentId: 'agent-a',
    taskId: 'task-1',
    provider: 'mock',
    model: 'm',
    estimateUsd: 3,
    state,
    owner: 'dead-replica',
    createdAt: new Date('2026-03-01T10:00:00.000Z'),
    expiresAt: new Date('2026-03-01T10:03:00.000Z'),
    costRecordId,
  });

  it("should settle the call's open reservation with its record, and not write a call recovery already charged", async () => {
    const open = reservation('open');
    const charged = reservation('recovered', 'estimate-record');
    await m.source.getRepository(BudgetReservationEntity).insert([open, charged]);

    await ledger.record(entry('2026-03-01T10:01:00.000Z', { costUsd: 0.5 }), open.id);
    const period = { start: new Date('2026-03-01T00:00:00.000Z'), end: new Date('2026-04-01T00:00:00.000Z') };
    const spent = await ledger.recordInPeriod(entry('2026-03-01T10:02:00.000Z', { costUsd: 0.7 }), charged.id, period);

    expect(await m.source.getRepository(CostRecordEntity).count()).toBe(1);
    const total = await history.total(new Date('2026-03-01T00:00:00Z'), new Date('2026-03-02T00:00:00Z'));
    expect(total).toEqual({ costUsd: 0.5, inputTokens: 100, outputTokens: 50, records: 1 });
    expect(spent).toBeCloseTo(0.5, 10);
    const left = await m.source.getRepository(BudgetReservationEntity).find();
    expect(left.map((r) => [r.id, r.state])).toEqual([[charged.id, 'recovered']]);
  });

  it("should answer the period's recorded spend with the record that it writes", async () => {
    const period = { start: new Date('2026-03-01T00:00:00.000Z'), end: new Date('2026-04-01T00:00:00.000Z') };
    await ledger.record(entry('2026-02-28T23:59:59.999Z', { costUsd: 5 }), null);
    await ledger.record(entry('2026-03-02T08:00:00.000Z', { costUsd: 1 }), null);

    const spent = await ledger.recordInPeriod(entry('2026-03-02T09:00:00.000Z', { costUsd: 0.5 }), null, period);
    expect(spent).toBeCloseTo(1.5, 10);
    // The same record outside the period is written but not counted in it.
    const before = await ledger.recordInPeriod(entry('2026-02-27T09:00:00.000Z', { costUsd: 2 }), null, period);
    expect(before).toBeCloseTo(1.5, 10);
    expect(await m.source.getRepository(CostRecordEntity).count()).toBe(4);
  });

  it('should write each record with its hour, day and task rollup rows', async () => {
    await ledger.record(entry('2026-03-01T10:15:00.000Z'), null);
    await ledger.record(entry('2026-03-01T10:45:00.000Z', { costUsd: 0.5, inputTokens: 10, outputTokens: 5 }), null);
    await ledger.record(entry('2026-03-01T23:59:59.999Z', { taskId: null }), null);

    expect(await m.source.getRepository(CostRecordEntity).count()).toBe(3);
    const rollups = await m.source
      .getRepository(CostRollupEntity)
      .find({ order: { grain: 'ASC', bucket: 'ASC', taskId: 'ASC' } });
    const view = rollups.map((r) => [
      r.grain,
      r.bucket.toISOString(),
      r.taskId,
      r.costUsd,
      Number(r.inputTokens),
      r.records,
    ]);
    expect(view).toEqual([
      ['day', '2026-03-01T00:00:00.000Z', '', 1, 210, 3],
      ['hour', '2026-03-01T10:00:00.000Z', '', 0.75, 110, 2],
      ['hour', '2026-03-01T23:00:00.000Z', '', 0.25, 100, 1],
      ['task', '2026-03-01T00:00:00.000Z', '', 0.25, 100, 1],
      ['task', '2026-03-01T00:00:00.000Z', 'task-1', 0.75, 110, 2],
    ]);
  });

  it('should write neither the record nor its rollups when the record is refused', async () => {
    const first = entry('2026-03-01T10:00:00.000Z');
    await ledger.record(first, null);
    await expect(ledger.record({ ...first, costUsd: 9 }, null)).rejects.toThrow();

    expect(await m.source.getRepository(CostRecordEntity).count()).toBe(1);
    const hour = await history.total(new Date('2026-03-01T00:00:00Z'), new Date('2026-03-02T00:00:00Z'));
    expect(hour).toEqual({ costUsd: 0.25, inputTokens: 100, outputTokens: 50, records: 1 });
  });

  it('should answer hourly and daily buckets in order, without empty ones, split at UTC boundaries', async () => {
    await ledger.record(entry('2026-02-28T23:59:59.999Z'), null);
    await ledger.record(entry('2026-03-01T00:00:00.000Z', { agentId: 'agent-b' }), null);
    await ledger.record(entry('2026-03-01T02:30:00.000Z'), null);
    await ledger.record(entry('2026-03-03T12:00:00.000Z', { costUsd: 1 }), null);

    const from = new Date('2026-02-28T23:30:00Z');
    const to = new Date('2026-03-04T00:00:00Z');
    const hours = await history.byHour(from, to);
    expect(hours.map((b) => [b.bucket.toISOString(), b.costUsd, b.records])).toEqual([
      ['2026-02-28T23:00:00.000Z', 0.25, 1],
      ['2026-03-01T00:00:00.000Z', 0.25, 1],
      ['2026-03-01T02:00:00.000Z', 0.25, 1],
      ['2026-03-03T12:00:00.000Z', 1, 1],
    ]);
    const days = await history.byDay(from, to);
    expect(days.map((b) => [b.bucket.toISOString(), b.costUsd, b.records])).toEqual([
      ['2026-02-28T00:00:00.000Z', 0.25, 1],
      ['2026-03-01T00:00:00.000Z', 0.5, 2],
      ['2026-03-03T00:00:00.000Z', 1, 1],
    ]);
    const agentA = await history.byDay(from, to, { agentId: 'agent-a' });
    expect(agentA.map((b) => b.costUsd)).toEqual([0.25, 0.25, 1]);
    // `to` is exclusive: the day starting at 2026-03-03 is left out.
    const early = await history.total(new Date('2026-03-01T00:00:00Z'), new Date('2026-03-03T00:00:00Z'));
    expect(early).toEqual({ costUsd: 0.5, inputTokens: 200, outputTokens: 100, records: 2 });
    expect(await history.total(from, to, { agentId: 'nobody' })).toEqual({
      costUsd: 0,
      inputTokens: 0,
      outputTokens: 0,
      records: 0,
    });
  });
});
