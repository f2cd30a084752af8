// History for the engine bench: the rows a company that has worked for months keeps per agent, so
// that the per-call paths are measured against tables that are not empty. A read that scans an
// agent's history (instead of finding its rows through an index) shows up as overhead that grows
// with these rows.
import { randomUUID } from 'node:crypto';

import type { DataSource } from 'typeorm';

import {
  CostRecordEntity,
  createDataSource,
  ProviderCallEntity,
  RiskRecordEntity,
  SecurityRecordEntity,
  TaskMetricEntity,
  ToolInvocationEntity,
} from '@app/persistence';
// The database helper alone: the @app/testing index also loads the Jest helpers.
// eslint-disable-next-line no-restricted-imports
import type { TestDatabase } from '../../libs/testing/src/databases';
// eslint-disable-next-line no-restricted-imports
import { taskMetricRow } from '../../libs/testing/src/entity-rows';

import { insertRows } from './seeding';

/** What was seeded, for the report. */
export interface SeededHistory {
  rowsPerTable: number;
  tables: string[];
  agents: number;
  seconds: number;
}

const DAY_MS = 86_400_000;

/**
 * Writes `rows` rows into each history table, spread over the company's agents and over the year
 * that ended 40 days ago: outside every budget period, error-rate window and trust window, so the
 * history changes no verdict, only the size of what the per-call reads must not scan. Every run
 * succeeded and every tool call was allowed. Tables are analysed afterwards, as autovacuum would.
 */
export async function seedHistory(db: TestDatabase, rows: number): Promise<SeededHistory> {
  const started = Date.now();
  const source = await createDataSource(db.settings).initialize();
  try {
    const agents = (await source.query<Array<{ id: string }>>('SELECT id FROM agents')).map((r) => r.id);
    if (agents.length === 0) {
      throw new Error('history: the company has no agents yet');
    }
    const end = Date.now() - 40 * DAY_MS;
    const step = Math.max(1, Math.floor((365 * DAY_MS) / rows));
    const at = (i: number) => new Date(end - i * step);
    const agentOf = (i: number) => agents[i % agents.length];
    const taskOf = (i: number) => `task-history-${Math.floor(i / 5)}`;
    const tables: Array<[new () => object, (i: number) => object]> = [
      [
        SecurityRecordEntity,
        (i): SecurityRecordEntity => ({
          id: randomUUID(),
          kind: 'tool_call',
          agentId: agentOf(i),
          taskId: taskOf(i),
          toolName: 'list_files',
          actionType: 'code:read',
          verdict: 'allow',
          enforced: 'allow',
          riskLevel: 'low',
          reason: 'allowed by the access level',
          mode: 'active',
          finding: 'tool_access',
          errorCode: null,
          actor: 'system',
          createdAt: at(i),
        }),
      ],
      [
        ToolInvocationEntity,
        (i): ToolInvocationEntity => ({
          id: randomUUID(),
          agentId: agentOf(i),
          taskId: taskOf(i),
          toolName: 'list_files',
          success: true,
          durationMs: 3,
          error: null,
          timestamp: at(i),
        }),
      ],
      [
        RiskRecordEntity,
        (i): RiskRecordEntity => ({
          id: randomUUID(),
          agentId: agentOf(i),
          taskId: taskOf(i),
          toolName: 'list_files',
          actionType: 'code:read',
          riskLevel: 'low',
          riskUnits: 0.1,
          createdAt: at(i),
        }),
      ],
      [
        CostRecordEntity,
        (i): CostRecordEntity => ({
          id: randomUUID(),
          agentId: agentOf(i),
          taskId: taskOf(i),
          provider: 'mock',
          model: 'mock-small',
          inputTokens: 400,
          outputTokens: 60,
          costUsd: 0.00052,
          callCategory: 'productive',
          timestamp: at(i),
        }),
      ],
      [
        ProviderCallEntity,
        (i): ProviderCallEntity => ({
          id: randomUUID(),
          provider: 'mock',
          model: 'mock-small',
          kind: 'chat',
          startedAt: at(i),
          latencyMs: 900,
          success: true,
          errorCode: null,
          inputTokens: 400,
          outputTokens: 60,
          cost: 0.00052,
        }),
      ],
      [TaskMetricEntity, (i) => taskMetricRow({ agentId: agentOf(i), taskId: taskOf(i * 5), completedAt: at(i) })],
    ];
    // Under both dialects' bound-parameter ceilings (at most 15 columns a row).
    const batch = db.settings.backend === 'sqlite' ? 1000 : 2000;
    for (const [entity, make] of tables) {
      await source.transaction(async (manager) => {
        for (let from = 0; from < rows; from += batch) {
          const chunk = Array.from({ length: Math.min(batch, rows - from) }, (_, k) => make(from + k));
          await insertRows(manager, source, entity, chunk, batch);
        }
      });
    }
    const names = tables.map(([entity]) => source.getMetadata(entity).tableName);
    await analyse(source, db.settings.backend === 'sqlite', names);
    return { rowsPerTable: rows, tables: names, agents: agents.length, seconds: (Date.now() - started) / 1000 };
  } finally {
    await source.destroy();
  }
}

/**
 * Statistics for the planner, as autovacuum would gather them, and a checkpoint, so that the runs
 * measured next do not pay for writing the seeded pages out.
 */
async function analyse(source: DataSource, sqlite: boolean, tables: string[]): Promise<void> {
  if (sqlite) {
    await source.query('ANALYZE');
    await source.query('PRAGMA wal_checkpoint(TRUNCATE)');
    return;
  }
  for (const table of tables) {
    await source.query(`VACUUM ANALYZE "${table}"`);
  }
  // Needs a superuser (or pg_checkpoint); without one, the checkpointer catches up in its own time.
  await source.query('CHECKPOINT').catch(() => undefined);
}
