import { AppError, ErrorCode } from '../errors';
import type { BudgetConfig } from './budget-config';
import { departmentCapOf } from './spend-limits';

/** The agents' limits of a department would exceed its share of the company budget (409, 6999). */
export class DepartmentBudgetLimitExceededError extends AppError {
  constructor(message: string) {
    super(ErrorCode.DepartmentBudgetLimitExceeded, message);
  }
}

/** What an agent's new monthly limit is judged against: its department and the limits of its other agents. */
export interface AgentLimitCheck {
  /** The department's name key. */
  department: string;
  /** The department's `budget_percent`. */
  departmentPercent: number;
  /** The monthly limits the department's other agents hold (terminated agents left out). */
  otherLimits: readonly number[];
  /** The agent's monthly limit after the change; null: none. */
  limit: number | null;
  /** The limit the agent already counts in this department with; null when it is new to it (or has none). */
  previous: number | null;
}

const money = (value: number): string => value.toFixed(2);

/**
 * Refuses an agent's monthly budget limit that would make its department's agents' limits add up to
 * more than the department's share of the company's monthly budget (engine.md §10: company →
 * department → agent). A department without a share (no company budget, or `budget_percent` 0) caps
 * nothing, an agent without a limit counts nothing, and a change that adds nothing to what the
 * department holds (a lower limit) always fits, even where the share was lowered under the sum since.
 */
export function assertAgentLimitFits(config: BudgetConfig, check: AgentLimitCheck): void {
  const cap = departmentCapOf(config, check.department, check.departmentPercent);
  if (cap === null || check.limit === null || check.limit <= (check.previous ?? 0)) {
    return;
  }
  const others = check.otherLimits.reduce((sum, limit) => sum + limit, 0);
  // Cents decide: a sum equal to the share up to rounding fits.
  if (Math.round((others + check.limit) * 100) > Math.round(cap.amount * 100)) {
    throw new DepartmentBudgetLimitExceededError(
      `budget_limit_monthly: ${money(check.limit)} would bring department ${check.department}'s agent limits to ` +
        `${money(others + check.limit)}, over its share of ${money(cap.amount)} ` +
        `(${check.departmentPercent}% of ${money(config.totalMonthly)}); ${money(Math.max(0, cap.amount - others))} is left`,
    );
  }
}
