export * from './authority';
export * from './loop-prevention';
export * from './delegation-errors';
