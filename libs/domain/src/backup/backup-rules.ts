import { BackupTrigger } from './backup-manifest';

/** Why an archive entry may not be extracted, or null when it is a safe relative file or directory. */
export function unsafeArchiveEntry(path: string, type: string): string | null {
  if (type !== 'File' && type !== 'Directory' && type !== 'OldFile' && type !== 'ContiguousFile') {
    return `entry type ${type} (links and special files are never extracted)`;
  }
  if (path.length === 0) {
    return 'empty path';
  }
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) {
    return 'absolute path';
  }
  if (path.split(/[/\\]/).includes('..')) {
    return 'path climbs out with ".."';
  }
  if (path.includes('\0')) {
    return 'NUL in path';
  }
  return null;
}

/** What retention reads of a stored backup. */
export interface RetainedBackup {
  id: string;
  timestamp: string;
  trigger: BackupTrigger;
  sizeBytes: number;
}

export interface RetentionPolicy {
  maxCount: number;
  maxAgeDays: number;
  /** Total size of all backups; null for no cap. */
  maxTotalBytes: number | null;
}

const DAY_MS = 86_400_000;

/**
 * The ids retention removes: those older than `maxAgeDays`, then the oldest beyond `maxCount`, then the
 * oldest while the total exceeds the size cap. The newest backup and every `pre_migration` backup are
 * never removed (they count towards the count and the size all the same).
 */
export function selectForPruning(backups: readonly RetainedBackup[], policy: RetentionPolicy, now: Date): string[] {
  const newestFirst = [...backups].sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
  const newest = newestFirst[0];
  const prunable = (b: RetainedBackup): boolean => b !== newest && b.trigger !== BackupTrigger.PreMigration;
  const removed = new Set<string>();
  const oldestAllowed = now.getTime() - policy.maxAgeDays * DAY_MS;
  for (const backup of newestFirst) {
    if (prunable(backup) && Date.parse(backup.timestamp) < oldestAllowed) {
      removed.add(backup.id);
    }
  }
  const oldestFirst = [...newestFirst].reverse();
  let kept = newestFirst.filter((b) => !removed.has(b.id));
  for (const backup of oldestFirst) {
    if (kept.length <= policy.maxCount) {
      break;
    }
    if (prunable(backup) && !removed.has(backup.id)) {
      removed.add(backup.id);
      kept = kept.filter((b) => b.id !== backup.id);
    }
  }
  if (policy.maxTotalBytes !== null) {
    let total = kept.reduce((sum, b) => sum + b.sizeBytes, 0);
    for (const backup of oldestFirst) {
      if (total <= policy.maxTotalBytes) {
        break;
      }
      if (prunable(backup) && !removed.has(backup.id)) {
        removed.add(backup.id);
        total -= backup.sizeBytes;
      }
    }
  }
  return newestFirst.filter((b) => removed.has(b.id)).map((b) => b.id);
}

/** A backup may start only with at least twice the last backup's size free at the target. */
export function hasRoomForBackup(freeBytes: number, lastBackupBytes: number | null): boolean {
  return lastBackupBytes === null || freeBytes >= 2 * lastBackupBytes;
}
