export * from './databases';
export * from './test-app';
