export * from './offboarding-rules';
