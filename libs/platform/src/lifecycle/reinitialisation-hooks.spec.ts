import { ReinitialisationHooks } from './reinitialisation-hooks';

describe('ReinitialisationHooks', () => {
  it('runs hooks by order and stops at the first failure', async () => {
    const hooks = new ReinitialisationHooks();
    const seen: string[] = [];
    hooks.register({ name: 'runtime', order: 300, run: () => Promise.resolve(void seen.push('runtime')) });
    hooks.register({ name: 'providers', order: 100, run: () => Promise.resolve(void seen.push('providers')) });
    expect(await hooks.runAll()).toEqual(['providers', 'runtime']);
    expect(seen).toEqual(['providers', 'runtime']);

    const remove = hooks.register({ name: 'agents', order: 200, run: () => Promise.reject(new Error('boom')) });
    await expect(hooks.runAll()).rejects.toThrow('boom');
    expect(seen).toEqual(['providers', 'runtime', 'providers']);
    remove();
    expect(hooks.names()).toEqual(['providers', 'runtime']);
  });

  it('runs only the named hooks, in order, when asked for some', async () => {
    const hooks = new ReinitialisationHooks();
    const seen: string[] = [];
    hooks.register({ name: 'runtime', order: 300, run: () => Promise.resolve(void seen.push('runtime')) });
    hooks.register({ name: 'agents', order: 200, run: () => Promise.reject(new Error('not wanted')) });
    hooks.register({ name: 'providers', order: 100, run: () => Promise.resolve(void seen.push('providers')) });
    expect(await hooks.runOnly(['runtime', 'providers', 'absent'])).toEqual(['providers', 'runtime']);
    expect(seen).toEqual(['providers', 'runtime']);
  });

  it('refuses a duplicate name', () => {
    const hooks = new ReinitialisationHooks();
    hooks.register({ name: 'x', order: 1, run: () => Promise.resolve() });
    expect(() => hooks.register({ name: 'x', order: 2, run: () => Promise.resolve() })).toThrow(/already/);
  });
});
