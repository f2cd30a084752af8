import { Injectable } from '@nestjs/common';

import type { TaskStatus } from '@app/domain';

import { AgentRoster } from '../agents';
import { TaskStatistics } from '../tasks';

/** Head counts: employed agents (all but terminated) and how many of them have a task in progress. */
export interface Staff {
  readonly employed: number;
  readonly active: number;
}

/** Who works here and on what: the task and roster counts analytics and reports show. */
@Injectable()
export class Workforce {
  constructor(
    private readonly roster: AgentRoster,
    private readonly tasks: TaskStatistics,
  ) {}

  tasksByStatus(): Promise<Record<TaskStatus, number>> {
    return this.tasks.countsByStatus();
  }

  async staff(): Promise<Staff> {
    const [agents, working] = await Promise.all([this.roster.all(), this.tasks.workingAgentIds()]);
    const employed = new Set(agents.filter((agent) => agent.status !== 'terminated').map((agent) => agent.id));
    return { employed: employed.size, active: working.filter((id) => employed.has(id)).length };
  }

  /** Employed and former agents by id: name and department, for per-agent report rows. */
  async directory(): Promise<Map<string, { name: string; department: string }>> {
    const agents = await this.roster.all();
    return new Map(agents.map((agent) => [agent.id, { name: agent.name, department: agent.department }]));
  }
}
