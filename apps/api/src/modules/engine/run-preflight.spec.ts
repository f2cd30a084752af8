import type { PreflightCheck, PreflightContext, PreflightVerdict } from '@app/domain';
import type { AgentEntity, TaskEntity } from '@app/persistence';

import { RunPreflight } from './run-preflight';

const context = (overrides: Partial<PreflightContext> = {}): PreflightContext => ({
  task: { id: 'task-1', budgetLimit: 0 } as TaskEntity,
  agent: { id: 'agent-1', name: 'Ada' } as AgentEntity,
  provider: 'openai',
  model: 'gpt-4o',
  spentOnTask: 0,
  ...overrides,
});

interface RecordingCheck extends PreflightCheck {
  seen: { provider: string; model: string }[];
}

function check(name: string, order: number, verdict: PreflightVerdict = { ok: true }, log?: string[]): RecordingCheck {
  const seen: RecordingCheck['seen'] = [];
  return {
    name,
    order,
    seen,
    check: jest.fn(({ provider, model }: PreflightContext) => {
      seen.push({ provider, model });
      log?.push(name);
      return Promise.resolve(verdict);
    }),
  };
}

describe(RunPreflight.name, () => {
  it('should pass with the initial provider and model when no check is registered', async () => {
    await expect(new RunPreflight().run(context())).resolves.toEqual({
      ok: true,
      provider: 'openai',
      model: 'gpt-4o',
      notes: [],
    });
  });

  it('should run checks by order, then by name, whatever the registration order', async () => {
    const preflight = new RunPreflight();
    const log: string[] = [];
    for (const [name, order] of [
      ['quota', 500],
      ['policy', 300],
      ['budget', 100],
      ['daily', 300],
      ['alpha', 500],
    ] as const) {
      preflight.register(check(name, order, { ok: true }, log));
    }

    expect(preflight.names()).toEqual(['budget', 'daily', 'policy', 'alpha', 'quota']);
    await preflight.run(context());
    expect(log).toEqual(['budget', 'daily', 'policy', 'alpha', 'quota']);
  });

  it('should stop at a refusal without calling later checks', async () => {
    const preflight = new RunPreflight();
    const first = check('first', 100, { ok: true, note: 'fine' });
    const refusing = check('budget', 200, { ok: false, reason: 'spent', code: 6000 });
    const later = check('later', 300);
    [later, refusing, first].forEach((c) => preflight.register(c));

    const result = await preflight.run(context());

    expect(result).toEqual({ ok: false, check: 'budget', reason: 'spent', code: 6000 });
    expect(first.check).toHaveBeenCalledTimes(1);
    expect(refusing.check).toHaveBeenCalledTimes(1);
    expect(later.check).not.toHaveBeenCalled();
  });

  it('should carry a provider and model swap to later checks and to the result', async () => {
    const preflight = new RunPreflight();
    const swapProvider = check('quota', 100, { ok: true, provider: 'anthropic' });
    const swapModel = check('model', 200, { ok: true, model: 'claude-sonnet' });
    const last = check('last', 300);
    [last, swapModel, swapProvider].forEach((c) => preflight.register(c));

    const result = await preflight.run(context());

    expect(swapProvider.seen).toEqual([{ provider: 'openai', model: 'gpt-4o' }]);
    expect(swapModel.seen).toEqual([{ provider: 'anthropic', model: 'gpt-4o' }]);
    expect(last.seen).toEqual([{ provider: 'anthropic', model: 'claude-sonnet' }]);
    expect(result).toEqual({ ok: true, provider: 'anthropic', model: 'claude-sonnet', notes: [] });
  });

  it('should not change the caller context', async () => {
    const preflight = new RunPreflight();
    preflight.register(check('quota', 100, { ok: true, provider: 'anthropic', model: 'claude' }));
    const initial = context();

    await preflight.run(initial);

    expect(initial).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
  });

  it('should collect the notes prefixed with the check name, in run order', async () => {
    const preflight = new RunPreflight();
    preflight.register(check('quota', 500, { ok: true, note: 'waited 10 ms for quota' }));
    preflight.register(check('silent', 300));
    preflight.register(check('budget', 100, { ok: true, note: 'near limit' }));

    const result = await preflight.run(context());

    expect(result).toEqual({
      ok: true,
      provider: 'openai',
      model: 'gpt-4o',
      notes: ['budget: near limit', 'quota: waited 10 ms for quota'],
    });
  });

  it('should drop a check once unregistered, and tolerate a second unregister', async () => {
    const preflight = new RunPreflight();
    const kept = check('kept', 100);
    const removed = check('removed', 200, { ok: false, reason: 'no', code: 6000 });
    preflight.register(kept);
    const unregister = preflight.register(removed);

    unregister();
    unregister();

    expect(preflight.names()).toEqual(['kept']);
    await expect(preflight.run(context())).resolves.toMatchObject({ ok: true });
    expect(removed.check).not.toHaveBeenCalled();
  });
});
