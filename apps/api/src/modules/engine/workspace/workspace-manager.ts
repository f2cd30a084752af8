import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

import { ErrorCode, NotFoundError, RateLimitedError, ValidationError } from '@app/domain';
import { KeyedMutex } from '@app/platform';

import { boundStderr, GitCommandError, type GitIdentity, GitRunner } from './git-runner';

const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
// A branch name is passed to git as an argument: a leading '-' would read as an option.
const BRANCH_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/;
const BRANCH_PREFIX = 'workspace';
/** A full commit id: SHA-1 or SHA-256. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const LIMIT_RETRY_AFTER_SEC = 30;
const REPO_LOCK = '\0repo';

export interface WorkspaceManagerOptions {
  baseDir: string;
  gitBinary?: string;
  baseBranch?: string;
  maxConcurrentWorktrees?: number;
  cleanupOnMerge?: boolean;
  commandTimeoutMs?: number;
}

export interface Workspace {
  taskId: string;
  path: string;
  branch: string;
  reused: boolean;
}

export interface CommitOutcome {
  committed: boolean;
  sha: string | null;
}

export interface MergeOutcome {
  merged: boolean;
  /** The merge commit; null when nothing was merged (conflict, or the branch had no changes). */
  sha: string | null;
  conflicts: string[];
}

interface WorktreeEntry {
  path: string;
  branch: string | null;
  prunable: boolean;
}

/**
 * One git worktree per task, all sharing `<baseDir>/repo`, whose checked-out base branch receives the
 * finished work. Worktree metadata uses relative paths so the whole base directory can be moved or
 * mounted elsewhere (backup restore, a container volume) without breaking the links.
 */
export class WorkspaceManager {
  readonly baseDir: string;
  readonly baseBranch: string;
  private readonly repoDir: string;
  private readonly worktreesDir: string;
  private readonly maxWorktrees: number;
  private readonly cleanupOnMerge: boolean;
  private readonly git: GitRunner;
  /**
   * Per task, and REPO_LOCK for the shared repository. Locks are always taken task-first, then the
   * repository lock, so two operations can never wait on each other in opposite orders.
   */
  private readonly locks = new KeyedMutex();
  private ready: Promise<void> | null = null;
  private realWorktreesDir: string | null = null;
  /**
   * Set while a merge is writing the repository's checkout; a merge that did not finish cleanly
   * leaves it set, and the next merge restores the checkout first (startup always does).
   */
  private checkoutSuspect = true;

  constructor(options: WorkspaceManagerOptions) {
    this.baseDir = resolve(options.baseDir);
    this.baseBranch = options.baseBranch ?? 'main';
    this.maxWorktrees = options.maxConcurrentWorktrees ?? 8;
    this.cleanupOnMerge = options.cleanupOnMerge ?? true;
    if (!BRANCH_NAME.test(this.baseBranch) || this.baseBranch.includes('..')) {
      throw new ValidationError(`invalid base branch name: ${this.baseBranch}`, ErrorCode.ConfigValidationError);
    }
    if (!Number.isInteger(this.maxWorktrees) || this.maxWorktrees < 1 || this.maxWorktrees > 32) {
      throw new ValidationError(
        'maxConcurrentWorktrees must be an integer from 1 to 32',
        ErrorCode.ConfigValidationError,
      );
    }
    this.repoDir = join(this.baseDir, 'repo');
    this.worktreesDir = join(this.baseDir, 'worktrees');
    this.git = new GitRunner({ binary: options.gitBinary, timeoutMs: options.commandTimeoutMs });
  }

  /** Creates the shared repository on first use; later calls only tidy up after a crash. */
  init(): Promise<void> {
    if (this.ready === null) {
      const attempt = this.locks.run(REPO_LOCK, () => this.initRepository());
      this.ready = attempt;
      // A failed init (disk full, git missing) must not stay cached: the next call tries again.
      attempt.catch(() => {
        if (this.ready === attempt) {
          this.ready = null;
        }
      });
    }
    return this.ready;
  }

  pathOf(taskId: string): string {
    assertTaskId(taskId);
    return join(this.worktreesDir, taskId);
  }

  /** Task ids that currently have a worktree. */
  async active(): Promise<string[]> {
    await this.init();
    const entries = await this.listWorktrees();
    return [...entries].filter(([, entry]) => !entry.prunable).map(([taskId]) => taskId);
  }

