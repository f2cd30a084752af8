// The reports module's public face: other modules import only from here.
export { ReportScheduler } from './report.scheduler';
export { type RiskSummary, RiskSource } from './risk-source';
export { ReportsModule } from './reports.module';
export { ReportsService } from './reports.service';
