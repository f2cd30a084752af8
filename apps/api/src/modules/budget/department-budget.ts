import { type BudgetConfig, type DepartmentCap, departmentCapOf, type SpendState } from '@app/domain';

/**
 * The hierarchy's department level (engine.md §10): a department with a `budget_percent` may spend
 * that share of the company's monthly budget, counted over its agents' spend in the billing period.
 * The share and that spend are read in the spend state's own statement (the reservation's, under its
 * lock), so a share costs no round trip of its own.
 */

/** The department (name key) whose share to read with the spend, or null while none can apply. */
export function shareDepartment(config: BudgetConfig, department: string): string | null {
  return config.totalMonthly > 0 && department !== '' ? department : null;
}

/** The cap an agent of `department` is held to, from the share read with `spent`; null when none applies. */
export function departmentCap(config: BudgetConfig, department: string, spent: SpendState): DepartmentCap | null {
  return spent.departmentPercent === undefined ? null : departmentCapOf(config, department, spent.departmentPercent);
}
