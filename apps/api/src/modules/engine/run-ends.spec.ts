import { taskRow } from '@app/testing';

import type { TaskLifecycle } from '../tasks';
import { RunEnds } from './run-ends';
import type { TaskEngine } from './task-engine';

function build(
  local: Promise<unknown> | undefined,
  rows: Array<ReturnType<typeof taskRow> | null>,
  elsewhere: boolean[],
) {
  const engine = {
    localRun: jest.fn(() => local),
    runningElsewhere: jest.fn(() => elsewhere.shift() ?? false),
  };
  const lifecycle = { find: jest.fn(() => Promise.resolve(rows.length > 1 ? rows.shift() : rows[0])) };
  const ends = new RunEnds(engine as unknown as TaskEngine, lifecycle as unknown as TaskLifecycle);
  return { ends, engine, lifecycle };
}

describe(RunEnds.name, () => {
  const task = taskRow({ status: 'interrupted', runOwner: 'other-replica' });

  it('should wait for the run in this process to settle, then find no run elsewhere', async () => {
    let settle: () => void = () => undefined;
    const local = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const { ends, lifecycle } = build(local, [task], [false]);
    const waited = ends.awaitEnd('task-1', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lifecycle.find).not.toHaveBeenCalled();
    settle();
    await expect(waited).resolves.toBe(true);
  });

  it('should poll a run on another live replica until it ends', async () => {
    const { ends, engine } = build(undefined, [task], [true, true, false]);
    await expect(ends.awaitEnd('task-1', 5_000)).resolves.toBe(true);
    expect(engine.runningElsewhere).toHaveBeenCalledTimes(3);
  });

  it('should answer true for a deleted task, and false once the time is up', async () => {
    await expect(build(undefined, [null], []).ends.awaitEnd('task-1', 1_000)).resolves.toBe(true);
    await expect(build(undefined, [task], [true, true, true, true]).ends.awaitEnd('task-1', 150)).resolves.toBe(false);
    await expect(build(new Promise(() => undefined), [task], []).ends.awaitEnd('task-1', 50)).resolves.toBe(false);
  });
});
