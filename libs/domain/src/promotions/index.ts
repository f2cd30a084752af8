export * from './level-rules';
