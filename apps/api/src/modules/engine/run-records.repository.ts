import { Injectable } from '@nestjs/common';

import { CostRecordEntity, EntityStatements, TaskMetricEntity, ToolInvocationEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/**
 * The engine's TypeORM user for what runs leave behind: it writes tool invocations and run metrics
 * and reads a task's spend (the budget module writes cost records).
 */
@Injectable()
export class RunRecordsRepository {
  constructor(private readonly database: DatabaseService) {}

  // One of each per run or tool call: written without the query builder (see EntityStatements).
  async insertToolInvocation(row: ToolInvocationEntity): Promise<void> {
    await EntityStatements.for(this.database.dataSource, ToolInvocationEntity).insert(row);
  }

  async insertMetric(row: TaskMetricEntity): Promise<void> {
    await EntityStatements.for(this.database.dataSource, TaskMetricEntity).insert(row);
  }

  /** Removes a metric row written for an outcome that did not stand (null: nothing was written). */
  async deleteMetric(id: string | null): Promise<void> {
    if (id !== null) {
      await this.database.dataSource.getRepository(TaskMetricEntity).delete({ id });
    }
  }

  /** Everything spent on a task so far, across all its runs. */
  async taskSpend(taskId: string): Promise<number> {
    const raw = await this.database.dataSource
      .getRepository(CostRecordEntity)
      .createQueryBuilder('c')
      .select('COALESCE(SUM(c.cost_usd), 0)', 'total')
      .where('c.task_id = :taskId', { taskId })
      .getRawOne<{ total: number | string }>();
    return Number(raw?.total ?? 0);
  }

  costCount(taskId: string): Promise<number> {
    return this.database.dataSource.getRepository(CostRecordEntity).countBy({ taskId });
  }
}
