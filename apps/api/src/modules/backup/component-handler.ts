import type { BackupComponent } from '@app/domain';

/** One component of a backup: how it is written, checked before a restore, and restored. */
export interface ComponentHandler {
  readonly component: BackupComponent;
  /** Writes the component under `dir` (the backup's directory). */
  backup(dir: string): Promise<void>;
  /** Checks the component's files under `dir` can be restored here; throws naming what is wrong. */
  validateSource(dir: string): Promise<void>;
  /** Restores the component from `dir` atomically: on failure nothing of it has changed. */
  restore(dir: string): Promise<void>;
}
