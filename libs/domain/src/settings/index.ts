export * from './setting-definition';
export * from './setting-resolution';
export * from './settings-registry';
