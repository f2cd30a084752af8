export * from './memory-rules';
export * from './consolidation-rules';
