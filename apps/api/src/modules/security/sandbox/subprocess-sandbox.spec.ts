import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SpawnHelper } from '@app/platform';

import { SubprocessSandbox } from './subprocess-sandbox';

const helper = new SpawnHelper();
afterAll(() => helper.close());

describe.each([
  ['started from the spawn helper', helper],
  ['started from this process', null],
])(`${SubprocessSandbox.name}, commands %s`, (_label, from) => {
  let dir: string;
  const sandbox = new SubprocessSandbox(4096, from);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-spec-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should run the command in the worktree and report its exit code and output', async () => {
    const result = await sandbox.run({ command: 'pwd; echo out; echo err >&2; exit 3', cwd: dir, timeoutSeconds: 10 });
    expect(result).toMatchObject({ exitCode: 3, timedOut: false, truncated: false });
    expect(result.output).toContain(dir);
    expect(result.output).toContain('out');
    expect(result.output).toContain('err');
    expect(result.isolation).toEqual(expect.arrayContaining(['scrubbed environment', 'own process group']));
  });

  it('should pass no service variable to the command', async () => {
    process.env.SYNTHORG_SANDBOX_SPEC_SECRET = 'leak-me';
    try {
      const result = await sandbox.run({ command: 'env', cwd: dir, timeoutSeconds: 10 });
      expect(result.output).not.toContain('leak-me');
      expect(result.output).toContain(`HOME=${dir}`);
      const names = result.output
        .trim()
        .split('\n')
        .map((line) => line.slice(0, line.indexOf('=')));
      expect(names.filter((n) => !['PATH', 'LANG', 'HOME', 'CI', 'NO_COLOR', 'PWD', 'SHLVL', '_'].includes(n))).toEqual(
        [],
      );
    } finally {
      delete process.env.SYNTHORG_SANDBOX_SPEC_SECRET;
    }
  });

  it('should kill the whole process group on timeout, children included', async () => {
    const marker = join(dir, 'survived');
    const result = await sandbox.run({
      command: `(sleep 1.3; touch ${marker}) & sleep 30`,
      cwd: dir,
      timeoutSeconds: 1,
    });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(5000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(existsSync(marker)).toBe(false);
  });

  it('should stop when the caller aborts, children included', async () => {
    const marker = join(dir, 'survived');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await sandbox.run({
      command: `(sleep 0.6; touch ${marker}) & sleep 30`,
      cwd: dir,
      timeoutSeconds: 30,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ timedOut: false, exitCode: null });
    expect(result.durationMs).toBeLessThan(5000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(existsSync(marker)).toBe(false);
  });

  it('should not start a command whose caller has already stopped', async () => {
    const marker = join(dir, 'ran');
    const result = await sandbox.run({
      command: `sleep 0.3; touch ${marker}`,
      cwd: dir,
      timeoutSeconds: 30,
      signal: AbortSignal.abort(),
    });
    expect(result.exitCode).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(existsSync(marker)).toBe(false);
  });

  it('should kill what the command left running once it has exited', async () => {
    const marker = join(dir, 'daemon');
    const result = await sandbox.run({
      command: `(sleep 0.3; touch ${marker}) >/dev/null 2>&1 & echo started`,
      cwd: dir,
      timeoutSeconds: 30,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output).toBe('started\n');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(existsSync(marker)).toBe(false);
  });

  it('should report a command that cannot start in a directory that does not exist', async () => {
    const result = await sandbox.run({ command: 'true', cwd: join(dir, 'missing'), timeoutSeconds: 10 });
    expect(result).toMatchObject({ exitCode: null, timedOut: false });
  });

  it('should cap the output', async () => {
    const result = await sandbox.run({ command: 'yes x | head -c 100000', cwd: dir, timeoutSeconds: 10 });
    expect(result.truncated).toBe(true);
    expect(result.output.length).toBe(4096);
  });

  it('should report whether the network was isolated', async () => {
    const isolated = await sandbox.networkIsolation();
    const result = await sandbox.run({ command: 'true', cwd: dir, timeoutSeconds: 10 });
    expect(result.isolation[2]).toBe(
      isolated ? 'network namespace (no network)' : 'network not isolated (user namespaces unavailable)',
    );
  });
});
