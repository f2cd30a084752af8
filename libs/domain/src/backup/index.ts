export * from './backup-manifest';
export * from './backup-rules';
export * from './backup.errors';
