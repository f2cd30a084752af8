import { BackupManifestError } from './backup.errors';

/** A backup id: twelve lower-case hex digits (a UUID's first twelve). */
export const BACKUP_ID_PATTERN = /^[0-9a-f]{12}$/;

/** The manifest's checksum: `sha256:` and 64 hex digits. */
export const BACKUP_CHECKSUM_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The file at the root of every backup that describes it. */
export const MANIFEST_FILE = 'manifest.json';

/** What started a backup (wire values). */
export const BackupTrigger = {
  Scheduled: 'scheduled',
  Manual: 'manual',
  Shutdown: 'shutdown',
  Startup: 'startup',
  PreMigration: 'pre_migration',
} as const;
export type BackupTrigger = (typeof BackupTrigger)[keyof typeof BackupTrigger];
export const BACKUP_TRIGGERS: readonly BackupTrigger[] = Object.values(BackupTrigger);

/** What a backup holds (wire values). */
export const BackupComponent = {
  Persistence: 'persistence',
  Memory: 'memory',
  Config: 'config',
} as const;
export type BackupComponent = (typeof BackupComponent)[keyof typeof BackupComponent];
export const BACKUP_COMPONENTS: readonly BackupComponent[] = Object.values(BackupComponent);

/** The manifest as stored in `manifest.json` (its wire shape, snake_case). */
export interface BackupManifest {
  synthorg_version: string;
  /** ISO 8601, UTC. */
  timestamp: string;
  trigger: BackupTrigger;
  components: BackupComponent[];
  size_bytes: number;
  checksum: string;
  backup_id: string;
}

export function isBackupId(value: string): boolean {
  return BACKUP_ID_PATTERN.test(value);
}

/** Backups of these triggers are never compressed: they must be fast and restorable as they are. */
export function alwaysUncompressed(trigger: BackupTrigger): boolean {
  return trigger === BackupTrigger.Shutdown || trigger === BackupTrigger.PreMigration;
}

/** The name of a backup's directory (or, with `.tar.gz`, its archive) under the backup path. */
export function backupEntryName(id: string, trigger: BackupTrigger): string {
  return `${id}_${trigger}`;
}

/** Reads `<id>_<trigger>[.tar.gz]`; null for anything else in the backup directory. */
export function parseBackupEntryName(name: string): { id: string; trigger: BackupTrigger; compressed: boolean } | null {
  const compressed = name.endsWith('.tar.gz');
  const stem = compressed ? name.slice(0, -'.tar.gz'.length) : name;
  const separator = stem.indexOf('_');
  const id = stem.slice(0, separator);
  const trigger = stem.slice(separator + 1);
  if (separator < 0 || !isBackupId(id) || !(BACKUP_TRIGGERS as readonly string[]).includes(trigger)) {
    return null;
  }
  return { id, trigger: trigger as BackupTrigger, compressed };
}

/**
 * Structural validation of a parsed `manifest.json`: every field present and of its type, the id,
 * trigger, components and checksum well formed. `expectedId` is the id the manifest was found under.
 * @throws BackupManifestError naming the first field that is wrong.
 */
export function parseBackupManifest(raw: unknown, expectedId: string): BackupManifest {
  const fail = (problem: string): never => {
    throw new BackupManifestError(`Backup ${expectedId}: manifest ${problem}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail('is not a JSON object');
  }
  const m = raw as Record<string, unknown>;
  const text = (key: string): string => {
    const value = m[key];
    return typeof value === 'string' && value.length > 0 ? value : fail(`field "${key}" must be a non-empty string`);
  };
  const backupId = text('backup_id');
  if (backupId !== expectedId) {
    fail(`field "backup_id" is "${backupId}", not the backup's id`);
  }
  const timestamp = text('timestamp');
  if (Number.isNaN(Date.parse(timestamp))) {
    fail('field "timestamp" is not an ISO 8601 time');
  }
  const trigger = text('trigger');
  if (!(BACKUP_TRIGGERS as readonly string[]).includes(trigger)) {
    fail(`field "trigger" must be one of ${BACKUP_TRIGGERS.join(', ')}`);
  }
  const components = m.components;
  if (
    !Array.isArray(components) ||
    components.length === 0 ||
    !components.every((c) => (BACKUP_COMPONENTS as readonly unknown[]).includes(c)) ||
    new Set(components).size !== components.length
  ) {
    fail(`field "components" must be a non-empty list of distinct values of ${BACKUP_COMPONENTS.join(', ')}`);
  }
  const size = m.size_bytes;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    fail('field "size_bytes" must be a non-negative integer');
  }
  const checksum = text('checksum');
  if (!BACKUP_CHECKSUM_PATTERN.test(checksum)) {
    fail('field "checksum" must be "sha256:" followed by 64 hex digits');
  }
  return {
    synthorg_version: text('synthorg_version'),
    timestamp,
    trigger: trigger as BackupTrigger,
    components: components as BackupComponent[],
    size_bytes: size as number,
    checksum,
    backup_id: backupId,
  };
}
