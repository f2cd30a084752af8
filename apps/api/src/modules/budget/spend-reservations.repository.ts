import { Injectable } from '@nestjs/common';
import type { EntityManager, QueryRunner } from 'typeorm';

import type { SpendState } from '@app/domain';
import { BudgetReservationEntity } from '@app/persistence';
import { rawNumber, ScriptStatements, timeParam } from '@app/persistence';
import { DatabaseService, KeyedMutex, lockKey } from '@app/platform';

/** A reservation to make, and where its limits are counted. */
export interface ReservationRequest {
  row: BudgetReservationEntity;
  periodStart: Date;
  periodEnd: Date;
  today: Date;
  /**
   * The caller's department (name key) when a department share may apply: its `budget_percent` and
   * its agents' spend are then read in the same statement as the rest. Null or absent: not read.
   */
  department?: string | null;
}

/** Recorded spend plus open reservations for the billing period, the agent's day and the task. */
const SPEND_STATE = `SELECT
  (SELECT COALESCE(SUM("cost_usd"), 0) FROM "cost_rollups"
     WHERE "grain" = 'day' AND "bucket" >= :periodStart AND "bucket" < :periodEnd) AS "period",
  (SELECT COALESCE(SUM("cost_usd"), 0) FROM "cost_rollups"
     WHERE "grain" = 'day' AND "agent_id" = :agentId AND "bucket" = :today) AS "agent_today",
  (SELECT COALESCE(SUM("cost_usd"), 0) FROM "cost_rollups" WHERE "grain" = 'task' AND "task_id" = :taskId) AS "task",
  (SELECT COALESCE(SUM("estimate_usd"), 0) FROM "budget_reservations" WHERE "state" = 'open') AS "reserved",
  (SELECT COALESCE(SUM("estimate_usd"), 0) FROM "budget_reservations"
     WHERE "state" = 'open' AND "agent_id" = :agentId) AS "reserved_agent",
  (SELECT COALESCE(SUM("estimate_usd"), 0) FROM "budget_reservations"
     WHERE "state" = 'open' AND "task_id" = :taskId) AS "reserved_task"`;

/**
 * The department's share and its agents' recorded spend plus open reservations in the billing
 * period: further columns of {@link SPEND_STATE}, so that a share costs no round trip of its own
 * and its membership is read under the same lock as the sums.
 */
const DEPARTMENT_STATE = `,
  (SELECT "budget_percent" FROM "departments" WHERE "name_key" = :department) AS "department_percent",
  (SELECT COALESCE(SUM("cost_usd"), 0) FROM "cost_rollups"
     WHERE "grain" = 'day' AND "bucket" >= :periodStart AND "bucket" < :periodEnd
       AND "agent_id" IN (SELECT "id" FROM "agents" WHERE "department" = :department)) AS "department_spent",
  (SELECT COALESCE(SUM("estimate_usd"), 0) FROM "budget_reservations"
     WHERE "state" = 'open'
       AND "agent_id" IN (SELECT "id" FROM "agents" WHERE "department" = :department)) AS "department_reserved"`;

interface RawState {
  period: unknown;
  agent_today: unknown;
  task: unknown;
  reserved: unknown;
  reserved_agent: unknown;
  reserved_task: unknown;
  department_percent?: unknown;
  department_spent?: unknown;
  department_reserved?: unknown;
}

/** The reservation's row, riding on the statement that reads the spend before it (Postgres). */
const INSERT_RESERVATION = `INSERT INTO "budget_reservations"
  ("id", "agent_id", "task_id", "provider", "model", "estimate_usd", "state", "owner", "created_at", "expires_at",
   "cost_record_id")
  VALUES (:rId, :rAgentId, :rTaskId, :rProvider, :rModel, :rEstimate, :rState, :rOwner, :rCreatedAt, :rExpiresAt,
   :rCostRecordId)`;

function reservationParams(row: BudgetReservationEntity, postgres: boolean): Record<string, unknown> {
  return {
    rId: row.id,
    rAgentId: row.agentId,
    rTaskId: row.taskId,
    rProvider: row.provider,
    rModel: row.model,
    rEstimate: row.estimateUsd,
    rState: row.state,
    rOwner: row.owner,
    rCreatedAt: timeParam(postgres, row.createdAt),
    rExpiresAt: timeParam(postgres, row.expiresAt),
    rCostRecordId: row.costRecordId,
  };
}

/**
 * Hands a connection whose ROLLBACK failed back with the error, so the pool closes it rather than
 * lend it out still inside a transaction: TypeORM's Postgres runner takes that error on its
 * `releasePostgresConnection`, which its public `release` calls without one.
 */
