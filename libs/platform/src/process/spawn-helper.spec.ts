import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type GroupRunOptions, OutputCap, SpawnHelper } from './spawn-helper';

describe('SpawnHelper group runs', () => {
  let dir: string;
  let helper: SpawnHelper;
  const options = (overrides: Partial<GroupRunOptions> = {}): GroupRunOptions => ({
    cwd: dir,
    env: { PATH: process.env.PATH },
    timeoutMs: 10_000,
    maxOutputBytes: 1024,
    ...overrides,
  });
  const processOf = (made: SpawnHelper): ChildProcess => (made as unknown as { child: ChildProcess }).child;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spawn-helper-'));
    helper = new SpawnHelper();
  });

  afterEach(() => {
    helper.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should answer the exit code and the output of both streams, in the given directory and environment', async () => {
    const outcome = await helper.runGroup(
      '/bin/sh',
      ['-c', 'pwd; echo "$GREETING" >&2; exit 4'],
      options({ env: { PATH: process.env.PATH, GREETING: 'hello' } }),
    );

    expect(outcome).toEqual({ exitCode: 4, timedOut: false, output: `${dir}\nhello\n`, truncated: false });
  });

  it('should cap the output and say so', async () => {
    const outcome = await helper.runGroup('/bin/sh', ['-c', 'yes x | head -c 5000'], options({ maxOutputBytes: 100 }));

    expect(outcome).toMatchObject({ exitCode: 0, truncated: true });
    expect(outcome?.output).toHaveLength(100);
  });

  it('should kill the group past its timeout', async () => {
    const started = Date.now();
    const outcome = await helper.runGroup('/bin/sh', ['-c', 'sleep 30'], options({ timeoutMs: 200 }));

    expect(outcome).toMatchObject({ exitCode: null, timedOut: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('should run group runs side by side, and stop only the one whose signal fired', async () => {
    const controller = new AbortController();
    const stopped = helper.runGroup('/bin/sh', ['-c', 'sleep 30'], options(), controller.signal);
    const other = helper.runGroup('/bin/sh', ['-c', 'sleep 0.5; echo done'], options());
    setTimeout(() => controller.abort(), 100);

    expect(await stopped).toMatchObject({ exitCode: null, timedOut: false });
    expect(await other).toMatchObject({ exitCode: 0, output: 'done\n' });
  });

  it('should fail the runs in flight when the helper is lost, and leave later ones to the caller', async () => {
    const running = helper.runGroup('/bin/sh', ['-c', 'sleep 30'], options());
    const child = processOf(helper);
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGKILL');

    await expect(running).rejects.toThrow(/the helper exited/);
    expect(helper.runGroup('/bin/sh', ['-c', 'true'], options())).toBeNull();
  });

  it('should kill the groups still running when the service closes its channel', async () => {
    const marker = join(dir, 'outlived');
    const running = helper.runGroup('/bin/sh', ['-c', `sleep 0.6; touch ${marker}`], options());
    await new Promise((resolve) => setTimeout(resolve, 200));
    helper.close();

    await expect(running).rejects.toThrow(/the helper exited/);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(existsSync(marker)).toBe(false);
  });
});

describe(OutputCap.name, () => {
  it.each([
    [[5, 5], 10, 10, false],
    [[8, 8], 10, 10, true],
    [[12], 10, 10, true],
    [[3], 10, 3, false],
  ])('should keep chunks %j under a cap of %i as %i bytes (truncated %s)', (sizes, limit, kept, truncated) => {
    const cap = new OutputCap(limit);
    sizes.forEach((n) => cap.add(Buffer.alloc(n, 'a')));
    expect(cap.text()).toHaveLength(kept);
    expect(cap.truncated).toBe(truncated);
  });
});
