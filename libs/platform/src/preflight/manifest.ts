import type { BinaryRequirement } from './types';

/**
 * Every external binary the service itself runs. Binaries an adapter downloads on demand (tunnel CLIs)
 * are deliberately absent: they are not expected on PATH, so demanding them here would block startup.
 */
export const BINARY_MANIFEST: readonly BinaryRequirement[] = Object.freeze([
  Object.freeze({
    binary: 'git',
    package: 'git',
    subsystems: Object.freeze([
      'workspace provisioning on every task dispatch',
      'agent git tools (worktrees)',
      'project repositories',
    ]),
    // 2.48 added the relative-worktree-path config key; older gits silently ignore it and write
    // absolute worktree paths, which break as soon as a workspace is moved or mounted elsewhere.
    minVersion: '2.48',
  }),
  Object.freeze({
    binary: 'pg_dump',
    package: 'postgresql-client',
    subsystems: Object.freeze(['Postgres backup']),
    backends: Object.freeze(['postgres'] as const),
  }),
  Object.freeze({
    binary: 'pg_restore',
    package: 'postgresql-client',
    subsystems: Object.freeze(['Postgres restore']),
    backends: Object.freeze(['postgres'] as const),
  }),
]);
