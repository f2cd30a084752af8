import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

import { ErrorCode, NotFoundError, ValidationError } from '@app/domain';

import { GitCommandError, GitRunner, sanitizedGitEnv } from './git-runner';
import { WorkspaceManager, type WorkspaceManagerOptions } from './workspace-manager';

const AUTHOR = { name: 'Ada Agent', email: 'ada@agents.test' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: sanitizedGitEnv(process.env), encoding: 'utf8' }).trim();
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe(WorkspaceManager.name, () => {
  let baseDir: string;
  let repoDir: string;

  const make = (options: Partial<WorkspaceManagerOptions> = {}): WorkspaceManager =>
    new WorkspaceManager({ baseDir, ...options });

  beforeEach(async () => {
    baseDir = await mkdtemp(join(tmpdir(), 'synthorg-ws-'));
    repoDir = join(baseDir, 'repo');
  });

  afterEach(async () => {
    await rm(baseDir, { recursive: true, force: true });
  });

  it('should create the repository once when init runs repeatedly', async () => {
    await make().init();
    await make().init();
    const manager = make();
    await Promise.all([manager.init(), manager.init()]);

    expect(git(repoDir, 'rev-list', '--count', 'main')).toBe('1');
    expect(git(repoDir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git(repoDir, 'config', 'worktree.useRelativePaths')).toBe('true');
  });

  it('should use the configured base branch when one is given', async () => {
    await make({ baseBranch: 'trunk' }).init();

    expect(git(repoDir, 'symbolic-ref', '--short', 'HEAD')).toBe('trunk');
  });

  it('should create a worktree on a task branch with a relative gitdir when acquiring', async () => {
    const manager = make();

    const workspace = await manager.acquire('task-1');

    expect(workspace).toMatchObject({ taskId: 'task-1', path: manager.pathOf('task-1'), reused: false });
    expect(workspace.branch).toMatch(/^workspace\/task-1\/[0-9a-f]{8}$/);
    expect(git(workspace.path, 'branch', '--show-current')).toBe(workspace.branch);
    const gitFile = await readFile(join(workspace.path, '.git'), 'utf8');
    const gitdir = /^gitdir: (.+)$/m.exec(gitFile)?.[1] ?? '';
    expect(isAbsolute(gitdir)).toBe(false);
    expect(resolve(workspace.path, gitdir)).toBe(join(repoDir, '.git', 'worktrees', 'task-1'));
    await expect(manager.active()).resolves.toEqual(['task-1']);
  });

  it('should reuse the worktree and branch when a task acquires again, also after a restart', async () => {
    const first = await make().acquire('task-1');

    const again = await make().acquire('task-1');

    expect(again).toEqual({ ...first, reused: true });
  });

  it('should reattach the task branch when the worktree directory was lost', async () => {
    const manager = make();
    const first = await manager.acquire('task-1');
    await writeFile(join(first.path, 'kept.txt'), 'kept\n');
    await manager.commitAll('task-1', 'keep', AUTHOR);
    await rm(first.path, { recursive: true, force: true });

    const again = await manager.acquire('task-1');

    expect(again).toEqual({ ...first, reused: true });
    await expect(readFile(join(again.path, 'kept.txt'), 'utf8')).resolves.toBe('kept\n');
  });

  it('should refuse a new worktree when the limit is reached but still reuse existing ones', async () => {
    const manager = make({ maxConcurrentWorktrees: 2 });
    await manager.acquire('a');
    await manager.acquire('b');

    await expect(manager.acquire('c')).rejects.toMatchObject({
      code: ErrorCode.ConcurrencyLimitExceeded,
      message: expect.stringContaining('workspace limit reached'),
    });
    await expect(manager.acquire('a')).resolves.toMatchObject({ reused: true });
  });

  it('should reject limits outside 1 to 32 when constructed', () => {
    expect(() => make({ maxConcurrentWorktrees: 0 })).toThrow(ValidationError);
    expect(() => make({ maxConcurrentWorktrees: 33 })).toThrow(ValidationError);
    expect(() => make({ baseBranch: '-main' })).toThrow(ValidationError);
  });

  it.each(['', '../x', '-x', 'a/b', 'a..b', 'x.lock', '.hidden', 'x'.repeat(129), 'sp ace'])(
    'should reject the task id %j',
    async (taskId) => {
      const manager = make();

      expect(() => manager.pathOf(taskId)).toThrow(ValidationError);
      await expect(manager.acquire(taskId)).rejects.toBeInstanceOf(ValidationError);
    },
  );

  it('should commit only when something changed', async () => {
    const manager = make();
    const workspace = await manager.acquire('task-1');

    await expect(manager.commitAll('task-1', 'nothing', AUTHOR)).resolves.toEqual({ committed: false, sha: null });
    await writeFile(join(workspace.path, 'notes.md'), '# Notes\n');
    const outcome = await manager.commitAll('task-1', 'Add notes', AUTHOR);

    expect(outcome.committed).toBe(true);
    expect(outcome.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(git(workspace.path, 'log', '-1', '--format=%an <%ae>|%cn|%s')).toBe(
      'Ada Agent <ada@agents.test>|SynthOrg|Add notes',
    );
  });

  it('should fail to commit for a task without a workspace', async () => {
    await expect(make().commitAll('ghost', 'x', AUTHOR)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('should merge the task branch into the base branch and clean up when merging', async () => {
    const manager = make();
    const workspace = await manager.acquire('task-1');
    await writeFile(join(workspace.path, 'result.txt'), 'done\n');

    const outcome = await manager.merge('task-1', 'Merge task-1');

    expect(outcome).toEqual({ merged: true, sha: git(repoDir, 'rev-parse', 'main'), conflicts: [] });
    expect(git(repoDir, 'log', '--merges', '--format=%s')).toBe('Merge task-1');
    await expect(readFile(join(repoDir, 'result.txt'), 'utf8')).resolves.toBe('done\n');
    expect(git(repoDir, 'status', '--porcelain')).toBe('');
    expect(await exists(workspace.path)).toBe(false);
    expect(git(repoDir, 'branch', '--list', 'workspace/*')).toBe('');
    await expect(manager.active()).resolves.toEqual([]);
  });

  it('should start a new branch without searching for an old one when the caller says the task is fresh', async () => {
    const manager = make();

    const workspace = await manager.acquire('task-1', { fresh: true });

    expect(workspace).toMatchObject({ taskId: 'task-1', reused: false });
    expect(git(workspace.path, 'branch', '--show-current')).toBe(workspace.branch);
  });

  it('should add a fresh worktree where a registration was left without its directory, taking back the failed try', async () => {
    const manager = make();
    const first = await manager.acquire('task-1');
    await rm(first.path, { recursive: true, force: true }); // git still lists it, as prunable

    const again = await manager.acquire('task-1', { fresh: true });

    expect(again).toMatchObject({ taskId: 'task-1', reused: false });
    expect(git(again.path, 'branch', '--show-current')).toBe(again.branch);
    const branches = git(repoDir, 'branch', '--list', '--format=%(refname:short)', 'workspace/*').split('\n');
    expect(branches.sort()).toEqual([first.branch, again.branch].sort());
  });

  it('should count the worktrees in use when adding a fresh one too', async () => {
    const manager = make({ maxConcurrentWorktrees: 2 });
    await manager.acquire('a', { fresh: true });
    await manager.acquire('b', { fresh: true });

    await expect(manager.acquire('c', { fresh: true })).rejects.toMatchObject({
      code: ErrorCode.ConcurrencyLimitExceeded,
    });
    expect(git(repoDir, 'branch', '--list', 'workspace/c/*')).toBe('');
    await expect(manager.acquire('a', { fresh: true })).resolves.toMatchObject({ reused: true });
  });

  it('should merge through the workspace the caller already holds and clean it up', async () => {
    const manager = make();
    const workspace = await manager.acquire('task-1');
    await writeFile(join(workspace.path, 'result.txt'), 'done\n');

    const outcome = await manager.merge('task-1', 'Merge task-1', workspace);

    expect(outcome).toEqual({ merged: true, sha: git(repoDir, 'rev-parse', 'main'), conflicts: [] });
    await expect(readFile(join(repoDir, 'result.txt'), 'utf8')).resolves.toBe('done\n');
    expect(await exists(workspace.path)).toBe(false);
    expect(git(repoDir, 'branch', '--list', 'workspace/*')).toBe('');
  });

  it('should refuse to merge a held workspace whose directory is gone', async () => {
    const manager = make();
    const workspace = await manager.acquire('task-1');
    await rm(workspace.path, { recursive: true, force: true });

    await expect(manager.merge('task-1', 'Merge task-1', workspace)).rejects.toBeInstanceOf(NotFoundError);
    expect(git(repoDir, 'rev-list', '--count', 'main')).toBe('1');
  });

  it('should commit what is pending to the branch and remove the worktree when retiring', async () => {
    const manager = make();
    const workspace = await manager.acquire('task-1');
    await writeFile(join(workspace.path, 'draft.txt'), 'half done\n');

    await expect(manager.retire('task-1')).resolves.toBe(true);

    expect(await exists(workspace.path)).toBe(false);
    await expect(manager.active()).resolves.toEqual([]);
    expect(git(repoDir, 'show', `${workspace.branch}:draft.txt`)).toBe('half done');
    expect(git(repoDir, 'rev-list', '--count', 'main')).toBe('1');
    expect(await exists(join(repoDir, 'draft.txt'))).toBe(false);
  });

  it('should answer false when retiring a task without a worktree', async () => {
    await expect(make().retire('task-1')).resolves.toBe(false);
  });

  it('should pick up the retired branch again when the task acquires later', async () => {
    const manager = make();
    const first = await manager.acquire('task-1');
    await writeFile(join(first.path, 'draft.txt'), 'half done\n');
    await manager.retire('task-1');

    const again = await manager.acquire('task-1');

    expect(again).toMatchObject({ branch: first.branch, reused: true });
    await expect(readFile(join(again.path, 'draft.txt'), 'utf8')).resolves.toBe('half done\n');
  });

  it('should answer the merge commit when the base branch ref is packed', async () => {
    const manager = make();
    await manager.init();
    git(repoDir, 'pack-refs', '--all');
    const workspace = await manager.acquire('task-1');
    await writeFile(join(workspace.path, 'result.txt'), 'done\n');

    const outcome = await manager.merge('task-1', 'Merge task-1');

    expect(outcome.sha).toBe(git(repoDir, 'rev-parse', 'main'));
  });

  it('should merge work the task committed itself when nothing is left pending', async () => {
    const manager = make();
    const workspace = await manager.acquire('task-1');
    await writeFile(join(workspace.path, 'result.txt'), 'done\n');
    await manager.commitAll('task-1', 'Add the result', AUTHOR);

    const outcome = await manager.merge('task-1', 'Merge task-1');

    expect(outcome).toEqual({ merged: true, sha: git(repoDir, 'rev-parse', 'main'), conflicts: [] });
    await expect(readFile(join(repoDir, 'result.txt'), 'utf8')).resolves.toBe('done\n');
    expect(git(repoDir, 'log', '--format=%s').split('\n').sort()).toEqual([
      'Add the result',
      'Initialize workspace repository',
      'Merge task-1',
    ]);
  });

  it('should keep the worktree after a merge when cleanup is off', async () => {
    const manager = make({ cleanupOnMerge: false });
    const workspace = await manager.acquire('task-1');
    await writeFile(join(workspace.path, 'a.txt'), 'a\n');

    await expect(manager.merge('task-1', 'Merge')).resolves.toMatchObject({ merged: true });

    expect(await exists(workspace.path)).toBe(true);
  });

  it('should report conflicts, abort the merge and keep the losing branch when two tasks edit one file', async () => {
    const manager = make();
    const first = await manager.acquire('first');
    const second = await manager.acquire('second');
    await writeFile(join(first.path, 'shared.txt'), 'from first\n');
    await writeFile(join(second.path, 'shared.txt'), 'from second\n');

    await expect(manager.merge('first', 'Merge first')).resolves.toMatchObject({ merged: true });
    const outcome = await manager.merge('second', 'Merge second');

    expect(outcome).toEqual({ merged: false, sha: null, conflicts: ['shared.txt'] });
    expect(await exists(join(repoDir, '.git', 'MERGE_HEAD'))).toBe(false);
    expect(git(repoDir, 'status', '--porcelain')).toBe('');
    await expect(readFile(join(repoDir, 'shared.txt'), 'utf8')).resolves.toBe('from first\n');
    expect(git(repoDir, 'branch', '--list', second.branch)).toContain(second.branch);
    await expect(manager.active()).resolves.toEqual(['second']);
  });

  it('should serialise concurrent merges so that both land', async () => {
    const manager = make();
    const [a, b] = await Promise.all([manager.acquire('a'), manager.acquire('b')]);
    await writeFile(join(a.path, 'a.txt'), 'a\n');
    await writeFile(join(b.path, 'b.txt'), 'b\n');

    const outcomes = await Promise.all([manager.merge('a', 'Merge a'), manager.merge('b', 'Merge b')]);

    expect(outcomes.map((outcome) => outcome.merged)).toEqual([true, true]);
    expect(git(repoDir, 'log', '--merges', '--format=%s').split('\n').sort()).toEqual(['Merge a', 'Merge b']);
    expect(await exists(join(repoDir, 'a.txt'))).toBe(true);
    expect(await exists(join(repoDir, 'b.txt'))).toBe(true);
  });

  it('should release a workspace without changes when merging it', async () => {
    const manager = make();
    await manager.acquire('idle');

    await expect(manager.merge('idle', 'Merge idle')).resolves.toEqual({ merged: true, sha: null, conflicts: [] });
    await expect(manager.active()).resolves.toEqual([]);
  });

  it('should read the base checkout without creating a worktree or branch', async () => {
    const manager = make();
    const writer = await manager.acquire('writer');
    await writeFile(join(writer.path, 'merged.txt'), 'merged\n');
    await manager.merge('writer', 'Merge writer');

    const seen = await manager.readBase((root) => readFile(join(root, 'merged.txt'), 'utf8'));

    expect(seen).toBe('merged\n');
    await expect(manager.active()).resolves.toEqual([]);
    expect(git(repoDir, 'branch', '--list', 'workspace/*')).toBe('');
  });

  it('should hold reads of the base checkout until a running merge has finished', async () => {
    const manager = make();
    const writer = await manager.acquire('writer');
    await writeFile(join(writer.path, 'late.txt'), 'late\n');

    const merging = manager.merge('writer', 'Merge writer');
    await new Promise((done) => setImmediate(done)); // the merge has queued for the repository lock
    const seen = await manager.readBase((root) => readFile(join(root, 'late.txt'), 'utf8').catch(() => 'absent'));

    await expect(merging).resolves.toMatchObject({ merged: true });
    expect(seen).toBe('late\n');
  });

  it('should restore a checkout left mid-merge by a crash when starting', async () => {
    const first = make();
    const a = await first.acquire('a');
    const b = await first.acquire('b');
    await writeFile(join(a.path, 'shared.txt'), 'a\n');
    await writeFile(join(b.path, 'shared.txt'), 'b\n');
    await first.merge('a', 'Merge a');
    await first.commitAll('b', 'b', AUTHOR);
    // What a process killed in the middle of a conflicting merge leaves behind.
    expect(() =>
      git(repoDir, '-c', 'user.name=Crash', '-c', 'user.email=crash@test', 'merge', '-q', '--no-edit', b.branch),
    ).toThrow();
    expect(await exists(join(repoDir, '.git', 'MERGE_HEAD'))).toBe(true);

    await make().init();

    expect(await exists(join(repoDir, '.git', 'MERGE_HEAD'))).toBe(false);
    expect(git(repoDir, 'status', '--porcelain')).toBe('');
    await expect(readFile(join(repoDir, 'shared.txt'), 'utf8')).resolves.toBe('a\n');
  });

  it('should fail to merge a task without a workspace', async () => {
    await expect(make().merge('ghost', 'x')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('should remove worktree and branch when discarding, and tolerate absent ones', async () => {
    const manager = make();
    const workspace = await manager.acquire('task-1');
    await writeFile(join(workspace.path, 'draft.txt'), 'draft\n');

    await manager.discard('task-1');
    await manager.discard('task-1');
    await manager.discard('never-acquired');

    expect(await exists(workspace.path)).toBe(false);
    expect(git(repoDir, 'branch', '--list', 'workspace/*')).toBe('');
    expect(git(repoDir, 'worktree', 'list', '--porcelain')).not.toContain('task-1');
  });
});

describe(GitRunner.name, () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'synthorg-git-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('should ignore inherited GIT_* variables when running', async () => {
    git(dir, 'init', '-q');
    const runner = new GitRunner({ baseEnv: { ...process.env, GIT_DIR: join(dir, 'elsewhere') } });

    const top = await runner.run(['rev-parse', '--git-dir'], { cwd: dir });

    expect(top.trim()).toBe('.git');
    expect(sanitizedGitEnv({ GIT_INDEX_FILE: 'x', PATH: '/bin' })).toMatchObject({
      PATH: '/bin',
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
    });
    expect(sanitizedGitEnv({ GIT_INDEX_FILE: 'x' })).not.toHaveProperty('GIT_INDEX_FILE');
  });

  it('should throw the command, exit code and stderr when git fails', async () => {
    const runner = new GitRunner();

    const error: unknown = await runner.run(['rev-parse', '--verify', 'nope'], { cwd: dir }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(GitCommandError);
    expect(error).toMatchObject({
      command: 'git rev-parse --verify nope',
      exitCode: 128,
      stderr: expect.stringContaining('not a git repository'),
      code: ErrorCode.EngineError,
    });
  });

  it('should kill the command when it exceeds the timeout', async () => {
    const script = join(dir, 'slow-git');
    await writeFile(script, '#!/bin/sh\nexec sleep 5\n');
    await chmod(script, 0o755);
    const runner = new GitRunner({ binary: script, timeoutMs: 100 });

    await expect(runner.run(['status'], { cwd: dir })).rejects.toMatchObject({ timedOut: true, exitCode: null });
  });

  it('should report a missing binary as an error without an exit code', async () => {
    const runner = new GitRunner({ binary: join(dir, 'no-such-git') });

    await expect(runner.run(['status'], { cwd: dir })).rejects.toMatchObject({ exitCode: null, timedOut: false });
  });
});
