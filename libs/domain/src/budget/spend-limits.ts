import { ErrorCode } from '../errors';
import { type BudgetConfig, hardStopAmount } from './budget-config';

/** What has been spent (recorded plus reserved by calls in flight) where a call's limits apply. */
export interface SpendState {
  /** In the billing period, company-wide. */
  period: number;
  /** By the calling agent today (UTC). */
  agentToday: number;
  /** On the task, across its runs. */
  task: number;
  /** In the billing period by the agents of the caller's department (0 when it has no budget share). */
  department?: number;
  /** The `budget_percent` of the caller's department, read with its spend (0 when it has none). */
  departmentPercent?: number;
}

/** A department's share of the monthly budget (engine.md §10 hierarchy), as an amount. */
export interface DepartmentCap {
  department: string;
  /** The department's monthly budget: its `budget_percent` of the company's. */
  amount: number;
}

/** A refusal: which limit, why, and its 6xxx code. */
export interface SpendRefusal {
  limit: 'task' | 'monthly' | 'department' | 'agent_daily';
  code: number;
  reason: string;
}

const money = (value: number): string => value.toFixed(6);

/**
 * The task's in-flight cap is its own `budget_limit` (0: none), as in the reference: the configured
 * `per_task_limit` is the value a client proposes for new tasks, not a cap of its own.
 */
export function taskLimitOf(taskBudgetLimit: number): number {
  return taskBudgetLimit > 0 ? taskBudgetLimit : 0;
}

/**
 * Before a model call (engine.md §10, in flight): the call's estimated cost must fit under the
 * task's cap, the monthly hard stop and the agent's daily limit, counting what calls in flight have
 * reserved. A limit of 0 is no limit.
 */
export function judgeCall(
  config: BudgetConfig,
  spent: SpendState,
  estimate: number,
  taskLimit: number,
  department: DepartmentCap | null = null,
): SpendRefusal | null {
  if (taskLimit > 0 && spent.task + estimate > taskLimit) {
    return {
      limit: 'task',
      code: ErrorCode.BudgetExhausted,
      reason: `task budget exhausted: spent ${money(spent.task)} of ${taskLimit}, the next call may cost ${money(estimate)}`,
    };
  }
  const hardStop = hardStopAmount(config);
  if (hardStop !== null && spent.period + estimate > hardStop) {
    return {
      limit: 'monthly',
      code: ErrorCode.BudgetExhausted,
      reason: `monthly budget exhausted: spent ${money(spent.period)} of ${money(hardStop)} (hard stop at ${config.alerts.hardStopAt}%)`,
    };
  }
  const share = departmentStop(config, department);
  if (share !== null && (spent.department ?? 0) + estimate > share) {
    return departmentRefusal(department as DepartmentCap, spent.department ?? 0, share);
  }
  const daily = config.perAgentDailyLimit;
  if (daily > 0 && spent.agentToday + estimate > daily) {
    return {
      limit: 'agent_daily',
      code: ErrorCode.DailyLimitExceeded,
      reason: `agent daily limit reached: spent ${money(spent.agentToday)} of ${daily} today`,
    };
  }
  return null;
}

/** At task start (engine.md §10, pre-flight): the monthly hard stop, then the agent's daily limit. */
export function judgeRunStart(
  config: BudgetConfig,
  spent: Omit<SpendState, 'task'>,
  department: DepartmentCap | null = null,
): SpendRefusal | null {
  const hardStop = hardStopAmount(config);
  if (hardStop !== null && spent.period >= hardStop) {
    return {
      limit: 'monthly',
      code: ErrorCode.BudgetExhausted,
      reason: `monthly budget exhausted: spent ${money(spent.period)} of ${money(hardStop)}`,
    };
  }
  const share = departmentStop(config, department);
  if (share !== null && (spent.department ?? 0) >= share) {
    return departmentRefusal(department as DepartmentCap, spent.department ?? 0, share);
  }
  const daily = config.perAgentDailyLimit;
  if (daily > 0 && spent.agentToday >= daily) {
    return {
      limit: 'agent_daily',
      code: ErrorCode.DailyLimitExceeded,
      reason: `agent daily limit reached: spent ${money(spent.agentToday)} of ${daily} today`,
    };
  }
  return null;
}

/**
 * The department's cap, or null when it has none: its share of the company's monthly budget (a
 * `budget_percent` above 0 with a monthly budget set), stopped at the same hard-stop percent.
 */
export function departmentCapOf(config: BudgetConfig, department: string, budgetPercent: number): DepartmentCap | null {
  if (config.totalMonthly <= 0 || !(budgetPercent > 0)) {
    return null;
  }
  return { department, amount: (config.totalMonthly * Math.min(budgetPercent, 100)) / 100 };
}

function departmentStop(config: BudgetConfig, department: DepartmentCap | null): number | null {
  return department === null ? null : (department.amount * config.alerts.hardStopAt) / 100;
}

// The reference has no code of its own for a department: its share running out is the budget running out (6000).
function departmentRefusal(department: DepartmentCap, spent: number, stop: number): SpendRefusal {
  return {
    limit: 'department',
    code: ErrorCode.BudgetExhausted,
    reason: `department ${department.department} budget exhausted: spent ${money(spent)} of ${money(stop)}`,
  };
}
