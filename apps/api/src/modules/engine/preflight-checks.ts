import { AppError, ErrorCode, type PreflightCheck } from '@app/domain';

import type { ModelRouter } from '../providers';

/** The task's own cap: a task that has already spent its `budget_limit` does not start again. */
export function taskBudgetCheck(): PreflightCheck {
  return {
    name: 'task_budget',
    order: 100,
    check: ({ task, spentOnTask }) =>
      Promise.resolve(
        task.budgetLimit > 0 && spentOnTask >= task.budgetLimit
          ? {
              ok: false,
              code: ErrorCode.BudgetExhausted,
              spendLimit: 'task',
              reason: `task budget exhausted: spent ${spentOnTask.toFixed(6)} of ${task.budgetLimit}`,
            }
          : { ok: true },
      ),
  };
}

/**
 * Provider quota and degradation, at task start only (never mid-run): `alert` goes ahead and logs,
 * `fallback` swaps the provider for this run, `queue` waits for the quota window to reset.
 */
export function providerQuotaCheck(router: ModelRouter): PreflightCheck {
  return {
    name: 'provider_quota',
    order: 500,
    async check({ provider, model }) {
      try {
        const outcome = await router.preflight(provider);
        if (outcome.fallbackFrom) {
          const swapped = modelOn(router, outcome.provider, model);
          if (!swapped) {
            return {
              ok: false,
              code: ErrorCode.QuotaExhausted,
              reason: `${provider} is out of quota and fallback ${outcome.provider} has no models`,
            };
          }
          return {
            ok: true,
            provider: outcome.provider,
            model: swapped,
            note: `fell back from ${outcome.fallbackFrom} (model ${swapped})`,
          };
        }
        return outcome.waitedMs > 0 ? { ok: true, note: `waited ${outcome.waitedMs} ms for quota` } : { ok: true };
      } catch (error) {
        if (error instanceof AppError) {
          return { ok: false, code: error.code, reason: error.message };
        }
        throw error;
      }
    },
  };
}

/** The same model (by id or alias) on the fallback provider, else that provider's cheapest. */
function modelOn(router: ModelRouter, provider: string, model: string): string | null {
  const models = router.models().filter((m) => m.provider === provider);
  const same = models.find((m) => m.id === model || m.alias === model);
  if (same) {
    return same.id;
  }
  const cheapest = [...models].sort(
    (a, b) => a.costPer1kInput + a.costPer1kOutput - (b.costPer1kInput + b.costPer1kOutput),
  )[0];
  return cheapest?.id ?? null;
}
