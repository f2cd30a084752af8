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
}

/** A refusal: which limit, why, and its 6xxx code. */
export interface SpendRefusal {
  limit: 'task' | 'monthly' | 'agent_daily';
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
export function judgeRunStart(config: BudgetConfig, spent: Omit<SpendState, 'task'>): SpendRefusal | null {
  const hardStop = hardStopAmount(config);
  if (hardStop !== null && spent.period >= hardStop) {
    return {
      limit: 'monthly',
      code: ErrorCode.BudgetExhausted,
      reason: `monthly budget exhausted: spent ${money(spent.period)} of ${money(hardStop)}`,
    };
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
