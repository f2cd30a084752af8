import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GitCommandError, GitRunner } from './git-runner';
import { SpawnHelper } from '@app/platform';

describe('SpawnHelper', () => {
  let dir: string;
  const helpers: SpawnHelper[] = [];
  const helper = (): SpawnHelper => {
    const made = new SpawnHelper();
    helpers.push(made);
    return made;
  };

  /** A stand-in for git that ignores its arguments and takes five seconds. */
  let slowBinary: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spawn-helper-'));
    slowBinary = join(dir, 'slow-git');
    await writeFile(slowBinary, '#!/bin/sh\nexec sleep 5\n');
    await chmod(slowBinary, 0o755);
  });

  afterAll(async () => {
    helpers.forEach((h) => h.close());
    await rm(dir, { recursive: true, force: true });
  });

  describe.each([
    ['through the helper', () => helper()],
    ['directly', () => null],
  ])('git %s', (_label, make) => {
    let git: GitRunner;

    beforeAll(async () => {
      git = new GitRunner({ helper: make() });
      await git.run(['init', '-q', '-b', 'main'], { cwd: dir });
    });

    it("should answer a command's stdout, with a call's own environment", async () => {
      expect(await git.run(['--version'], { cwd: dir })).toMatch(/^git version \d+\.\d+/);
      const name = await git.run(['var', 'GIT_AUTHOR_IDENT'], { cwd: dir, env: { GIT_AUTHOR_NAME: 'Ada Lovelace' } });
      expect(name).toMatch(/^Ada Lovelace </);
    });

    it('should report a non-zero exit with its code and stderr', async () => {
      const result = await git.runResult(['rev-parse', '--verify', 'refs/heads/missing'], { cwd: dir });
      expect(result.exitCode).not.toBe(0);
      await expect(git.run(['cat-file', 'blob', 'main:missing.txt'], { cwd: dir })).rejects.toMatchObject({
        exitCode: 128,
      });
    });

    it('should kill a command past its timeout and say so', async () => {
      const slow = new GitRunner({ binary: slowBinary, helper: make() });
      const failure = await slow.runResult([], { cwd: dir, timeoutMs: 100 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GitCommandError);
      expect((failure as GitCommandError).timedOut).toBe(true);
    });

    it('should fail a binary that cannot be started', async () => {
      const missing = new GitRunner({ binary: join(dir, 'no-such-git'), helper: make() });
      const failure = await missing.run(['--version'], { cwd: dir }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GitCommandError);
      expect((failure as GitCommandError).exitCode).toBeNull();
    });
  });

  it('should keep serving after the signals a terminal sends a whole process group', async () => {
    const own = helper();
    const git = new GitRunner({ helper: own });
    expect(await git.run(['--version'], { cwd: dir })).toMatch(/^git version/);
    const child = (own as unknown as { child: import('node:child_process').ChildProcess }).child;
    child.kill('SIGINT');
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await git.run(['--version'], { cwd: dir })).toMatch(/^git version/);
    expect((own as unknown as { child: unknown }).child).toBe(child);
  });

  it('should fail the commands a dying helper was running, and start later ones directly', async () => {
    const own = helper();
    const git = new GitRunner({ binary: slowBinary, helper: own });
    const running = git.runResult([], { cwd: dir }).catch((error: unknown) => error);
    // The helper is started by the first command: kill it while that command runs.
    const child = (own as unknown as { child: import('node:child_process').ChildProcess }).child;
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGKILL');
    const failure = await running;
    expect(failure).toBeInstanceOf(GitCommandError);
    expect((failure as GitCommandError).exitCode).toBeNull();

    expect(own.run('true', [], { cwd: dir, env: process.env, timeout: 1000, maxBuffer: 1024 })).toBeNull();
    const direct = new GitRunner({ binary: 'true', helper: own });
    expect(await direct.runResult([], { cwd: dir })).toMatchObject({ exitCode: 0 });
  });
});
