export * from './approval-rules';
export * from './timeout-policy';
