import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { type CostEntry, dayStart, hourStart, type TimeRange } from '@app/domain';
import { rawNumber, timeParam } from '@app/persistence';
import { DatabaseService } from '@app/platform';

const RECORD_COLUMNS =
  '"id", "agent_id", "task_id", "provider", "model", "input_tokens", "output_tokens", "cost_usd", "call_category", "timestamp"';
const RECORD_VALUES =
  ':id, :agentId, :taskId, :provider, :model, :inputTokens, :outputTokens, :costUsd, :category, :at';

/** Adds one record to its hour, day and task rows: a single statement, both dialects. */
const ROLLUP_UPSERT = `INSERT INTO "cost_rollups"
  ("grain", "bucket", "agent_id", "task_id", "cost_usd", "input_tokens", "output_tokens", "records")
  VALUES ('hour', :hour, :agentId, '', :costUsd, :inputTokens, :outputTokens, 1),
         ('day', :day, :agentId, '', :costUsd, :inputTokens, :outputTokens, 1),
         ('task', :day, :agentId, :rollupTask, :costUsd, :inputTokens, :outputTokens, 1)
  ON CONFLICT ("grain", "bucket", "agent_id", "task_id") DO UPDATE SET
    "cost_usd" = "cost_rollups"."cost_usd" + excluded."cost_usd",
    "input_tokens" = "cost_rollups"."input_tokens" + excluded."input_tokens",
    "output_tokens" = "cost_rollups"."output_tokens" + excluded."output_tokens",
    "records" = "cost_rollups"."records" + excluded."records"`;

/** The recorded spend of a billing period (the day rollups whose bucket lies in it). */
const PERIOD_SUM = `SELECT COALESCE(SUM("cost_usd"), 0) AS "period" FROM "cost_rollups"
  WHERE "grain" = 'day' AND "bucket" >= :from AND "bucket" < :to`;

/**
 * A call's record gated on its reservation (Postgres): when recovery already charged the reservation
 * at its estimate (its owner was found dead while the call was still out), the late record is not
 * written again. The reservation's row is locked first, so a recovery committing meanwhile is seen.
 */
const LATE = `"late" AS (SELECT 1 FROM "budget_reservations"
  WHERE "id" = :reservationId AND "state" = 'recovered' FOR UPDATE)`;
const GATED_RECORD = `INSERT INTO "cost_records" (${RECORD_COLUMNS})
  SELECT CAST(:id AS varchar), CAST(:agentId AS varchar), CAST(:taskId AS varchar), CAST(:provider AS varchar), CAST(:model AS varchar),
    CAST(:inputTokens AS integer), CAST(:outputTokens AS integer), CAST(:costUsd AS float8), CAST(:category AS varchar), CAST(:at AS timestamp)
  WHERE NOT EXISTS (SELECT 1 FROM "late")`;
const GATED_ROLLUP = `INSERT INTO "cost_rollups"
  ("grain", "bucket", "agent_id", "task_id", "cost_usd", "input_tokens", "output_tokens", "records")
  SELECT v."grain", v."bucket", v."agent_id", v."task_id", v."cost_usd", v."input_tokens", v."output_tokens", 1
  FROM (VALUES
    ('hour', CAST(:hour AS timestamp), CAST(:agentId AS varchar), CAST('' AS varchar), CAST(:costUsd AS float8), CAST(:inputTokens AS bigint), CAST(:outputTokens AS bigint)),
    ('day', CAST(:day AS timestamp), CAST(:agentId AS varchar), '', CAST(:costUsd AS float8), CAST(:inputTokens AS bigint), CAST(:outputTokens AS bigint)),
    ('task', CAST(:day AS timestamp), CAST(:agentId AS varchar), CAST(:rollupTask AS varchar), CAST(:costUsd AS float8), CAST(:inputTokens AS bigint),
     CAST(:outputTokens AS bigint))
  ) AS v("grain", "bucket", "agent_id", "task_id", "cost_usd", "input_tokens", "output_tokens")
  WHERE NOT EXISTS (SELECT 1 FROM "late")
  ON CONFLICT ("grain", "bucket", "agent_id", "task_id") DO UPDATE SET
    "cost_usd" = "cost_rollups"."cost_usd" + excluded."cost_usd",
    "input_tokens" = "cost_rollups"."input_tokens" + excluded."input_tokens",
    "output_tokens" = "cost_rollups"."output_tokens" + excluded."output_tokens",
    "records" = "cost_rollups"."records" + excluded."records"`;
