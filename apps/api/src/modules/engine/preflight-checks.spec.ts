import { AppError, type DegradationOutcome, ErrorCode, type PreflightContext, QuotaExhaustedError } from '@app/domain';
import type { AgentEntity, TaskEntity } from '@app/persistence';

import type { ModelRouter } from '../providers';
import { providerQuotaCheck, taskBudgetCheck } from './preflight-checks';

const context = (budgetLimit: number, spentOnTask: number, provider = 'openai'): PreflightContext => ({
  task: { id: 'task-1', budgetLimit } as TaskEntity,
  agent: { id: 'agent-1' } as AgentEntity,
  provider,
  model: 'gpt-4o',
  spentOnTask,
});

const CATALOGUE = [
  { provider: 'openai', id: 'gpt-small', alias: 'small', costPer1kInput: 1, costPer1kOutput: 2 },
  { provider: 'anthropic', id: 'claude-cheap', alias: null, costPer1kInput: 0.1, costPer1kOutput: 0.2 },
  { provider: 'anthropic', id: 'claude-big', alias: 'small', costPer1kInput: 5, costPer1kOutput: 10 },
  { provider: 'empty', id: 'x', alias: null, costPer1kInput: 0, costPer1kOutput: 0 },
];

function router(preflight: (provider: string) => Promise<DegradationOutcome>): {
  router: ModelRouter;
  preflight: jest.Mock<Promise<DegradationOutcome>, [string]>;
} {
  const mock = jest.fn(preflight);
  const models = () => CATALOGUE.filter((m) => m.provider !== 'empty');
  return { router: { preflight: mock, models } as unknown as ModelRouter, preflight: mock };
}

describe('taskBudgetCheck', () => {
  it('should run first among the built-ins', () => {
    expect(taskBudgetCheck()).toMatchObject({ name: 'task_budget', order: 100 });
  });

  it.each([
    [0, 0],
    [0, 1_000_000],
    [1, 0],
    [1, 0.999999],
    [0.5, 0.4999],
  ])('should pass with limit %d and spent %d', async (limit, spent) => {
    await expect(taskBudgetCheck().check(context(limit, spent))).resolves.toEqual({ ok: true });
  });

  it.each([
    [1, 1, 'task budget exhausted: spent 1.000000 of 1'],
    [1, 2.5, 'task budget exhausted: spent 2.500000 of 1'],
    [0.25, 0.3333333, 'task budget exhausted: spent 0.333333 of 0.25'],
  ])('should refuse with 6000 at limit %d and spent %d', async (limit, spent, reason) => {
    await expect(taskBudgetCheck().check(context(limit, spent))).resolves.toEqual({
      ok: false,
      code: ErrorCode.BudgetExhausted,
      spendLimit: 'task',
      reason,
    });
    expect(ErrorCode.BudgetExhausted).toBe(6000);
  });
});

describe('providerQuotaCheck', () => {
  it('should run as the provider quota step', () => {
    const { router: r } = router(() => Promise.resolve({ provider: 'openai', waitedMs: 0, fallbackFrom: null }));
    expect(providerQuotaCheck(r)).toMatchObject({ name: 'provider_quota', order: 500 });
  });

  it('should pass unchanged when the provider has quota', async () => {
    const { router: r, preflight } = router((provider) =>
      Promise.resolve({ provider, waitedMs: 0, fallbackFrom: null }),
    );

    await expect(providerQuotaCheck(r).check(context(0, 0, 'openai'))).resolves.toEqual({ ok: true });
    expect(preflight).toHaveBeenCalledWith('openai');
  });

  it('should swap the provider and take the same model by alias there on fallback', async () => {
    const { router: r } = router(() => Promise.resolve({ provider: 'anthropic', waitedMs: 0, fallbackFrom: 'openai' }));
    const ctx = { ...context(0, 0), model: 'small' };
    await expect(providerQuotaCheck(r).check(ctx)).resolves.toEqual({
      ok: true,
      provider: 'anthropic',
      model: 'claude-big',
      note: 'fell back from openai (model claude-big)',
    });
  });

  it("should take the fallback provider's cheapest model when it lacks the run's model", async () => {
    const { router: r } = router(() => Promise.resolve({ provider: 'anthropic', waitedMs: 0, fallbackFrom: 'openai' }));
    const ctx = { ...context(0, 0), model: 'gpt-small' };
    await expect(providerQuotaCheck(r).check(ctx)).resolves.toMatchObject({ ok: true, model: 'claude-cheap' });
  });

  it('should refuse (6004) when the fallback provider has no models', async () => {
    const { router: r } = router(() => Promise.resolve({ provider: 'empty', waitedMs: 0, fallbackFrom: 'openai' }));
    await expect(providerQuotaCheck(r).check(context(0, 0))).resolves.toMatchObject({ ok: false, code: 6004 });
  });

  it('should pass with a note after waiting for the quota window', async () => {
    const { router: r } = router((provider) => Promise.resolve({ provider, waitedMs: 1500, fallbackFrom: null }));

    await expect(providerQuotaCheck(r).check(context(0, 0))).resolves.toEqual({
      ok: true,
      note: 'waited 1500 ms for quota',
    });
  });

  it.each([
    ['an AppError', new AppError(ErrorCode.QuotaExhausted, 'x'), ErrorCode.QuotaExhausted, 'x'],
    [
      'a QuotaExhaustedError',
      new QuotaExhaustedError("provider 'openai' is out of quota", 30),
      ErrorCode.QuotaExhausted,
      "provider 'openai' is out of quota",
    ],
    ['another AppError', new AppError(ErrorCode.ProviderConnection, 'down'), ErrorCode.ProviderConnection, 'down'],
  ])('should refuse with the code of %s', async (_label, error, code, reason) => {
    const { router: r } = router(() => Promise.reject(error));

    await expect(providerQuotaCheck(r).check(context(0, 0))).resolves.toEqual({ ok: false, code, reason });
  });

  it('should rethrow an error that is not an AppError', async () => {
    const failure = new TypeError('registry not loaded');
    const { router: r } = router(() => Promise.reject(failure));

    await expect(providerQuotaCheck(r).check(context(0, 0))).rejects.toBe(failure);
  });
});
