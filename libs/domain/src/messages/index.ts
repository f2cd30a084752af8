export * from './message-rules';
