import { Injectable } from '@nestjs/common';

import type { RollupGrain } from '@app/domain';
import { rawIso, rawNumber, timeParam } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** Which rollup rows to add up: a grain, an optional window of bucket starts, optional agent and task. */
export interface RollupQuery {
  grain: RollupGrain;
  /** Buckets starting at or after this. */
  from?: Date | null;
  /** Buckets starting before this. */
  to?: Date | null;
  agentId?: string;
  /** Only with the `task` grain. */
  taskId?: string;
}

/** Totals of some rollup rows. */
export interface RollupTotals {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  records: number;
}

/** One bucket's totals. */
export interface RollupBucket extends RollupTotals {
  bucket: Date;
}

interface RawTotals {
  cost_usd: unknown;
  input_tokens: unknown;
  output_tokens: unknown;
  records: unknown;
}

const SUMS =
  'COALESCE(SUM("cost_usd"), 0) AS "cost_usd", COALESCE(SUM("input_tokens"), 0) AS "input_tokens", ' +
  'COALESCE(SUM("output_tokens"), 0) AS "output_tokens", COALESCE(SUM("records"), 0) AS "records"';

/** Reads of the rollup rows (the ledger repository writes them). Never touches the raw records. */
@Injectable()
export class CostRollupsRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Per-bucket totals in bucket order; buckets without records are absent. */
  async buckets(query: RollupQuery): Promise<RollupBucket[]> {
    const rows = await this.select<RawTotals & { bucket: unknown }>(
      `SELECT "bucket", ${SUMS}`,
      query,
      'GROUP BY "bucket" ORDER BY "bucket"',
    );
    return rows.map((row) => ({ bucket: new Date(rawIso(row.bucket)), ...totalsOf(row) }));
  }

  /** Totals over every matching row. */
  async totals(query: RollupQuery): Promise<RollupTotals> {
    const rows = await this.select<RawTotals>(`SELECT ${SUMS}`, query, '');
    return totalsOf(rows[0]);
  }

  /** Cost per agent over the matching rows. */
  async costByAgent(query: RollupQuery): Promise<Map<string, RollupTotals>> {
    const rows = await this.select<RawTotals & { agent_id: string }>(
      `SELECT "agent_id", ${SUMS}`,
      query,
      'GROUP BY "agent_id"',
    );
    return new Map(rows.map((row) => [row.agent_id, totalsOf(row)]));
  }

  private async select<R>(head: string, query: RollupQuery, tail: string): Promise<R[]> {
    const ds = this.database.dataSource;
    const postgres = ds.options.type === 'postgres';
    const where = ['"grain" = :grain'];
    const named: Record<string, unknown> = { grain: query.grain };
    if (query.from) {
      where.push('"bucket" >= :from');
      named.from = timeParam(postgres, query.from);
    }
    if (query.to) {
      where.push('"bucket" < :to');
      named.to = timeParam(postgres, query.to);
    }
    if (query.agentId !== undefined) {
      where.push('"agent_id" = :agentId');
      named.agentId = query.agentId;
    }
    if (query.taskId !== undefined) {
      where.push('"task_id" = :taskId');
      named.taskId = query.taskId;
    }
    const [sql, params] = ds.driver.escapeQueryWithParameters(
      `${head} FROM "cost_rollups" WHERE ${where.join(' AND ')} ${tail}`,
      named,
    );
    return ds.query<R[]>(sql, params);
  }
}

function totalsOf(row: RawTotals | undefined): RollupTotals {
  return {
    costUsd: rawNumber(row?.cost_usd ?? 0),
    inputTokens: rawNumber(row?.input_tokens ?? 0),
    outputTokens: rawNumber(row?.output_tokens ?? 0),
    records: rawNumber(row?.records ?? 0),
  };
}
