import { Injectable } from '@nestjs/common';

import type { RiskTaken } from '@app/domain';
import { EntityStatements, rawNumber, RiskRecordEntity, timeParam } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** Risk taken by an agent, a task and everyone today (UTC), from `today` on. */
const RISK_TAKEN = `SELECT
  (SELECT COALESCE(SUM("risk_units"), 0) FROM "risk_records" WHERE "task_id" = :taskId) AS "task",
  (SELECT COALESCE(SUM("risk_units"), 0) FROM "risk_records"
     WHERE "agent_id" = :agentId AND "created_at" >= :today) AS "agent_today",
  (SELECT COALESCE(SUM("risk_units"), 0) FROM "risk_records" WHERE "created_at" >= :today) AS "total_today"`;

/** One group of risk records: an agent, an action type and a UTC day. */
export interface RiskGroup {
  agentId: string;
  actionType: string;
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  riskUnits: number;
}

/** The risk records: the only reader and writer of the `risk_records` table. */
@Injectable()
export class RiskRecordsRepository {
  constructor(private readonly database: DatabaseService) {}

  private get postgres(): boolean {
    return this.database.dataSource.options.type === 'postgres';
  }

  /** One per tool call: written without the query builder (see EntityStatements). */
  async insert(row: RiskRecordEntity): Promise<void> {
    await EntityStatements.for(this.database.dataSource, RiskRecordEntity).insert(row);
  }

  /** Risk taken on a task (all retained records), by an agent today and by everyone today. */
  async taken(agentId: string, taskId: string, today: Date): Promise<RiskTaken> {
    const ds = this.database.dataSource;
    const [sql, params] = ds.driver.escapeQueryWithParameters(RISK_TAKEN, {
      taskId,
      agentId,
      today: timeParam(this.postgres, today),
    });
    const [raw] = await ds.query<Array<{ task: unknown; agent_today: unknown; total_today: unknown }>>(sql, params);
    return {
      task: rawNumber(raw.task),
      agentToday: rawNumber(raw.agent_today),
      totalToday: rawNumber(raw.total_today),
    };
  }

  /** Risk units per agent, action type and UTC day of the records in [from, to). */
  async groups(from: Date, to: Date): Promise<RiskGroup[]> {
    const ds = this.database.dataSource;
    const day = this.postgres ? `to_char("created_at", 'YYYY-MM-DD')` : 'substr("created_at", 1, 10)';
    const [sql, params] = ds.driver.escapeQueryWithParameters(
      `SELECT "agent_id", "action_type", ${day} AS "day", SUM("risk_units") AS "risk_units" FROM "risk_records"
        WHERE "created_at" >= :from AND "created_at" < :to GROUP BY "agent_id", "action_type", ${day}`,
      { from: timeParam(this.postgres, from), to: timeParam(this.postgres, to) },
    );
    const rows = await ds.query<Array<{ agent_id: string; action_type: string; day: string; risk_units: unknown }>>(
      sql,
      params,
    );
    return rows.map((row) => ({
      agentId: row.agent_id,
      actionType: row.action_type,
      day: String(row.day),
      riskUnits: rawNumber(row.risk_units),
    }));
  }

  /** Deletes the records created before `before`; answers how many went. */
  async evictBefore(before: Date): Promise<number> {
    const result = await this.database.dataSource
      .getRepository(RiskRecordEntity)
      .createQueryBuilder()
      .delete()
      .where('created_at < :before', { before })
      .execute();
    return result.affected ?? 0;
  }
}
