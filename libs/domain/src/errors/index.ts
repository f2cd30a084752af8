export * from './app-error';
export * from './error-codes';
export * from './errors';
export * from './database-unreachable';
