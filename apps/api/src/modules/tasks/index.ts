export {
  type AssignedHandler,
  type AssignedTask,
  type MovedHandler,
  RunDispatch,
  type TaskMoved,
} from './run-dispatch';
export { type NewTask, newTaskRow } from './new-task-row';
export { TaskLifecycle, type WriteOptions } from './task-lifecycle';
export { TaskStatistics } from './task-statistics';
export type { TaskChanges } from './tasks.repository';
export { TasksModule } from './tasks.module';
export { statusOf } from './tasks.mapper';
export { TasksService } from './tasks.service';
