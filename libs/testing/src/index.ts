export * from './databases';
export * from './test-app';
export * from './auth-helpers';
export * from './company-helpers';
export * from './mock-llm';
export * from './eventually';
export * from './task-rows';
