import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { ErrorCode, NotFoundError, RateLimitedError, ValidationError } from '@app/domain';
import { KeyedMutex } from '@app/platform';

import { type GitIdentity, GitRunner } from './git-runner';
import { type CommitOutcome, type MergeOutcome, pathExists, WorkspaceGit, type WorktreeEntry } from './workspace-git';
import { assertTaskId, isValidBranchName, newBranchName, taskBranchPrefix } from './workspace-naming';

export type { CommitOutcome, MergeOutcome } from './workspace-git';

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

/**
 * One git worktree per task, all sharing `<baseDir>/repo`, whose checked-out base branch receives the
 * finished work. Worktree metadata uses relative paths so the whole base directory can be moved or
 * mounted elsewhere (backup restore, a container volume) without breaking the links. This class
 * decides what happens to a task's worktree and when (locks, the worktree limit, clean-up); the git
 * commands themselves are WorkspaceGit's.
 */
export class WorkspaceManager {
  readonly baseDir: string;
  readonly baseBranch: string;
  private readonly worktreesDir: string;
  private readonly maxWorktrees: number;
  private readonly cleanupOnMerge: boolean;
  private readonly repo: WorkspaceGit;
  /**
   * Per task, and REPO_LOCK for the shared repository. Locks are always taken task-first, then the
   * repository lock, so two operations can never wait on each other in opposite orders.
   */
  private readonly locks = new KeyedMutex();
  private ready: Promise<void> | null = null;

  constructor(options: WorkspaceManagerOptions) {
    this.baseDir = resolve(options.baseDir);
    this.baseBranch = options.baseBranch ?? 'main';
    this.maxWorktrees = options.maxConcurrentWorktrees ?? 8;
    this.cleanupOnMerge = options.cleanupOnMerge ?? true;
    if (!isValidBranchName(this.baseBranch)) {
      throw new ValidationError(`invalid base branch name: ${this.baseBranch}`, ErrorCode.ConfigValidationError);
    }
    if (!Number.isInteger(this.maxWorktrees) || this.maxWorktrees < 1 || this.maxWorktrees > 32) {
      throw new ValidationError(
        'maxConcurrentWorktrees must be an integer from 1 to 32',
        ErrorCode.ConfigValidationError,
      );
    }
    this.worktreesDir = join(this.baseDir, 'worktrees');
    this.repo = new WorkspaceGit({
      repoDir: join(this.baseDir, 'repo'),
      worktreesDir: this.worktreesDir,
      baseBranch: this.baseBranch,
      git: new GitRunner({ binary: options.gitBinary, timeoutMs: options.commandTimeoutMs }),
    });
  }

  /** Creates the shared repository on first use; later calls only tidy up after a crash. */
  init(): Promise<void> {
    if (this.ready === null) {
      const attempt = this.locks.run(REPO_LOCK, () => this.repo.initRepository());
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
    const entries = await this.repo.listWorktrees();
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
    return this.locks.runShared(REPO_LOCK, () => read(this.repo.dir));
  }

  async commitAll(taskId: string, message: string, author: GitIdentity): Promise<CommitOutcome> {
    const path = this.pathOf(taskId);
    await this.init();
    return this.locks.run(taskId, () => this.repo.commit(path, message, author));
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

  private async acquireLocked(taskId: string, path: string, fresh: boolean): Promise<Workspace> {
    if (fresh && !(await pathExists(path))) {
      const added = await this.addFresh(taskId, path);
      if (added) {
        return added;
      }
    }
    const entries = await this.repo.listWorktrees();
    const current = entries.get(taskId);
    if (current && !current.prunable && current.branch !== null && (await pathExists(join(path, '.git')))) {
      return { taskId, path, branch: current.branch, reused: true };
    }
    // Leftovers of an interrupted `worktree add` or a deleted directory: drop them, keep the branch.
    if (current) {
      await rm(path, { recursive: true, force: true });
      await this.repo.pruneWorktrees();
    } else if (await pathExists(path)) {
      await rm(path, { recursive: true, force: true });
    }
    this.assertBelowLimit([...entries].filter(([id, entry]) => id !== taskId && !entry.prunable).length);
    const [existing] = fresh ? [] : await this.repo.taskBranches(taskId);
    if (existing !== undefined) {
      await this.repo.addWorktree(path, existing);
      return { taskId, path, branch: existing, reused: true };
    }
    const branch = newBranchName(taskId);
    await this.repo.addWorktreeOnNewBranch(path, branch);
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
    if (await this.repo.tryAddWorktreeOnNewBranch(path, branch)) {
      return { taskId, path, branch, reused: false };
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

  private async mergeLocked(
    taskId: string,
    path: string,
    message: string,
    known: WorktreeEntry | null,
  ): Promise<MergeOutcome> {
    // hasChanges below checks that the known worktree is still there.
    const entry = known ?? (await this.repo.listWorktrees()).get(taskId);
    if (!entry || entry.prunable || entry.branch === null) {
      throw new NotFoundError(`no workspace for task ${taskId}`, ErrorCode.WorkspaceNotFound);
    }
    // A pending commit just made puts the branch ahead of the base; otherwise ask git.
    const pending = (await this.repo.hasChanges(path))
      ? await this.repo.commit(path, `Pending changes of task ${taskId}`, this.repo.identity, true)
      : null;
    const ahead = pending?.committed ? true : await this.repo.isAhead(entry.branch);
    if (!ahead) {
      // Nothing to bring back: the base checkout is not touched.
      await this.cleanupAfterMerge(taskId, path, entry);
      return { merged: true, sha: null, conflicts: [] };
    }
    const outcome = await this.repo.mergeIntoBase(entry.branch, message);
    if (outcome.merged) {
      await this.cleanupAfterMerge(taskId, path, entry);
    }
    return outcome;
  }

  private async cleanupAfterMerge(taskId: string, path: string, entry: WorktreeEntry): Promise<void> {
    if (this.cleanupOnMerge) {
      await this.removeLocked(taskId, path, entry);
    }
  }

  /** `known`: the task's worktree entry when the caller has just listed it. */
  private async removeLocked(taskId: string, path: string, known?: WorktreeEntry): Promise<void> {
    const entry = known ?? (await this.repo.listWorktrees()).get(taskId);
    await this.repo.removeWorktree(path, entry);
    // A task has one branch (acquire reuses it); only without the entry is the ref store searched.
    const own = entry?.branch?.startsWith(taskBranchPrefix(taskId)) ? entry.branch : null;
    const branches = own ? [own] : await this.repo.taskBranches(taskId);
    if (branches.length > 0) {
      await this.repo.deleteBranches(branches);
    }
  }

  private async retireLocked(taskId: string, path: string): Promise<boolean> {
    const entry = (await this.repo.listWorktrees()).get(taskId);
    if (!entry) {
      return false;
    }
    if (!entry.prunable && (await pathExists(join(path, '.git'))) && (await this.repo.hasChanges(path))) {
      await this.repo.commit(path, `Work left in the workspace of task ${taskId}`, this.repo.identity, true);
    }
    await this.repo.removeWorktree(path, entry);
    return true;
  }
}
