export * from './hiring-rules';
export * from './onboarding-rules';
