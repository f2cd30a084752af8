import { Injectable } from '@nestjs/common';

import { rawIso, rawNumber } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** A cost record as a page reads it. */
export interface CostRecordRow {
  agentId: string;
  taskId: string | null;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  timestamp: string;
  callCategory: string;
}

interface RawRecord {
  agent_id: string;
  task_id: string | null;
  provider: string;
  model: string;
  input_tokens: unknown;
  output_tokens: unknown;
  cost_usd: unknown;
  timestamp: unknown;
  call_category: string;
}

/**
 * Pages of raw cost records, newest first, read through the (timestamp, id), (agent, timestamp, id)
 * and (task, timestamp, id) indexes. The total comes from the rollups, so no page counts the raw table.
 */
@Injectable()
export class CostRecordsRepository {
  constructor(private readonly database: DatabaseService) {}

  async page(filter: { agentId?: string; taskId?: string }, offset: number, limit: number): Promise<CostRecordRow[]> {
    const ds = this.database.dataSource;
    const where: string[] = [];
    const named: Record<string, unknown> = { limit, offset };
    if (filter.agentId !== undefined) {
      where.push('"agent_id" = :agentId');
      named.agentId = filter.agentId;
    }
    if (filter.taskId !== undefined) {
      where.push('"task_id" = :taskId');
      named.taskId = filter.taskId;
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    // The page's ids come from the filter's (…, timestamp, id) index alone, skipped rows included;
    // only the page's own rows are then read from the table.
    const [sql, params] = ds.driver.escapeQueryWithParameters(
      `SELECT "agent_id", "task_id", "provider", "model", "input_tokens", "output_tokens", "cost_usd", "timestamp",
        "call_category" FROM "cost_records" WHERE "id" IN (SELECT "id" FROM "cost_records" ${clause}
        ORDER BY "timestamp" DESC, "id" DESC LIMIT :limit OFFSET :offset) ORDER BY "timestamp" DESC, "id" DESC`,
      named,
    );
    const rows = await ds.query<RawRecord[]>(sql, params);
    return rows.map((r) => ({
      agentId: r.agent_id,
      taskId: r.task_id,
      provider: r.provider,
      model: r.model,
      inputTokens: rawNumber(r.input_tokens),
      outputTokens: rawNumber(r.output_tokens),
      costUsd: rawNumber(r.cost_usd),
      timestamp: rawIso(r.timestamp),
      callCategory: r.call_category,
    }));
  }
}
