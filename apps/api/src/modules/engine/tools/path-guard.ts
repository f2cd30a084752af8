import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep, win32 } from 'node:path';

import { ToolError } from '@app/domain';

/** True when `candidate` is `root` itself or lies below it (both already resolved). */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

// The repository metadata is off limits at any depth: writing hooks or config there would run code
// or rewrite history outside the agent's sandbox. Compared case-insensitively for macOS and Windows.
function touchesGitDir(rel: string): boolean {
  return rel.split(sep).some((segment) => segment.toLowerCase() === '.git');
}

/**
 * Resolves an agent-supplied relative path to an absolute path inside `root`, or throws ToolError.
 * Lexical checks come first; then the nearest existing ancestor is resolved through symlinks so a link
 * pointing outside the worktree (or into `.git`) cannot be used as a way out. The returned path is the
 * real location, so later file operations do not follow the link again.
 */
export async function resolveInside(root: string, relativePath: string): Promise<string> {
  if (relativePath.includes('\0')) {
    throw new ToolError('path must not contain NUL bytes');
  }
  if (isAbsolute(relativePath) || win32.isAbsolute(relativePath)) {
    throw new ToolError(`path must be relative to the workspace: ${relativePath}`);
  }
  const lexical = resolve(root, relativePath);
  const lexicalRel = relative(resolve(root), lexical);
  if (!isInside(resolve(root), lexical)) {
    throw new ToolError(`path escapes the workspace: ${relativePath}`);
  }
  if (touchesGitDir(lexicalRel)) {
    throw new ToolError(`path inside .git is not accessible: ${relativePath}`);
  }
  const realRoot = await realpath(root);
  const { existing, rest } = await nearestExisting(join(realRoot, lexicalRel), realRoot);
  const realExisting = await realpath(existing);
  if (!isInside(realRoot, realExisting)) {
    throw new ToolError(`path leaves the workspace through a symbolic link: ${relativePath}`);
  }
  const real = join(realExisting, ...rest);
  if (touchesGitDir(relative(realRoot, real))) {
    throw new ToolError(`path inside .git is not accessible: ${relativePath}`);
  }
  return real;
}

/** Walks up from `target` until a path exists; `rest` holds the missing segments, outermost first. */
async function nearestExisting(target: string, stopAt: string): Promise<{ existing: string; rest: string[] }> {
  const rest: string[] = [];
  let current = target;
  for (;;) {
    const kind = await lstat(current).then(
      (stats) => (stats.isSymbolicLink() ? 'link' : 'present'),
      () => 'missing' as const,
    );
    if (kind === 'link') {
      // A dangling link would let a later write create its target wherever it points.
      await realpath(current).catch(() => {
        throw new ToolError(`path is a dangling symbolic link: ${relative(stopAt, current)}`);
      });
    }
    if (kind !== 'missing' || current === stopAt) {
      return { existing: current, rest };
    }
    rest.unshift(basename(current));
    current = dirname(current);
  }
}
