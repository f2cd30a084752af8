import { Injectable } from '@nestjs/common';

import { CostRecordEntity, TaskMetricEntity, ToolInvocationEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user for what runs leave behind: cost records, tool invocations, run metrics. */
@Injectable()
export class RunRecordsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insertCost(row: CostRecordEntity): Promise<void> {
    await this.database.dataSource.getRepository(CostRecordEntity).insert(row);
  }

  async insertToolInvocation(row: ToolInvocationEntity): Promise<void> {
    await this.database.dataSource.getRepository(ToolInvocationEntity).insert(row);
  }

  async insertMetric(row: TaskMetricEntity): Promise<void> {
    await this.database.dataSource.getRepository(TaskMetricEntity).insert(row);
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
