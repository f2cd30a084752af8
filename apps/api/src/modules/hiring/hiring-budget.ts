import { Injectable } from '@nestjs/common';

import { DistributedLock } from '@app/platform';

import { AgentRoster } from '../agents';
import { AgentBudgetLimits } from '../budget';
import { CompanyFacade } from '../company';

/** The lock agent edits judge budget limits under: hiring takes the same one, on every replica. */
const BUDGET_LOCK = 'agents.budget_limits';

/**
 * A new hire's monthly limit counts against its department's share of the company budget, as an
 * edited limit does (409, 6999 over it): judged when the request is filed, and again under the
 * budget lock when the agent is made.
 */
@Injectable()
export class HiringBudget {
  constructor(
    private readonly roster: AgentRoster,
    private readonly company: CompanyFacade,
    private readonly limits: AgentBudgetLimits,
    private readonly lock: DistributedLock,
  ) {}

  async assertFits(department: string, limit: number | null): Promise<void> {
    if (limit === null) {
      return;
    }
    const [percent, agents] = await Promise.all([
      this.company.budgetPercentOf(department),
      this.roster.findByDepartment(department),
    ]);
    this.limits.assertFits({
      department,
      departmentPercent: percent,
      otherLimits: agents
        .filter((agent) => agent.status !== 'terminated' && agent.budgetLimitMonthly !== null)
        .map((agent) => agent.budgetLimitMonthly as number),
      limit,
      previous: null,
    });
  }

  /** Runs the check and the write that follows it under the budget lock. */
  locked<T>(work: () => Promise<T>): Promise<T> {
    return this.lock.runExclusive(BUDGET_LOCK, work);
  }
}
