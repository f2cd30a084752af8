export * from './databases';
export * from './eventually';
export * from './task-rows';
