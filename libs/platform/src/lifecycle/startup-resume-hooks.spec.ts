import pino from 'pino';

import type { LoggingRuntime } from '../logging';
import { StartupResumeHooks } from './startup-resume-hooks';

function hooksWithLog(): { hooks: StartupResumeHooks; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const logging = { forName: () => logger } as unknown as LoggingRuntime;
  return { hooks: new StartupResumeHooks(logging), lines };
}

describe('StartupResumeHooks', () => {
  it('should run every hook in registration order and answer no failures', async () => {
    const { hooks } = hooksWithLog();
    const ran: string[] = [];
    hooks.register({ name: 'a', run: () => Promise.resolve(void ran.push('a')) });
    hooks.register({ name: 'b', run: () => Promise.resolve(void ran.push('b')) });
    expect(await hooks.runAll()).toEqual([]);
    expect(ran).toEqual(['a', 'b']);
  });

  it('should log a failing hook, carry on with the next and never throw', async () => {
    const { hooks, lines } = hooksWithLog();
    const ran: string[] = [];
    hooks.register({ name: 'approvals.redispatch', run: () => Promise.reject(new Error('database away')) });
    hooks.register({ name: 'later', run: () => Promise.resolve(void ran.push('later')) });
    await expect(hooks.runAll()).resolves.toEqual(['approvals.redispatch']);
    expect(ran).toEqual(['later']);
    expect(lines.some((l) => l.msg === 'engine.startup.resume_failed' && l.hook === 'approvals.redispatch')).toBe(true);
  });

  it('should run once per process and forget an unregistered hook', async () => {
    const { hooks } = hooksWithLog();
    let count = 0;
    const off = hooks.register({ name: 'gone', run: () => Promise.resolve(void (count += 100)) });
    hooks.register({ name: 'kept', run: () => Promise.resolve(void (count += 1)) });
    off();
    expect(hooks.names()).toEqual(['kept']);
    await hooks.runAll();
    await hooks.runAll();
    expect(count).toBe(1);
  });
});
