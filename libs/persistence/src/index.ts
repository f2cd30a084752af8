export * from './count-cache';
export * from './data-source.factory';
export * from './entities';
export * from './migrate';
export * from './naming-strategy';
export * from './paged-query';
export * from './postgres-literals';
export * from './sqlite-file';
