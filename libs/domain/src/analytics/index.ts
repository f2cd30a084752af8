export * from './forecast';
export * from './orchestration';
export * from './report-periods';
export * from './time-buckets';
export * from './trends';
export * from './report-sections';
