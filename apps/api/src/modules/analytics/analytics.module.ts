import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { BudgetModule } from '../budget';
import { RunLedgerModule } from '../run-ledger';
import { TasksModule } from '../tasks';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsService } from './analytics.service';
import { BudgetStatus } from './budget-status';
import { Workforce } from './workforce';

/**
 * Analytics: overview, trends and forecast over the run ledger, task and roster counts, and spend
 * from the budget's rollups (SpendHistory). Writes no table; the reports module builds on its face.
 */
@Module({
  imports: [AgentsModule, BudgetModule, RunLedgerModule, TasksModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService, BudgetStatus, Workforce],
  exports: [AnalyticsService, BudgetStatus, Workforce],
})
export class AnalyticsModule {}