  /**
   * The task's worktree, created on its branch if need be. `fresh`: the caller knows no earlier run
   * of the task can have left a branch behind (its first run), so the refs are not searched for one.
   */
  async acquire(taskId: string, options: { fresh?: boolean } = {}): Promise<Workspace> {
    const path = this.pathOf(taskId);
    await this.init();
    return this.locks.run(taskId, () =>
      this.locks.run(REPO_LOCK, () => this.acquireLocked(taskId, path, options.fresh === true)),
    );
  }

  /**
   * Runs `read` against the base branch's checkout (the repository's own working tree), for a task
   * that has written nothing yet and so needs no worktree of its own. Merges write that checkout, so
   * the read holds the repository lock, shared with other reads: it sees the base before a merge or
   * after it, never halfway, and reads of many tasks run side by side. `read` must not change any file.
   */
  async readBase<T>(read: (root: string) => Promise<T>): Promise<T> {
    await this.init();
    return this.locks.runShared(REPO_LOCK, () => read(this.repoDir));
  }

  async commitAll(taskId: string, message: string, author: GitIdentity): Promise<CommitOutcome> {
    const path = this.pathOf(taskId);
    await this.init();
    return this.locks.run(taskId, () => this.commitLocked(path, message, author));
  }

  /**
   * Commits what is pending, merges the task branch into the base and (by default) removes the
   * worktree and the branch. `known`: the workspace as acquire answered it in this run, so git's
   * worktree list is not read again.
   */
  async merge(taskId: string, message: string, known?: Workspace): Promise<MergeOutcome> {
    const path = this.pathOf(taskId);
    await this.init();
    const entry =
      known?.taskId === taskId && known.path === path ? { path, branch: known.branch, prunable: false } : null;
    return this.locks.run(taskId, () =>
      this.locks.run(REPO_LOCK, () => this.mergeLocked(taskId, path, message, entry)),
    );
  }

  /**
   * Takes the worktree of a task that will not run again (completed, cancelled, deleted) off disk,
   * keeping its branch: uncommitted work is committed to the branch first, so nothing is lost, and
   * the worktree stops counting against the limit. Answers whether there was a worktree.
   */
  async retire(taskId: string): Promise<boolean> {
    const path = this.pathOf(taskId);
    await this.init();
    return this.locks.run(taskId, () => this.locks.run(REPO_LOCK, () => this.retireLocked(taskId, path)));
  }

  async discard(taskId: string): Promise<void> {
    const path = this.pathOf(taskId);
    await this.init();
    await this.locks.run(taskId, () => this.locks.run(REPO_LOCK, () => this.removeLocked(taskId, path)));
  }

  private async initRepository(): Promise<void> {
    await mkdir(this.repoDir, { recursive: true });
    await mkdir(this.worktreesDir, { recursive: true });
    this.realWorktreesDir = await realpath(this.worktreesDir);
    if (!(await exists(join(this.repoDir, '.git')))) {
      await this.repo(['init', '-q', '-b', this.baseBranch]);
    }
    await this.repo(['config', 'worktree.useRelativePaths', 'true']);
    if (!(await this.refExists('HEAD'))) {
      await this.repo(['commit', '-q', '--allow-empty', '-m', 'Initialize workspace repository']);
    }
    if (!(await this.refExists(`refs/heads/${this.baseBranch}`))) {
      throw new ValidationError(
        `workspace repository has no branch ${this.baseBranch}`,
        ErrorCode.ConfigValidationError,
      );
    }
    await this.repo(['worktree', 'prune']);
    await this.restoreRepoCheckout();
    this.checkoutSuspect = false;
  }

  /**
   * The repository's own working tree is only ever written by merges. A crash mid-merge can leave
   * MERGE_HEAD or conflict markers behind; they are thrown away so the next merge starts clean.
   */
  private async restoreRepoCheckout(): Promise<void> {
    if (await this.refExists('MERGE_HEAD')) {
      await this.repo(['merge', '--abort']);
    }
    const head = (await this.repo(['symbolic-ref', '--short', 'HEAD'])).trim();
    if (head !== this.baseBranch) {
      await this.repo(['checkout', '-q', '--force', this.baseBranch]);
    }
    if ((await this.repo(['status', '--porcelain'])).trim() !== '') {
      await this.repo(['reset', '-q', '--hard', 'HEAD']);
      await this.repo(['clean', '-q', '-fd']);
    }
  }

