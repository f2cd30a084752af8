import { randomBytes } from 'node:crypto';

import { ErrorCode, ValidationError } from '@app/domain';

const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
// A branch name is passed to git as an argument: a leading '-' would read as an option.
const BRANCH_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/;
const BRANCH_PREFIX = 'workspace';

/** Whether a configured base branch name is one git may be handed as an argument. */
export function isValidBranchName(name: string): boolean {
  return BRANCH_NAME.test(name) && !name.includes('..');
}

/** Refuses a task id that cannot name a worktree directory and a ref component. */
export function assertTaskId(taskId: string): void {
  // The id becomes a directory and a ref component, so git's ref rules ('..', '.lock') apply too.
  if (!TASK_ID.test(taskId) || taskId.includes('..') || taskId.endsWith('.lock')) {
    throw new ValidationError(
      `invalid task id for a workspace: ${JSON.stringify(taskId.slice(0, 140))}`,
      ErrorCode.WorkspaceArgumentInvalid,
    );
  }
}

/** The ref namespace under which every branch of the task lies (with a trailing slash). */
export function taskBranchPrefix(taskId: string): string {
  return `${BRANCH_PREFIX}/${taskId}/`;
}

/** A task's branch: under the task's own prefix, with a random suffix no earlier branch has. */
export function newBranchName(taskId: string): string {
  return `${taskBranchPrefix(taskId)}${randomBytes(4).toString('hex')}`;
}
