export * from './auth';
export * from './common/pagination';
export * from './common/subsystems';
export * from './errors';
