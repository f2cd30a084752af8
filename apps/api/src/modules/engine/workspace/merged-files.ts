import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';

import { GitRunner } from './git-runner';

/** A task's merge into the base branch: its commit and the files it added or changed there. */
export interface TaskMerge {
  sha: string;
  paths: string[];
}

const OBJECT_ID = /^[0-9a-f]{40,64}$/;

/**
 * Read-only access to what completed tasks merged into the shared repository's base branch: the
 * merge commit the engine made for a task (`Merge <task id>: …`), the paths it added or modified,
 * and a file's content as of that commit. Objects are immutable, so reads need no lock.
 */
export class MergedFiles {
  private readonly repoDir: string;
  private readonly git = new GitRunner();

  constructor(
    workspaceDir: string,
    private readonly baseBranch = 'main',
  ) {
    this.repoDir = join(resolve(workspaceDir), 'repo');
  }

  /** The task's latest merge and its added or modified paths, or null when it merged nothing. */
  async ofTask(taskId: string): Promise<TaskMerge | null> {
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
    if (!OBJECT_ID.test(sha)) {
      return null;
    }
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
