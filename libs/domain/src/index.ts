export * from './auth';
export * from './common/pagination';
export * from './common/subsystems';
export * from './errors';
export * from './company';
export * from './performance';
export * from './personality';
export * from './providers';
