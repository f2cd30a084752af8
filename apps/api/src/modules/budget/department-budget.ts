import { Injectable } from '@nestjs/common';

import { type BudgetConfig, type DepartmentCap, departmentCapOf } from '@app/domain';

import { AgentRoster } from '../agents';
import { CompanyFacade } from '../company';

/** A department's cap and the agents whose spend counts against it. */
export interface DepartmentShare {
  cap: DepartmentCap;
  agentIds: string[];
}

/**
 * The hierarchy's department level (engine.md §10): a department with a `budget_percent` may spend
 * that share of the company's monthly budget, counted over its agents' spend in the billing period.
 */
@Injectable()
export class DepartmentBudget {
  constructor(
    private readonly company: CompanyFacade,
    private readonly roster: AgentRoster,
  ) {}

  /** The share that applies to an agent of `department` (a name key), or null when none does. */
  async shareOf(config: BudgetConfig, department: string): Promise<DepartmentShare | null> {
    if (config.totalMonthly <= 0 || department === '') {
      return null;
    }
    const cap = departmentCapOf(config, department, await this.company.budgetPercentOf(department));
    if (cap === null) {
      return null;
    }
    const agents = await this.roster.findByDepartment(department);
    return agents.length === 0 ? null : { cap, agentIds: agents.map((agent) => agent.id) };
  }
}
