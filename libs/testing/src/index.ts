export * from './databases';
export * from './eventually';
export * from './task-rows';
export * from './actors';
export * from './automock';
export * from './silent-logging';
export * from './entity-rows';
export * from './migrated-database';
