// The budget module's public face: other modules import only from here.
export { AgentBudgetLimits } from './agent-budget-limits';
export { BudgetModule } from './budget.module';
export { type BudgetExhausted, BudgetExhaustion, type ExhaustionListener } from './budget-exhaustion';
export { type SpendBucket, type SpendFilter, SpendHistory, type SpendTotal } from './spend-history';
export { RiskTracker, type RiskTotals } from './risk-tracker';
export { RiskEviction } from './risk-eviction';
