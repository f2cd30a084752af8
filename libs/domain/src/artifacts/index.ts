export * from './artifact-rules';
