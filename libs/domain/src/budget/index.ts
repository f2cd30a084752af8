export * from './budget-config';
export * from './spend-limits';
export * from './time-buckets';
export * from './risk-budget';
export * from './agent-limits';
