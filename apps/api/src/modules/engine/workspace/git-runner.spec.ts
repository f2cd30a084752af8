import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

import { GitCommandError, GitRunner, sanitizedGitEnv } from './git-runner';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

describe('GitRunner', () => {
  const git = new GitRunner();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'git-runner-'));
    await git.run(['init', '-q', '-b', 'main'], { cwd: dir });
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('stream', () => {
    it('should keep every byte of a command that exits before its reader attaches', async () => {
      const stream = git.stream(['--version'], { cwd: dir });
      // Long enough for git to print and exit while nobody reads.
      await sleep(300);
      expect(await text(stream)).toMatch(/^git version \d+\.\d+/);
    });

    it('should stream a blob byte for byte', async () => {
      const content = Buffer.concat([Buffer.from('# Notes\n'), Buffer.from([0, 255, 10]), Buffer.alloc(200_000, 'x')]);
      await writeFile(join(dir, 'notes.bin'), content);
      const sha = (await git.run(['hash-object', '-w', 'notes.bin'], { cwd: dir })).trim();
      const chunks: Buffer[] = [];
      for await (const chunk of git.stream(['cat-file', 'blob', sha], { cwd: dir })) {
        chunks.push(chunk as Buffer);
      }
      expect(Buffer.concat(chunks).equals(content)).toBe(true);
    });

    it('should fail the stream with the exit code and stderr of a failing command', async () => {
      const stream = git.stream(['cat-file', 'blob', 'main:missing.txt'], { cwd: dir });
      const failure = await text(stream).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(GitCommandError);
      expect((failure as GitCommandError).exitCode).toBe(128);
      expect((failure as GitCommandError).stderr).not.toBe('');
    });
  });

  describe('sanitizedGitEnv', () => {
    it('should drop inherited GIT_ variables and ignore global and system config', () => {
      const env = sanitizedGitEnv({ PATH: '/bin', GIT_DIR: '/elsewhere', git_work_tree: '/x' });
      expect(env).toMatchObject({ PATH: '/bin', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' });
      expect(env.GIT_DIR).toBeUndefined();
      expect(env.git_work_tree).toBeUndefined();
    });
  });
});
