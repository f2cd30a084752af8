import { randomUUID } from 'node:crypto';

import fc from 'fast-check';

import { type CostEntry, judgeCall } from '@app/domain';
import { BudgetReservationEntity, CostRecordEntity, CostRollupEntity, createDataSource } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { budgetConfig, openMigratedDatabase, type MigratedDatabase, testBackends } from '@app/testing';

import type { AgentRoster } from '../../../apps/api/src/modules/agents';
import type { BudgetSettings } from '../../../apps/api/src/modules/budget/budget-settings';
import { BudgetService } from '../../../apps/api/src/modules/budget/budget.service';
import { CostLedgerRepository } from '../../../apps/api/src/modules/budget/cost-ledger.repository';
import { CostRecordsRepository } from '../../../apps/api/src/modules/budget/cost-records.repository';
import { CostRollupsRepository } from '../../../apps/api/src/modules/budget/cost-rollups.repository';
import { SpendReservationsRepository } from '../../../apps/api/src/modules/budget/spend-reservations.repository';

jest.setTimeout(120_000);

const CONFIG = budgetConfig();

const AGENTS = ['agent-a', 'agent-b', 'agent-c'];
const TASKS = ['task-1', 'task-2', 'task-3', null];
const START = Date.UTC(2026, 2, 1);

const recordArb = fc.record({
  agent: fc.constantFrom(...AGENTS),
  task: fc.constantFrom(...TASKS),
  // Five days around midnight boundaries, to the millisecond.
  at: fc.integer({ min: 0, max: 5 * 86_400_000 - 1 }),
  cost: fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 1_000_000),
  input: fc.integer({ min: 0, max: 50_000 }),
  output: fc.integer({ min: 0, max: 50_000 }),
});

describe.each(testBackends())('budget summaries on %s', (backend) => {
  let m: MigratedDatabase;

  beforeAll(async () => {
    m = await openMigratedDatabase(backend);
  });

  afterAll(async () => {
    await m.close();
  });

  it('should answer summaries equal to the sums of the raw records for any filter', async () => {
    const ledger = new CostLedgerRepository(m.database);
    const service = new BudgetService(
      { config: () => CONFIG } as unknown as BudgetSettings,
      new CostRollupsRepository(m.database),
      new CostRecordsRepository(m.database),
      { all: () => Promise.resolve([]) } as unknown as AgentRoster,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { minLength: 0, maxLength: 40 }),
        fc.constantFrom(...AGENTS, undefined),
        fc.constantFrom('task-1', 'task-2', 'task-3', undefined),
        async (records, agentId, taskId) => {
          await m.clear(CostRecordEntity, CostRollupEntity);
          const entries: CostEntry[] = records.map((r) => ({
            id: randomUUID(),
            agentId: r.agent,
            taskId: r.task,
            provider: 'p',
            model: 'm',
            inputTokens: r.input,
            outputTokens: r.output,
            costUsd: r.cost,
            callCategory: 'productive',
            timestamp: new Date(START + r.at),
          }));
          for (const entry of entries) {
            await ledger.record(entry, null);
          }
          const filter = { ...(agentId ? { agentId } : {}), ...(taskId ? { taskId } : {}) };
          const page = await service.records(filter, { offset: 0, limit: 200 });
          const matching = entries.filter(
            (e) => (!agentId || e.agentId === agentId) && (!taskId || e.taskId === taskId),
          );
          const period = page.extra.period_summary as Record<string, number>;
          expect(period.record_count).toBe(matching.length);
          expect(period.total_cost_usd).toBeCloseTo(
            matching.reduce((s, e) => s + e.costUsd, 0),
            6,
          );
          expect(period.total_input_tokens).toBe(matching.reduce((s, e) => s + e.inputTokens, 0));
          expect(page.total).toBe(matching.length);
          expect(page.items).toHaveLength(matching.length);
          const byDay = new Map<string, { cost: number; count: number }>();
          for (const e of matching) {
            const day = e.timestamp.toISOString().slice(0, 10);
            const seen = byDay.get(day) ?? { cost: 0, count: 0 };
            byDay.set(day, { cost: seen.cost + e.costUsd, count: seen.count + 1 });
          }
          const daily = page.extra.daily_summary as Array<{
            date: string;
            total_cost_usd: number;
            record_count: number;
          }>;
          expect(daily.map((d) => d.date)).toEqual([...byDay.keys()].sort());
          for (const d of daily) {
            expect(d.record_count).toBe(byDay.get(d.date)?.count);
            expect(d.total_cost_usd).toBeCloseTo(byDay.get(d.date)?.cost ?? -1, 6);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('should let concurrent reservations from two connections pass a limit only as far as it holds', async () => {
    await m.clear(BudgetReservationEntity, CostRecordEntity, CostRollupEntity);
    // A second data source on the same database stands for a second replica.
    const other = await createDataSource(m.db.settings).initialize();
    try {
      const second = Object.assign(Object.create(DatabaseService.prototype) as DatabaseService, {
        source: other,
        stateValue: 'ready',
      });
      const replicas = [new SpendReservationsRepository(m.database), new SpendReservationsRepository(second)];
      const now = new Date(Date.UTC(2026, 2, 3, 12));
      const attempts = Array.from({ length: 30 }, (_, i) =>
        replicas[i % 2].reserve(
          {
            row: {
              id: randomUUID(),
              agentId: 'agent-a',
              taskId: 'task-1',
              provider: 'p',
              model: 'm',
              estimateUsd: 1,
              state: 'open',
              owner: `replica-${i % 2}`,
              createdAt: now,
              expiresAt: new Date(now.getTime() + 60_000),
              costRecordId: null,
            },
            periodStart: new Date(Date.UTC(2026, 2, 1)),
            periodEnd: new Date(Date.UTC(2026, 3, 1)),
            today: new Date(Date.UTC(2026, 2, 3)),
          },
          (spent) => judgeCall(CONFIG, spent, 1, 10),
        ),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((o) => o.refusal === null)).toHaveLength(10);
      await Promise.all(outcomes.map((o) => o.committed));
      expect(await m.source.getRepository(BudgetReservationEntity).count()).toBe(10);
    } finally {
      await other.destroy();
    }
  });
});
