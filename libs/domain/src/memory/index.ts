export * from './memory-rules';
