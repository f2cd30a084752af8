export * from './audit-chain';
