import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { type CostEntry, dayStart, hourStart } from '@app/domain';
import { DatabaseService } from '@app/platform';

import { timeParam } from './sql-time';

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

/**
 * The only writer of cost records and their rollups. A record and its rollup rows are written
 * together or not at all: on Postgres in one statement (the record's insert rides in a CTE), on
 * SQLite in one transaction.
 */
@Injectable()
export class CostLedgerRepository {
  constructor(private readonly database: DatabaseService) {}

  async record(entry: CostEntry): Promise<void> {
    const ds = this.database.dataSource;
    const postgres = ds.options.type === 'postgres';
    const params = {
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
      day: timeParam(postgres, dayStart(entry.timestamp)),
    };
    if (postgres) {
      const sql = `WITH "inserted" AS (INSERT INTO "cost_records" (${RECORD_COLUMNS}) VALUES (${RECORD_VALUES})) ${ROLLUP_UPSERT}`;
      await run(ds.manager, sql, params);
      return;
    }
    await ds.transaction(async (manager) => {
      await run(manager, `INSERT INTO "cost_records" (${RECORD_COLUMNS}) VALUES (${RECORD_VALUES})`, params);
      await run(manager, ROLLUP_UPSERT, params);
    });
  }
}

async function run(manager: EntityManager, sql: string, named: Record<string, unknown>): Promise<void> {
  const [query, params] = manager.connection.driver.escapeQueryWithParameters(sql, named);
  await manager.query(query, params);
}
