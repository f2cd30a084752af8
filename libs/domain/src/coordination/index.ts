export * from './coordination-plan';
export * from './routing';
