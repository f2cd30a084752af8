import { mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { ErrorCode, NotFoundError, ValidationError } from '@app/domain';

import { boundStderr, GitCommandError, type GitIdentity, type GitRunner } from './git-runner';
import { taskBranchPrefix } from './workspace-naming';

/** A full commit id: SHA-1 or SHA-256. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

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

/** A worktree as git lists it. */
export interface WorktreeEntry {
  path: string;
  branch: string | null;
  prunable: boolean;
}

export interface WorkspaceGitOptions {
  /** The shared repository; its checked-out base branch receives the merges. */
  repoDir: string;
  /** Where the task worktrees live, one directory per task. */
  worktreesDir: string;
  baseBranch: string;
  git: GitRunner;
}

/**
 * The git commands the workspace manager is built from: the shared repository (its creation, its
 * checkout, refs and branches, merges into the base), its registered worktrees, and commits inside
 * a worktree. It takes no locks: the manager serialises the calls.
 */
export class WorkspaceGit {
  /** The shared repository's directory (its working tree is the base branch's checkout). */
  readonly dir: string;
  private readonly worktreesDir: string;
  private readonly baseBranch: string;
  private readonly git: GitRunner;
  private realWorktreesDir: string | null = null;
  /**
   * Set while a merge is writing the repository's checkout; a merge that did not finish cleanly
   * leaves it set, and the next merge restores the checkout first (startup always does).
   */
  private checkoutSuspect = true;

  constructor(options: WorkspaceGitOptions) {
    this.dir = options.repoDir;
    this.worktreesDir = options.worktreesDir;
    this.baseBranch = options.baseBranch;
    this.git = options.git;
  }

  /** The identity of commits the engine makes on its own account. */
  get identity(): Readonly<GitIdentity> {
    return this.git.identity;
  }

  /** Creates the repository if need be and tidies up what a crash may have left behind. */
  async initRepository(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await mkdir(this.worktreesDir, { recursive: true });
    this.realWorktreesDir = await realpath(this.worktreesDir);
    if (!(await pathExists(join(this.dir, '.git')))) {
      await this.run(['init', '-q', '-b', this.baseBranch]);
    }
    await this.run(['config', 'worktree.useRelativePaths', 'true']);
    if (!(await this.refExists('HEAD'))) {
      await this.run(['commit', '-q', '--allow-empty', '-m', 'Initialize workspace repository']);
    }
    if (!(await this.refExists(`refs/heads/${this.baseBranch}`))) {
      throw new ValidationError(
        `workspace repository has no branch ${this.baseBranch}`,
        ErrorCode.ConfigValidationError,
      );
    }
    await this.pruneWorktrees();
    await this.restoreCheckout();
    this.checkoutSuspect = false;
  }

  /** Registered worktrees under the worktrees directory, keyed by task id. */
  async listWorktrees(): Promise<Map<string, WorktreeEntry>> {
    const output = await this.run(['worktree', 'list', '--porcelain', '-z']);
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

  /** The branches of a task, by short name. */
  async taskBranches(taskId: string): Promise<string[]> {
    const output = await this.run([
      'for-each-ref',
      '--format=%(refname:strip=2)',
      `refs/heads/${taskBranchPrefix(taskId)}`,
    ]);
    return output.split('\n').filter((name) => name !== '');
  }

  /** A worktree at `path` on an existing branch. */
  async addWorktree(path: string, branch: string): Promise<void> {
    await this.run(['worktree', 'add', '-q', '--relative-paths', path, branch]);
  }

  /** A worktree at `path` on a new branch made from the base. */
  async addWorktreeOnNewBranch(path: string, branch: string): Promise<void> {
    await this.run(this.addOnNewBranchArgs(path, branch));
  }

  /**
   * As addWorktreeOnNewBranch, but answers false instead of throwing when git refuses the add (a
   * registration left without its directory): whatever the attempt made is taken back.
   */
  async tryAddWorktreeOnNewBranch(path: string, branch: string): Promise<boolean> {
    const result = await this.git.runResult(this.addOnNewBranchArgs(path, branch), { cwd: this.dir });
    if (result.exitCode === 0) {
      return true;
    }
    await rm(path, { recursive: true, force: true });
    if (await this.refExists(`refs/heads/${branch}`)) {
      await this.deleteBranches([branch]);
    }
    return false;
  }

  /** The worktree directory and git's record of it; the branch is left alone. */
  async removeWorktree(path: string, entry: WorktreeEntry | undefined): Promise<void> {
    if (entry && !entry.prunable) {
      // Removes the directory and git's record of it in one step.
      await this.run(['worktree', 'remove', '--force', path]);
    }
    await rm(path, { recursive: true, force: true });
    if (!entry || entry.prunable) {
      await this.pruneWorktrees();
    }
  }

  /** Drops git's records of worktrees whose directories are gone. */
  async pruneWorktrees(): Promise<void> {
    await this.run(['worktree', 'prune']);
  }

  async deleteBranches(branches: readonly string[]): Promise<void> {
    await this.run(['branch', '-q', '-D', ...branches]);
  }

  /** Uncommitted changes in a worktree (untracked files included, ignored ones not). */
  async hasChanges(path: string): Promise<boolean> {
    await this.assertWorktree(path);
    return (await this.git.run(['status', '--porcelain', '-z'], { cwd: path })) !== '';
  }

  /**
   * Stages everything in a worktree and commits it. `pending`: the merge's own commit of changes
   * `git status` has just shown, so something is almost surely staged: the commit is tried straight
   * away (the staged check runs only if it fails), and its id is not read back.
   */
  async commit(path: string, message: string, author: GitIdentity, pending = false): Promise<CommitOutcome> {
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

  /** Whether the branch has commits the base does not. */
  async isAhead(branch: string): Promise<boolean> {
    return Number((await this.run(['rev-list', '--count', `${this.baseBranch}..${branch}`])).trim()) > 0;
  }

  /**
   * Merges the branch into the base's checkout. A conflict is aborted and answered with the
   * conflicted paths; any other failure throws.
   */
  async mergeIntoBase(branch: string, message: string): Promise<MergeOutcome> {
    if (this.checkoutSuspect) {
      await this.restoreCheckout();
    }
    this.checkoutSuspect = true;
    const args = ['merge', '-q', '--no-ff', '--no-edit', '-m', message, branch];
    const result = await this.git.runResult(args, { cwd: this.dir });
    if (result.exitCode !== 0) {
      const conflicts = await this.conflictedPaths();
      if (await this.refExists('MERGE_HEAD')) {
        await this.run(['merge', '--abort']);
      }
      if (conflicts.length === 0) {
        throw new GitCommandError(`git merge ${branch}`, result.exitCode, boundStderr(result.stderr));
      }
      this.checkoutSuspect = false;
      return { merged: false, sha: null, conflicts };
    }
    this.checkoutSuspect = false;
    const sha = await this.baseHead();
    return { merged: true, sha, conflicts: [] };
  }

  /**
   * The repository's own working tree is only ever written by merges. A crash mid-merge can leave
   * MERGE_HEAD or conflict markers behind; they are thrown away so the next merge starts clean.
   */
  private async restoreCheckout(): Promise<void> {
    if (await this.refExists('MERGE_HEAD')) {
      await this.run(['merge', '--abort']);
    }
    const head = (await this.run(['symbolic-ref', '--short', 'HEAD'])).trim();
    if (head !== this.baseBranch) {
      await this.run(['checkout', '-q', '--force', this.baseBranch]);
    }
    if ((await this.run(['status', '--porcelain'])).trim() !== '') {
      await this.run(['reset', '-q', '--hard', 'HEAD']);
      await this.run(['clean', '-q', '-fd']);
    }
  }

  private async hasStaged(path: string): Promise<boolean> {
    const result = await this.git.runResult(['diff', '--cached', '--quiet'], { cwd: path });
    return result.exitCode !== 0;
  }

  private async conflictedPaths(): Promise<string[]> {
    const output = await this.run(['diff', '--name-only', '--diff-filter=U', '-z']);
    return [...new Set(output.split('\0').filter((name) => name !== ''))].sort();
  }

  private async assertWorktree(path: string): Promise<void> {
    if (!(await pathExists(join(path, '.git')))) {
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
      const sha = (await readFile(join(this.dir, '.git', 'refs', 'heads', this.baseBranch), 'utf8')).trim();
      if (OBJECT_ID.test(sha)) {
        return sha;
      }
    } catch {
      // not a loose ref: git knows
    }
    return (await this.run(['rev-parse', `refs/heads/${this.baseBranch}`])).trim();
  }

  private async refExists(ref: string): Promise<boolean> {
    const result = await this.git.runResult(['rev-parse', '-q', '--verify', ref], { cwd: this.dir });
    return result.exitCode === 0;
  }

  private addOnNewBranchArgs(path: string, branch: string): string[] {
    return ['worktree', 'add', '-q', '--relative-paths', '-b', branch, path, this.baseBranch];
  }

  /** git in the shared repository. */
  private run(args: readonly string[]): Promise<string> {
    return this.git.run(args, { cwd: this.dir });
  }
}

/** Whether anything exists at the path. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
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
