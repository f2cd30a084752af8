// The analytics module's public face: other modules import only from here.
export { AnalyticsModule } from './analytics.module';
export { AnalyticsService } from './analytics.service';
export { type BudgetStanding, BudgetStatus, type BudgetTerms } from './budget-status';
export { type Staff, Workforce } from './workforce';