async function discard(runner: QueryRunner, error: Error): Promise<void> {
  const postgres = runner as QueryRunner & { releasePostgresConnection?: (error?: Error) => Promise<void> };
  await (postgres.releasePostgresConnection ? postgres.releasePostgresConnection(error) : runner.release());
}

/**
 * Ends the runner's transaction and gives its connection back to the pool, or, when the statement
 * failed, closes the connection so the pool never hands it out again. Rejects with that failure.
 */
async function finish(runner: QueryRunner, statement: 'COMMIT' | 'ROLLBACK'): Promise<void> {
  try {
    await runner.query(statement);
  } catch (error) {
    await discard(runner, error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  await runner.release();
}

/** A reservation's verdict; see {@link SpendReservationsRepository.reserve}. */
export interface Reservation<R> {
  refusal: R | null;
  spent: SpendState;
  committed: Promise<void>;
}

/** What the spend state is read for: the period, the agent, the task and the department. */
type StateRequest = Omit<ReservationRequest, 'row'> & { agentId: string; taskId: string };

function stateOf(request: ReservationRequest): StateRequest {
  return { ...request, agentId: request.row.agentId, taskId: request.row.taskId ?? '' };
}

const RESERVE_LOCK = 'budget.reserve';
/** One queue per process, whatever the number of repository instances. */
const LOCAL = new KeyedMutex();
/** The reservation's statement, prepared once per connection (the script takes no parameters). */
const RESERVE_STATEMENTS = new ScriptStatements('synthorg_reserve');

/**
 * Reservations of model calls' estimated costs. Reading the spend and inserting the reservation is
 * one serialised step: under a transaction-scoped advisory lock on Postgres (every replica), behind
 * an in-process queue on SQLite (one process), so two calls never both pass a limit only one fits.
 */
@Injectable()
export class SpendReservationsRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Reserves when `judge` accepts the spend state; answers the state, whether it reserved, and
   * `committed`, which settles once the reservation is stored for every replica to count (at once on
   * SQLite; on Postgres when its COMMIT, sent behind the answer, is done). It rejects when that
   * commit failed: the reservation is then lost, as in a crash of the database server.
   */
  async reserve<R>(request: ReservationRequest, judge: (spent: SpendState) => R | null): Promise<Reservation<R>> {
    const ds = this.database.dataSource;
    if (ds.options.type === 'postgres') {
      return this.reserveOnPostgres(request, judge);
    }
    const judged = await LOCAL.run(RESERVE_LOCK, () => this.judgeAndInsert(ds.manager, request, judge));
    return { ...judged, committed: Promise.resolve() };
  }

  /** The spend state without reserving (the pre-flight at task start). */
  async spendState(request: StateRequest): Promise<SpendState> {
    const ds = this.database.dataSource;
    return this.readState(ds.manager, ds.options.type === 'postgres', request);
  }

  /** Gives back an open reservation (its call failed without usage). */
  async release(id: string): Promise<void> {
    await this.database.dataSource.getRepository(BudgetReservationEntity).delete({ id, state: 'open' });
  }

  /** Open reservations that expired before `before`, or (null) every one another owner made. */
  abandoned(before: Date | null, owner: string, limit: number): Promise<BudgetReservationEntity[]> {
    const query = this.database.dataSource
      .getRepository(BudgetReservationEntity)
      .createQueryBuilder('r')
      .where('r.state = :state', { state: 'open' });
    if (before) {
      query.andWhere('r.expires_at < :before', { before });
    } else {
      query.andWhere('r.owner <> :owner', { owner });
    }
    return query.orderBy('r.expires_at', 'ASC').take(limit).getMany();
  }

  /** Open reservations made by `owner`, oldest first. */
  openOf(owner: string, limit: number): Promise<BudgetReservationEntity[]> {
    return this.database.dataSource
      .getRepository(BudgetReservationEntity)
      .find({ where: { state: 'open', owner }, order: { createdAt: 'ASC' }, take: limit });
  }

  /** Marks an open reservation recovered in `manager`'s transaction; false when it was settled meanwhile. */
  async markRecovered(manager: EntityManager, id: string, costRecordId: string): Promise<boolean> {
    const result = await manager
      .getRepository(BudgetReservationEntity)
      .update({ id, state: 'open' }, { state: 'recovered', costRecordId });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Two round trips, of which the caller waits for the first. That one is one simple-protocol
   * string: the transaction, its lock, and the reservation's insert riding on the statement that
   * reads the spend before it (a CTE: the statement's sums do not see its own insert). That protocol
   * takes no parameters, so the statement is prepared once per connection and executed with its
   * values as literals ({@link ScriptStatements}). The lock is a statement of its
   * own, so the read's snapshot, taken when the lock is granted, holds every reservation committed
   * before. The second is ROLLBACK when `judge` refuses, awaited; or COMMIT when it accepts, sent
   * without waiting for it: the verdict is already final, and the lock, held until the commit,
   * keeps every other reservation waiting until this one counts. The call it guards starts
   * meanwhile, so a model call does not wait on that round trip; its cost record and a release wait
   * for `committed` instead.
   *
   * The commit does not wait for the write-ahead log to reach the disk (`synchronous_commit` off for
   * this transaction alone). The row is visible to every replica at COMMIT all the same; what it
   * gives up is only that a crash of the database server in the next fraction of a second may lose
   * it. A reservation is short-lived by design: the call's cost record, which is durable, settles it
   * by deleting it (a lost one is a no-op), and until then a lost row only means that the calls
   * judged after the crash do not count that one call's estimate. Every run loses its connections
   * in such a crash anyway. The record of what was spent never depends on it.
   */
  private async reserveOnPostgres<R>(
    request: ReservationRequest,
    judge: (spent: SpendState) => R | null,
  ): Promise<Reservation<R>> {
    const runner = this.database.dataSource.createQueryRunner();
    let judged: { refusal: R | null; spent: SpendState };
    try {
      const client = (await runner.connect()) as { query(text: string): Promise<unknown> };
      const [sql, parameters] = this.stateStatement(runner.manager, true, stateOf(request), request.row);
      const statement = RESERVE_STATEMENTS.call(client, sql, parameters);
      let results: unknown;
      try {
        results = await client.query(
          `START TRANSACTION; SET LOCAL synchronous_commit = off; SELECT pg_advisory_xact_lock(${lockKey(RESERVE_LOCK)}); ${statement.text}`,
        );
      } catch (error) {
        statement.failed();
        throw error;
      }
      statement.ran();
      const last = Array.isArray(results) ? (results[results.length - 1] as { rows?: RawState[] }) : undefined;
      const raw = last?.rows?.[0];
      if (!raw) {
        throw new Error('the spend state came back empty');
      }
      const spent = toSpendState(raw, request.department ?? null);
      judged = { refusal: judge(spent), spent };
    } catch (error) {
      await finish(runner, 'ROLLBACK').catch(() => undefined);
      throw error;
    }
    if (judged.refusal !== null) {
      await finish(runner, 'ROLLBACK');
      return { ...judged, committed: Promise.resolve() };
    }
    const committed = finish(runner, 'COMMIT');
    committed.catch(() => undefined); // its waiters see the failure; unawaited, it is no crash
    return { ...judged, committed };
  }

  private async judgeAndInsert<R>(
    manager: EntityManager,
    request: ReservationRequest,
    judge: (spent: SpendState) => R | null,
  ): Promise<{ refusal: R | null; spent: SpendState }> {
    const { row } = request;
    const spent = await this.readState(manager, false, stateOf(request));
    const refusal = judge(spent);
    if (refusal === null) {
      await manager.getRepository(BudgetReservationEntity).insert(row);
    }
    return { refusal, spent };
  }

  /** The spend state. */
  private async readState(manager: EntityManager, postgres: boolean, request: StateRequest): Promise<SpendState> {
    const [sql, params] = this.stateStatement(manager, postgres, request);
    const [raw] = await manager.query<RawState[]>(sql, params);
    return toSpendState(raw, request.department ?? null);
  }

  /** The spend-state statement and its values; with `insert` (Postgres), it also inserts that reservation. */
  private stateStatement(
    manager: EntityManager,
    postgres: boolean,
    request: StateRequest,
    insert?: BudgetReservationEntity,
  ): [string, unknown[]] {
    const department = request.department ?? null;
    let statement = department === null ? SPEND_STATE : SPEND_STATE + DEPARTMENT_STATE;
    if (insert) {
      statement = `WITH "reserved" AS (${INSERT_RESERVATION}) ${statement}`;
    }
    return manager.connection.driver.escapeQueryWithParameters(statement, {
      periodStart: timeParam(postgres, request.periodStart),
      periodEnd: timeParam(postgres, request.periodEnd),
      today: timeParam(postgres, request.today),
      agentId: request.agentId,
      taskId: request.taskId,
      department,
      ...(insert ? reservationParams(insert, postgres) : {}),
    });
  }
}

function toSpendState(raw: RawState, department: string | null): SpendState {
  const state: SpendState = {
    period: rawNumber(raw.period) + rawNumber(raw.reserved),
    agentToday: rawNumber(raw.agent_today) + rawNumber(raw.reserved_agent),
    task: rawNumber(raw.task) + rawNumber(raw.reserved_task),
  };
  if (department !== null) {
    state.department = rawNumber(raw.department_spent) + rawNumber(raw.department_reserved);
    // An unknown department has no share: the same as one of 0 %.
    state.departmentPercent = raw.department_percent === null ? 0 : rawNumber(raw.department_percent);
  }
  return state;
}
