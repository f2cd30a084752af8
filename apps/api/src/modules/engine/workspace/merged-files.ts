import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';

import { GitRunner } from './git-runner';

/** A task's merge into the base branch: its commit and the files it added or changed there. */
export interface TaskMerge {
  sha: string;
  paths: string[];
}

const OBJECT_ID = /^[0-9a-f]{40,64}$/;

/** Notes kept at most, and for how long: each is read once, right after the task completes. */
const MAX_NOTES = 1024;
const NOTE_TTL_MS = 60_000;

/**
 * Read-only access to what completed tasks merged into the shared repository's base branch: the
 * merge commit the engine made for a task (`Merge <task id>: …`), the paths it added or modified,
 * and a file's content as of that commit. Objects are immutable, so reads need no lock.
 */
export class MergedFiles {
  private readonly repoDir: string;
  private readonly git = new GitRunner();
  /**
   * What this process's engine did with a task's workspace as the run completed: the merge commit,
   * or null when nothing was merged (no workspace, or nothing ahead of the base). Completion and its
   * merge happen in one process, before the completed event; so the reader of that event learns
   * here, without searching the base branch's history in a git process, that a text-only task
   * merged nothing.
   */
  private readonly notes = new Map<string, { sha: string | null; at: number }>();

  constructor(
    workspaceDir: string,
    private readonly baseBranch = 'main',
  ) {
    this.repoDir = join(resolve(workspaceDir), 'repo');
  }

  /** Notes the outcome of a completing run's merge (the engine calls it before the task completes). */
  note(taskId: string, sha: string | null): void {
    if (this.notes.size >= MAX_NOTES) {
      const oldest = this.notes.keys().next().value;
      if (oldest !== undefined) {
        this.notes.delete(oldest);
      }
    }
    this.notes.delete(taskId);
    this.notes.set(taskId, { sha, at: Date.now() });
  }

  /** The task's latest merge and its added or modified paths, or null when it merged nothing. */
  async ofTask(taskId: string): Promise<TaskMerge | null> {
    const noted = this.notes.get(taskId);
    this.notes.delete(taskId);
    if (noted !== undefined && Date.now() - noted.at <= NOTE_TTL_MS) {
      return noted.sha === null ? null : this.changedBy(noted.sha);
    }
    const found = await this.git.runResult(
      [
        'log',
        '--merges',
        '--first-parent',
        '-n',
        '1',
        '--format=%H',
        '--fixed-strings',
        `--grep=Merge ${taskId}:`,
        `refs/heads/${this.baseBranch}`,
        '--',
      ],
      { cwd: this.repoDir },
    );
    const sha = found.exitCode === 0 ? found.stdout.trim() : '';
    return OBJECT_ID.test(sha) ? this.changedBy(sha) : null;
  }

  private async changedBy(sha: string): Promise<TaskMerge> {
    const diff = await this.git.run(
      ['diff', '--name-only', '--no-renames', '--diff-filter=AM', '-z', `${sha}^1`, sha, '--'],
      { cwd: this.repoDir },
    );
    return { sha, paths: diff.split('\0').filter((path) => path.length > 0) };
  }

  /** A file's bytes as of a commit. */
  read(sha: string, path: string): Readable {
    return this.git.stream(['cat-file', 'blob', `${sha}:${path}`], { cwd: this.repoDir });
  }
}