  private async acquireLocked(taskId: string, path: string, fresh: boolean): Promise<Workspace> {
    if (fresh && !(await exists(path))) {
      const added = await this.addFresh(taskId, path);
      if (added) {
        return added;
      }
    }
    const entries = await this.listWorktrees();
    const current = entries.get(taskId);
    if (current && !current.prunable && current.branch !== null && (await exists(join(path, '.git')))) {
      return { taskId, path, branch: current.branch, reused: true };
    }
    // Leftovers of an interrupted `worktree add` or a deleted directory: drop them, keep the branch.
    if (current) {
      await rm(path, { recursive: true, force: true });
      await this.repo(['worktree', 'prune']);
    } else if (await exists(path)) {
      await rm(path, { recursive: true, force: true });
    }
    this.assertBelowLimit([...entries].filter(([id, entry]) => id !== taskId && !entry.prunable).length);
    const [existing] = fresh ? [] : await this.taskBranches(taskId);
    if (existing !== undefined) {
      await this.repo(['worktree', 'add', '-q', '--relative-paths', path, existing]);
      return { taskId, path, branch: existing, reused: true };
    }
    const branch = newBranchName(taskId);
    await this.repo(['worktree', 'add', '-q', '--relative-paths', '-b', branch, path, this.baseBranch]);
    return { taskId, path, branch, reused: false };
  }

  /**
   * A task's first worktree when nothing of it is on disk, without reading git's worktree list (a
   * git process): the worktrees in use are the other directories under `worktrees/`, and the task
   * gets a new branch. Null when git refuses the add (a registration left without its directory):
   * whatever the attempt made is taken back, and the full path tidies up and adds again.
   */
  private async addFresh(taskId: string, path: string): Promise<Workspace | null> {
    const dirs = await readdir(this.worktreesDir, { withFileTypes: true }).catch(() => null);
    if (dirs === null) {
      return null; // the directory itself is gone: the full path recreates it
    }
    this.assertBelowLimit(dirs.filter((dir) => dir.isDirectory() && dir.name !== taskId).length);
    const branch = newBranchName(taskId);
    const args = ['worktree', 'add', '-q', '--relative-paths', '-b', branch, path, this.baseBranch];
    const result = await this.git.runResult(args, { cwd: this.repoDir });
    if (result.exitCode === 0) {
      return { taskId, path, branch, reused: false };
    }
    await rm(path, { recursive: true, force: true });
    if (await this.refExists(`refs/heads/${branch}`)) {
      await this.repo(['branch', '-q', '-D', branch]);
    }
    return null;
  }

  private assertBelowLimit(live: number): void {
    if (live >= this.maxWorktrees) {
      throw new RateLimitedError(
        `workspace limit reached: ${live} of ${this.maxWorktrees} worktrees are in use`,
        LIMIT_RETRY_AFTER_SEC,
        ErrorCode.ConcurrencyLimitExceeded,
      );
    }
  }

  /**
   * Stages everything and commits it. `pending`: the merge's own commit of changes `git status` has
   * just shown, so something is almost surely staged: the commit is tried straight away (the staged
   * check runs only if it fails), and its id is not read back.
   */
  private async commitLocked(
    path: string,
    message: string,
    author: GitIdentity,
    pending = false,
  ): Promise<CommitOutcome> {
    await this.assertWorktree(path);
    if (message.trim() === '') {
      throw new ValidationError('commit message must not be empty', ErrorCode.WorkspaceArgumentInvalid);
    }
    await this.git.run(['add', '-A'], { cwd: path });
    if (!pending && !(await this.hasStaged(path))) {
      return { committed: false, sha: null };
    }
    const env = {
      GIT_AUTHOR_NAME: cleanIdent(author.name) || this.git.identity.name,
      GIT_AUTHOR_EMAIL: cleanIdent(author.email) || this.git.identity.email,
    };
    const args = ['commit', '-q', '--no-verify', '--cleanup=whitespace', '-m', message];
    const result = await this.git.runResult(args, { cwd: path, env });
    if (result.exitCode !== 0) {
      // A change status lists but `add` does not stage (a submodule's own edits): nothing to commit.
      if (pending && !(await this.hasStaged(path))) {
        return { committed: false, sha: null };
      }
      throw new GitCommandError('git commit', result.exitCode, boundStderr(result.stderr));
    }
    const sha = pending ? null : (await this.git.run(['rev-parse', 'HEAD'], { cwd: path })).trim();
    return { committed: true, sha };
  }

