import type { Logger } from 'pino';

import type { PersistenceState } from '../persistence/database.service';
import { ExclusiveSchedule, type ExclusiveScheduleOptions } from './exclusive-schedule';

const MINUTE = 60_000;

function build(options: Partial<ExclusiveScheduleOptions<number>> = {}) {
  const passes: Date[] = [];
  const database: { state: PersistenceState } = { state: 'ready' };
  let held = false;
  const lock = {
    tryRunExclusive: jest.fn(
      async (_name: string, fn: () => Promise<unknown>): Promise<{ ran: true; value: unknown } | { ran: false }> =>
        held ? { ran: false } : { ran: true, value: await fn() },
    ),
  };
  const log = { error: jest.fn() };
  const schedule = new ExclusiveSchedule<number>({
    name: 'test.sweep',
    intervalMs: MINUTE,
    pass: (now) => {
      passes.push(now);
      return Promise.resolve(passes.length);
    },
    lock: lock as unknown as ExclusiveScheduleOptions<number>['lock'],
    database,
    log: log as unknown as Logger,
    failedEvent: 'test.sweep.failed',
    ...options,
  });
  return { schedule, passes, database, lock, log, hold: (value: boolean) => (held = value) };
}

describe(ExclusiveSchedule.name, () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-06-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('should run a pass every interval under the lock of its name, on an unref’d timer', async () => {
    const t = build();
    t.schedule.start();
    t.schedule.start(); // idempotent
    await jest.advanceTimersByTimeAsync(MINUTE - 1);
    expect(t.passes).toHaveLength(0);
    expect((t.schedule as unknown as { timer: NodeJS.Timeout }).timer.hasRef()).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(t.passes.map((d) => d.toISOString())).toEqual(['2026-06-01T00:01:00.000Z']);
    expect(t.lock.tryRunExclusive).toHaveBeenCalledWith('test.sweep', expect.any(Function));
    await jest.advanceTimersByTimeAsync(2 * MINUTE);
    expect(t.passes).toHaveLength(3);
    t.schedule.stop();
  });

  it('should skip the round while another replica holds the pass, and go on', async () => {
    const t = build();
    t.hold(true);
    await expect(t.schedule.runOnce()).resolves.toEqual({ ran: false });
    t.schedule.start();
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(t.passes).toHaveLength(0);
    t.hold(false);
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(t.passes).toHaveLength(1);
    t.schedule.stop();
  });

  it('should log a failing pass without throwing, and keep the schedule', async () => {
    let calls = 0;
    const t = build({
      pass: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(calls);
      },
    });
    t.schedule.start();
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(t.log.error).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: 'boom' }), schedule: 'test.sweep' },
      'test.sweep.failed',
    );
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(calls).toBe(2);
    await expect(t.schedule.runOnce()).resolves.toEqual({ ran: true, value: 3 });
    t.schedule.stop();
  });

  it('should not ask for the lock while persistence is not ready or the feature is off', async () => {
    const t = build();
    t.database.state = 'swapping';
    await expect(t.schedule.runOnce()).resolves.toEqual({ ran: false });
    let on = false;
    const off = build({ enabled: () => Promise.resolve(on) });
    await expect(off.schedule.runOnce()).resolves.toEqual({ ran: false });
    expect(t.lock.tryRunExclusive).not.toHaveBeenCalled();
    expect(off.lock.tryRunExclusive).not.toHaveBeenCalled();
    on = true;
    await expect(off.schedule.runOnce()).resolves.toEqual({ ran: true, value: 1 });
  });

  it('should read the interval before each wait, pause on null and pick up again when rescheduled', async () => {
    let interval: number | null = MINUTE;
    const t = build({ intervalMs: () => interval });
    t.schedule.start();
    interval = 5 * MINUTE; // read when the first pass ends
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(t.passes).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(4 * MINUTE);
    expect(t.passes).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(t.passes).toHaveLength(2);
    interval = null; // paused from the next wait
    await jest.advanceTimersByTimeAsync(60 * MINUTE);
    expect(t.passes).toHaveLength(3);
    interval = 2 * MINUTE;
    t.schedule.reschedule();
    await jest.advanceTimersByTimeAsync(2 * MINUTE);
    expect(t.passes).toHaveLength(4);
    t.schedule.stop();
  });

  it('should schedule nothing after stop, even when a pass was running', async () => {
    let release: () => void = () => undefined;
    const t = build({
      pass: () =>
        new Promise<number>((resolve) => {
          release = () => resolve(1);
        }),
    });
    t.schedule.start();
    await jest.advanceTimersByTimeAsync(MINUTE);
    t.schedule.stop();
    release();
    await t.schedule.idle();
    expect(jest.getTimerCount()).toBe(0);
    t.schedule.start(); // not again after stop
    expect(jest.getTimerCount()).toBe(0);
  });
});
