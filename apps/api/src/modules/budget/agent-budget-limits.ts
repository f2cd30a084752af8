import { Injectable } from '@nestjs/common';

import { type AgentLimitCheck, assertAgentLimitFits } from '@app/domain';

import { BudgetSettings } from './budget-settings';

/**
 * The budget's face for whoever sets an agent's monthly limit: the hierarchy's rule (engine.md §10,
 * company → department → agent) that a department's agents' limits fit in its share of the
 * company's monthly budget, judged against the budget settings in force.
 */
@Injectable()
export class AgentBudgetLimits {
  constructor(private readonly settings: BudgetSettings) {}

  /** @throws DepartmentBudgetLimitExceededError (409, 6999) when the limits would exceed the share. */
  assertFits(check: AgentLimitCheck): void {
    assertAgentLimitFits(this.settings.config(), check);
  }
}
