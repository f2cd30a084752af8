import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import type { SpendState } from '@app/domain';
import { BudgetReservationEntity } from '@app/persistence';
import { rawNumber } from '@app/persistence';
import { DatabaseService, KeyedMutex, lockKey } from '@app/platform';

import { timeParam } from './sql-time';

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

const RESERVE_LOCK = 'budget.reserve';
/** One queue per process, whatever the number of repository instances. */
const LOCAL = new KeyedMutex();

/**
 * Reservations of model calls' estimated costs. Reading the spend and inserting the reservation is
 * one serialised step: under a transaction-scoped advisory lock on Postgres (every replica), behind
 * an in-process queue on SQLite (one process), so two calls never both pass a limit only one fits.
 */
@Injectable()
export class SpendReservationsRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Reserves when `judge` accepts the spend state; answers the state and whether it reserved. */
  async reserve<R>(
    request: ReservationRequest,
    judge: (spent: SpendState) => R | null,
  ): Promise<{ refusal: R | null; spent: SpendState }> {
    const ds = this.database.dataSource;
    if (ds.options.type === 'postgres') {
      return ds.transaction(async (manager) => {
        await manager.query('SELECT pg_advisory_xact_lock($1)', [lockKey(RESERVE_LOCK)]);
        return this.judgeAndInsert(manager, true, request, judge);
      });
    }
    return LOCAL.run(RESERVE_LOCK, () => this.judgeAndInsert(ds.manager, false, request, judge));
  }

  /** The spend state without reserving (the pre-flight at task start). */
  async spendState(
    request: Omit<ReservationRequest, 'row'> & { agentId: string; taskId: string },
  ): Promise<SpendState> {
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

  /** Marks an open reservation recovered in `manager`'s transaction; false when it was settled meanwhile. */
  async markRecovered(manager: EntityManager, id: string, costRecordId: string): Promise<boolean> {
    const result = await manager
      .getRepository(BudgetReservationEntity)
      .update({ id, state: 'open' }, { state: 'recovered', costRecordId });
    return (result.affected ?? 0) > 0;
  }

  private async judgeAndInsert<R>(
    manager: EntityManager,
    postgres: boolean,
    request: ReservationRequest,
    judge: (spent: SpendState) => R | null,
  ): Promise<{ refusal: R | null; spent: SpendState }> {
    const { row } = request;
    const spent = await this.readState(manager, postgres, {
      ...request,
      agentId: row.agentId,
      taskId: row.taskId ?? '',
    });
    const refusal = judge(spent);
    if (refusal === null) {
      await manager.getRepository(BudgetReservationEntity).insert(row);
    }
    return { refusal, spent };
  }

  private async readState(
    manager: EntityManager,
    postgres: boolean,
    request: Omit<ReservationRequest, 'row'> & { agentId: string; taskId: string },
  ): Promise<SpendState> {
    const department = request.department ?? null;
    const statement = department === null ? SPEND_STATE : SPEND_STATE + DEPARTMENT_STATE;
    const [sql, params] = manager.connection.driver.escapeQueryWithParameters(statement, {
      periodStart: timeParam(postgres, request.periodStart),
      periodEnd: timeParam(postgres, request.periodEnd),
      today: timeParam(postgres, request.today),
      agentId: request.agentId,
      taskId: request.taskId,
      department,
    });
    const [raw] = await manager.query<RawState[]>(sql, params);
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
}
