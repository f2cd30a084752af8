import { Injectable } from '@nestjs/common';

import { TASK_STATUSES, type TaskStatus } from '@app/domain';

import { TasksRepository } from './tasks.repository';

/** Read-only task counts for other modules (analytics, reports): grouped queries, never task rows. */
@Injectable()
export class TaskStatistics {
  constructor(private readonly tasks: TasksRepository) {}

  /** The number of tasks in every status, zero for the statuses no task is in. */
  async countsByStatus(): Promise<Record<TaskStatus, number>> {
    const counts = await this.tasks.countsByStatus();
    return Object.fromEntries(TASK_STATUSES.map((status) => [status, counts.get(status) ?? 0])) as Record<
      TaskStatus,
      number
    >;
  }

  /** Tasks each agent holds now (assigned, in progress or in review), by agent id; agents without any are absent. */
  activeLoads(): Promise<Map<string, number>> {
    return this.tasks.countsByAssignee(['assigned', 'in_progress', 'in_review']);
  }

  /** Agent ids with at least one task in progress. */
  workingAgentIds(): Promise<string[]> {
    return this.tasks.assigneesIn('in_progress');
  }
}