  private async hasStaged(path: string): Promise<boolean> {
    const result = await this.git.runResult(['diff', '--cached', '--quiet'], { cwd: path });
    return result.exitCode !== 0;
  }

  private async mergeLocked(
    taskId: string,
    path: string,
    message: string,
    known: WorktreeEntry | null,
  ): Promise<MergeOutcome> {
    // hasChanges below checks that the known worktree is still there.
    const entry = known ?? (await this.listWorktrees()).get(taskId);
    if (!entry || entry.prunable || entry.branch === null) {
      throw new NotFoundError(`no workspace for task ${taskId}`, ErrorCode.WorkspaceNotFound);
    }
    // A pending commit just made puts the branch ahead of the base; otherwise ask git.
    const pending = (await this.hasChanges(path))
      ? await this.commitLocked(path, `Pending changes of task ${taskId}`, this.git.identity, true)
      : null;
    const ahead = pending?.committed
      ? true
      : Number((await this.repo(['rev-list', '--count', `${this.baseBranch}..${entry.branch}`])).trim()) > 0;
    if (!ahead) {
      // Nothing to bring back: the base checkout is not touched.
      await this.cleanupAfterMerge(taskId, path, entry);
      return { merged: true, sha: null, conflicts: [] };
    }
    if (this.checkoutSuspect) {
      await this.restoreRepoCheckout();
    }
    this.checkoutSuspect = true;
    const args = ['merge', '-q', '--no-ff', '--no-edit', '-m', message, entry.branch];
    const result = await this.git.runResult(args, { cwd: this.repoDir });
    if (result.exitCode !== 0) {
      const conflicts = await this.conflictedPaths();
      if (await this.refExists('MERGE_HEAD')) {
        await this.repo(['merge', '--abort']);
      }
      if (conflicts.length === 0) {
        throw new GitCommandError(`git merge ${entry.branch}`, result.exitCode, boundStderr(result.stderr));
      }
      this.checkoutSuspect = false;
      return { merged: false, sha: null, conflicts };
    }
    this.checkoutSuspect = false;
    const sha = await this.baseHead();
    await this.cleanupAfterMerge(taskId, path, entry);
    return { merged: true, sha, conflicts: [] };
  }

  private async cleanupAfterMerge(taskId: string, path: string, entry: WorktreeEntry): Promise<void> {
    if (this.cleanupOnMerge) {
      await this.removeLocked(taskId, path, entry);
    }
  }

  /** `known`: the task's worktree entry when the caller has just listed it. */
  private async removeLocked(taskId: string, path: string, known?: WorktreeEntry): Promise<void> {
    const entry = known ?? (await this.listWorktrees()).get(taskId);
    await this.removeWorktree(path, entry);
    // A task has one branch (acquire reuses it); only without the entry is the ref store searched.
    const own = entry?.branch?.startsWith(`${BRANCH_PREFIX}/${taskId}/`) ? entry.branch : null;
    const branches = own ? [own] : await this.taskBranches(taskId);
    if (branches.length > 0) {
      await this.repo(['branch', '-q', '-D', ...branches]);
    }
  }

  private async retireLocked(taskId: string, path: string): Promise<boolean> {
    const entry = (await this.listWorktrees()).get(taskId);
    if (!entry) {
      return false;
    }
    if (!entry.prunable && (await exists(join(path, '.git'))) && (await this.hasChanges(path))) {
      await this.commitLocked(path, `Work left in the workspace of task ${taskId}`, this.git.identity, true);
    }
    await this.removeWorktree(path, entry);
    return true;
  }

  /** The worktree directory and git's record of it; the branch is left alone. */
  private async removeWorktree(path: string, entry: WorktreeEntry | undefined): Promise<void> {
    if (entry && !entry.prunable) {
      // Removes the directory and git's record of it in one step.
      await this.repo(['worktree', 'remove', '--force', path]);
    }
    await rm(path, { recursive: true, force: true });
    if (!entry || entry.prunable) {
      await this.repo(['worktree', 'prune']);
    }
  }

