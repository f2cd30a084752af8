export * from './time-buckets';