/** Whether a reservation was already charged by recovery (SQLite, inside the record's transaction). */
const IS_LATE = `SELECT 1 AS "late" FROM "budget_reservations" WHERE "id" = :reservationId AND "state" = 'recovered'`;

/** Settles the call's reservation: the record now counts instead of the estimate. */
const SETTLE = `DELETE FROM "budget_reservations" WHERE "id" = :reservationId AND "state" = 'open'`;

/**
 * The only writer of cost records and their rollups. A record, its rollup rows and the settling of
 * its call's reservation are written together or not at all: on Postgres in one statement (the
 * record's insert and the settling ride in CTEs), on SQLite in one transaction. A call's record whose
 * reservation recovery already charged at its estimate is not written (its cost counts once).
 */
@Injectable()
export class CostLedgerRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Writes in `manager`'s transaction when given, else in a transaction of its own. */
  async record(entry: CostEntry, reservationId: string | null, manager?: EntityManager): Promise<void> {
    await this.write(entry, reservationId, manager, null);
  }

  /**
   * Writes the record (in a transaction of its own) and answers the recorded spend of the period
   * [start, end) with it, read by the same statement on Postgres: the statement's sum does not see
   * its own upsert, so the record's cost is added when its day lies in the period.
   */
  async recordInPeriod(entry: CostEntry, reservationId: string | null, period: TimeRange): Promise<number> {
    return (await this.write(entry, reservationId, undefined, period)) ?? 0;
  }

  private async write(
    entry: CostEntry,
    reservationId: string | null,
    manager: EntityManager | undefined,
    period: TimeRange | null,
  ): Promise<number | null> {
    const ds = this.database.dataSource;
    const postgres = ds.options.type === 'postgres';
    const day = dayStart(entry.timestamp);
    const params = {
      reservationId,
      id: entry.id,
      agentId: entry.agentId,
      taskId: entry.taskId,
      rollupTask: entry.taskId ?? '',
      provider: entry.provider,
      model: entry.model,
      inputTokens: entry.inputTokens,
      outputTokens: entry.outputTokens,
      costUsd: entry.costUsd,
      category: entry.callCategory,
      at: timeParam(postgres, entry.timestamp),
      hour: timeParam(postgres, hourStart(entry.timestamp)),
      day: timeParam(postgres, day),
      ...(period ? { from: timeParam(postgres, period.start), to: timeParam(postgres, period.end) } : {}),
    };
    if (postgres) {
      const gated = reservationId !== null;
      const head = gated
        ? `WITH ${LATE}, "inserted" AS (${GATED_RECORD}), "settled" AS (${SETTLE})`
        : `WITH "inserted" AS (INSERT INTO "cost_records" (${RECORD_COLUMNS}) VALUES (${RECORD_VALUES}))`;
      const rollup = gated ? GATED_ROLLUP : ROLLUP_UPSERT;
      if (period === null) {
        await run(manager ?? ds.manager, `${head} ${rollup}`, params);
        return null;
      }
      const sum = gated
        ? `SELECT p."period", EXISTS (SELECT 1 FROM "late") AS "late" FROM (${PERIOD_SUM}) p`
        : PERIOD_SUM;
      const [row] = await run(manager ?? ds.manager, `${head}, "rolled" AS (${rollup}) ${sum}`, params);
      const inPeriod = day >= period.start && day < period.end && row?.late !== true;
      return rawNumber(row?.period ?? 0) + (inPeriod ? entry.costUsd : 0);
    }
    const write = async (tx: EntityManager): Promise<number | null> => {
      const late = reservationId !== null && (await run(tx, IS_LATE, params)).length > 0;
      if (!late) {
        await run(tx, `INSERT INTO "cost_records" (${RECORD_COLUMNS}) VALUES (${RECORD_VALUES})`, params);
        await run(tx, ROLLUP_UPSERT, params);
      }
      if (reservationId !== null) {
        await run(tx, SETTLE, params);
      }
      // SQLite reads its own writes: the sum already holds the record.
      return period === null ? null : rawNumber((await run(tx, PERIOD_SUM, params))[0]?.period ?? 0);
    };
    return manager ? write(manager) : ds.transaction(write);
  }

  /** Runs `work` in one transaction (recovery: mark the reservation, then write its record). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.database.dataSource.transaction(work);
  }
}

async function run(
  manager: EntityManager,
  sql: string,
  named: Record<string, unknown>,
): Promise<Array<{ period?: unknown; late?: unknown }>> {
  const [query, params] = manager.connection.driver.escapeQueryWithParameters(sql, named);
  const rows: unknown = await manager.query(query, params);
  return Array.isArray(rows) ? (rows as Array<{ period?: unknown; late?: unknown }>) : [];
}