  /** Uncommitted changes in a worktree (untracked files included, ignored ones not). */
  private async hasChanges(path: string): Promise<boolean> {
    await this.assertWorktree(path);
    return (await this.git.run(['status', '--porcelain', '-z'], { cwd: path })) !== '';
  }

  private async conflictedPaths(): Promise<string[]> {
    const output = await this.repo(['diff', '--name-only', '--diff-filter=U', '-z']);
    return [...new Set(output.split('\0').filter((name) => name !== ''))].sort();
  }

  private async taskBranches(taskId: string): Promise<string[]> {
    const output = await this.repo([
      'for-each-ref',
      '--format=%(refname:strip=2)',
      `refs/heads/${BRANCH_PREFIX}/${taskId}/`,
    ]);
    return output.split('\n').filter((name) => name !== '');
  }

  /** Registered worktrees under `<baseDir>/worktrees`, keyed by task id. */
  private async listWorktrees(): Promise<Map<string, WorktreeEntry>> {
    const output = await this.repo(['worktree', 'list', '--porcelain', '-z']);
    const entries = new Map<string, WorktreeEntry>();
    for (const record of output.split('\0\0')) {
      const entry = parseWorktreeRecord(record);
      // git prints real paths; the configured base directory may be reached through a symlink.
      const parent = entry ? dirname(entry.path) : null;
      if (entry && (parent === this.worktreesDir || parent === this.realWorktreesDir)) {
        entries.set(basename(entry.path), entry);
      }
    }
    return entries;
  }

  private async assertWorktree(path: string): Promise<void> {
    if (!(await exists(join(path, '.git')))) {
      throw new NotFoundError(`no workspace at ${basename(path)}`, ErrorCode.WorkspaceNotFound);
    }
  }

  /**
   * The base branch's commit id, read from its ref file (no git process): a merge has just written
   * it, so it is a loose ref. Anything else (packed refs, the reftable format, an odd content) asks
   * git.
   */
  private async baseHead(): Promise<string> {
    try {
      const sha = (await readFile(join(this.repoDir, '.git', 'refs', 'heads', this.baseBranch), 'utf8')).trim();
      if (OBJECT_ID.test(sha)) {
        return sha;
      }
    } catch {
      // not a loose ref: git knows
    }
    return (await this.repo(['rev-parse', `refs/heads/${this.baseBranch}`])).trim();
  }

  private async refExists(ref: string): Promise<boolean> {
    const result = await this.git.runResult(['rev-parse', '-q', '--verify', ref], { cwd: this.repoDir });
    return result.exitCode === 0;
  }

  private repo(args: readonly string[]): Promise<string> {
    return this.git.run(args, { cwd: this.repoDir });
  }
}

function assertTaskId(taskId: string): void {
  // The id becomes a directory and a ref component, so git's ref rules ('..', '.lock') apply too.
  if (!TASK_ID.test(taskId) || taskId.includes('..') || taskId.endsWith('.lock')) {
    throw new ValidationError(
      `invalid task id for a workspace: ${JSON.stringify(taskId.slice(0, 140))}`,
      ErrorCode.WorkspaceArgumentInvalid,
    );
  }
}

function parseWorktreeRecord(record: string): WorktreeEntry | null {
  const fields = record.split('\0').filter((field) => field !== '');
  const path = fields.find((field) => field.startsWith('worktree '))?.slice('worktree '.length);
  if (path === undefined) {
    return null;
  }
  const branchRef = fields.find((field) => field.startsWith('branch '))?.slice('branch '.length);
  return {
    path,
    branch: branchRef?.replace(/^refs\/heads\//, '') ?? null,
    prunable: fields.some((field) => field === 'prunable' || field.startsWith('prunable ')),
  };
}

// git strips these from identities anyway; removing them first keeps a hostile agent name from
// producing an empty ident (which git rejects) or from smuggling a NUL into the environment.
function cleanIdent(value: string): string {
  return value.replace(/[<>\0\r\n]/g, '').trim();
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A task's branch: under the task's own prefix, with a random suffix no earlier branch has. */
function newBranchName(taskId: string): string {
  return `${BRANCH_PREFIX}/${taskId}/${randomBytes(4).toString('hex')}`;
}
