import pino from 'pino';

import type { CostEntry, SpendRequest, SpendState } from '@app/domain';
import { type AppConfig, type EventBus, type LoggingRuntime, ReplicaIdentity } from '@app/platform';
import { agentRow, budgetConfig, gate, taskRow } from '@app/testing';

import type { BudgetAlerts } from './budget-alerts';
import type { BudgetExhaustion } from './budget-exhaustion';
import type { BudgetSettings } from './budget-settings';
import { CostLedger } from './cost-ledger';
import type { CostLedgerRepository } from './cost-ledger.repository';
import type { SpendReservationsRepository } from './spend-reservations.repository';

const NOTHING_SPENT: SpendState = { period: 0, agentToday: 0, task: 0 };

/** A ledger whose reservations answer at once while their commit waits for `commit`. */
function setup() {
  const steps: string[] = [];
  const commit = gate();
  const reservations = {
    reserve: jest.fn((_request: unknown, judge: (spent: SpendState) => unknown) => {
      steps.push('reserved');
      const committed = commit.promise.then(() => {
        steps.push('committed');
      });
      return Promise.resolve({ refusal: judge(NOTHING_SPENT), spent: NOTHING_SPENT, committed });
    }),
    release: jest.fn((id: string) => {
      steps.push(`released ${id}`);
      return Promise.resolve();
    }),
  };
  const ledgerRows = {
    record: jest.fn((entry: CostEntry, reservationId: string | null) => {
      steps.push(`recorded ${entry.id} settling ${reservationId ?? 'none'}`);
      return Promise.resolve();
    }),
  };
  const settings = { config: () => budgetConfig({ currency: 'USD' }) };
  const logged: string[] = [];
  const log = Object.assign(pino({ level: 'silent' }), {
    error: (_fields: object, msg: string) => {
      logged.push(msg);
    },
  });
  const ledger = new CostLedger(
    ledgerRows as unknown as CostLedgerRepository,
    reservations as unknown as SpendReservationsRepository,
    settings as unknown as BudgetSettings,
    { check: () => Promise.resolve() } as unknown as BudgetAlerts,
    { exhausted: () => Promise.resolve() } as unknown as BudgetExhaustion,
    { publish: () => Promise.resolve() } as unknown as EventBus,
    new ReplicaIdentity(),
    { engine: { callTimeoutSeconds: 60 } } as unknown as AppConfig,
    { forName: () => log } as unknown as LoggingRuntime,
  );
  const request: SpendRequest = {
    task: taskRow({ budgetLimit: 0 }),
    agent: agentRow({ name: 'Ada' }),
    provider: 'mock',
    model: 'mock-small',
    estimatedCost: 0.01,
  };
  const entry = (id: string): CostEntry => ({
    id,
    agentId: request.agent.id,
    taskId: request.task.id,
    provider: 'mock',
    model: 'mock-small',
    inputTokens: 10,
    outputTokens: 5,
    costUsd: 0.001,
    callCategory: 'productive',
    timestamp: new Date(),
  });
  return { ledger, request, entry, commit, steps, logged };
}

/** Lets every promise chain that can move, move. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CostLedger', () => {
  it('should answer a reservation before its commit is done, and settle it by a record only after', async () => {
    const { ledger, request, entry, commit, steps } = setup();

    const verdict = await ledger.reserve(request);
    const recorded = ledger.record(entry('c1'), verdict.ok ? verdict.reservationId : null);
    await settle();

    expect(verdict.ok).toBe(true);
    expect(steps).toEqual(['reserved']);
    commit.open();
    await recorded;
    expect(steps).toEqual(['reserved', 'committed', `recorded c1 settling ${verdict.ok && verdict.reservationId}`]);
  });

  it('should release a reservation only after its commit is done', async () => {
    const { ledger, request, commit, steps } = setup();

    const verdict = await ledger.reserve(request);
    const id = verdict.ok ? verdict.reservationId : null;
    const released = ledger.release(id as string);
    await settle();

    expect(steps).toEqual(['reserved']);
    commit.open();
    await released;
    expect(steps).toEqual(['reserved', 'committed', `released ${id}`]);
  });

  it('should log a commit that failed, and still write the record', async () => {
    const { ledger, request, entry, commit, steps, logged } = setup();

    const verdict = await ledger.reserve(request);
    commit.fail(new Error('connection lost'));
    await ledger.record(entry('c2'), verdict.ok ? verdict.reservationId : null);

    expect(logged).toEqual(['budget.reservation.commit_failed']);
    expect(steps).toEqual(['reserved', `recorded c2 settling ${verdict.ok && verdict.reservationId}`]);
  });

  it('should not wait for anything when a record settles no reservation, or one whose commit is done', async () => {
    const { ledger, request, entry, commit, steps } = setup();

    await ledger.record(entry('c3'), null);
    const verdict = await ledger.reserve(request);
    commit.open();
    await settle();
    await ledger.record(entry('c4'), verdict.ok ? verdict.reservationId : null);

    expect(steps).toEqual([
      'recorded c3 settling none',
      'reserved',
      'committed',
      `recorded c4 settling ${verdict.ok && verdict.reservationId}`,
    ]);
  });
});
