export * from './count-cache';
export * from './data-source.factory';
export * from './entities';
export * from './migrate';
export * from './naming-strategy';
export * from './count-cache';
export * from './paged-query';
export * from './sqlite-file';
