export * from './coordination-plan';
export * from './routing';
export * from './coordination-metrics';
