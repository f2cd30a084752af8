export * from './task-enums';
export * from './task-transitions';
export * from './task-rules';
