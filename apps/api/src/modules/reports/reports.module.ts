import { Module } from '@nestjs/common';

import { AnalyticsModule } from '../analytics';
import { BudgetModule, RiskTracker } from '../budget';
import { RunLedgerModule } from '../run-ledger';
import { SettingsModule } from '../settings';
import { ReportContentBuilder } from './report-content.builder';
import { ReportScheduler } from './report.scheduler';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';
import { RiskSource } from './risk-source';
import { REPORTS_SETTINGS } from './reports.settings';

/** Reports: generation over a period, the schedule, and the only writer of the reports table. */
@Module({
  imports: [AnalyticsModule, BudgetModule, RunLedgerModule, SettingsModule.forFeature(REPORTS_SETTINGS)],
  controllers: [ReportsController],
  providers: [
    ReportContentBuilder,
    ReportScheduler,
    ReportsRepository,
    ReportsService,
    // The budget module's risk tracker is where reports read risk.
    { provide: RiskSource, useExisting: RiskTracker },
  ],
  exports: [ReportScheduler, ReportsService],
})
export class ReportsModule {}
