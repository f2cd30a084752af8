export * from './preflight';
export * from './prompt';
export * from './react-loop';
export * from './run-metrics';
export * from './run-outcome';
export * from './task-job-queue';
export * from './tool-guards';
export * from './tools';
