// Helpers that boot the application or the fake model provider, for the e2e specs. They live beside
// the tests rather than in libs/testing because libraries never depend on applications.
export * from './test-app';
export * from './auth-helpers';
export * from './company-helpers';
export * from './mock-llm';
export * from './child-server';
export * from './log-receivers';
export * from './spend-helpers';
export * from './private-postgres';
