import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  alwaysUncompressed,
  type BackupComponent,
  BackupInProgressError,
  type BackupManifest,
  BackupNotFoundError,
  type BackupTrigger,
  hasRoomForBackup,
  isBackupId,
  selectForPruning,
  SERVICE_VERSION,
} from '@app/domain';
import { DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AuditTrail } from '../audit';
import { SettingsSnapshot } from '../settings';

import { checksumDirectory } from './backup-archive';
import { BackupInsufficientSpaceError } from './backup-component.errors';
import { BackupStore, type StoredBackup } from './backup.store';
import type { ComponentHandler } from './component-handler';
import { ConfigComponent } from './config.component';
import { MemoryComponent } from './memory.component';
import { PersistenceComponent } from './persistence.component';

/** The lock every backup, restore and delete takes, on this replica and across replicas. */
export const BACKUP_LOCK = 'backup';

const MIB = 1024 * 1024;

/**
 * Backups: create (with retention after it), list, read and delete. Create, delete and restore
 * exclude each other across replicas; a second one answers 409 (4009) instead of waiting.
 */
@Injectable()
export class BackupService {
  private readonly log: Logger;

  constructor(
    private readonly store: BackupStore,
    private readonly lock: DistributedLock,
    private readonly settings: SettingsSnapshot,
    private readonly persistence: PersistenceComponent,
    private readonly configFile: ConfigComponent,
    private readonly memory: MemoryComponent,
    private readonly trail: AuditTrail,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('backup');
  }

  /** Takes a backup under the lock; 409 while another backup, restore or delete runs. */
  create(trigger: BackupTrigger, actor = 'system'): Promise<BackupManifest> {
    return this.exclusive(async () => (await this.createUnlocked(trigger, actor)).manifest);
  }

  /** Runs `fn` holding the backup lock, or refuses with 409 when someone else holds it. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = await this.lock.tryRunExclusive(BACKUP_LOCK, fn);
    if (!result.ran) {
      throw new BackupInProgressError();
    }
    return result.value;
  }

  /** Backups, newest first. */
  async list(): Promise<StoredBackup[]> {
    return this.store.all();
  }

  /** One backup; a malformed id is not found like an unknown one. */
  async getOrThrow(id: string): Promise<StoredBackup> {
    const found = isBackupId(id) ? await this.store.find(id) : null;
    if (!found) {
      throw new BackupNotFoundError(id);
    }
    return found;
  }

  async delete(id: string, actor = 'system'): Promise<void> {
    const backup = await this.getOrThrow(id);
    await this.exclusive(async () => {
      await this.store.remove(backup);
      this.log.info({ backup_id: id }, 'backup.backup.deleted');
    });
    await this.trail.record({ actor, action: 'backup.deleted', target: `backup:${id}`, outcome: 'success' });
  }

  /**
   * Takes a backup; the caller holds the lock. Refused when free space at the target is below twice
   * the last backup. Retention runs after it (never for the safety backup a restore takes first).
   */
  async createUnlocked(trigger: BackupTrigger, actor = 'system'): Promise<StoredBackup> {
    const started = Date.now();
    const existing = await this.store.all();
    const free = await this.store.freeBytes();
    const last = existing[0]?.manifest.size_bytes ?? null;
    if (!hasRoomForBackup(free, last)) {
      const error = new BackupInsufficientSpaceError(free, 2 * (last ?? 0));
      this.log.error({ trigger, free_bytes: free, last_backup_bytes: last }, 'backup.space.insufficient');
      throw error;
    }
    const id = randomUUID().replaceAll('-', '').slice(0, 12);
    const staging = await this.store.stage(id);
    try {
      const handlers = this.handlers();
      for (const handler of handlers) {
        await handler.backup(staging);
      }
      const { checksum, sizeBytes } = await checksumDirectory(staging);
      const manifest: BackupManifest = {
        synthorg_version: SERVICE_VERSION,
        timestamp: new Date().toISOString(),
        trigger,
        components: handlers.map((h) => h.component),
        size_bytes: sizeBytes,
        checksum,
        backup_id: id,
      };
      const compress = !alwaysUncompressed(trigger) && this.settings.value<boolean>('backup', 'compression');
      const stored = await this.store.commit(staging, manifest, compress);
      this.log.info(
        { backup_id: id, trigger, size_bytes: sizeBytes, compressed: compress, duration_ms: Date.now() - started },
        'backup.backup.created',
      );
      await this.trail.record({
        actor,
        action: 'backup.created',
        target: `backup:${id}`,
        outcome: 'success',
        details: { trigger, components: manifest.components, size_bytes: sizeBytes, compressed: compress },
      });
      if (trigger !== 'pre_migration') {
        await this.applyRetention();
      }
      return stored;
    } catch (error) {
      await this.store.discard(staging);
      this.log.error({ backup_id: id, trigger, err: error }, 'backup.backup.failed');
      await this.trail.record({
        actor,
        action: 'backup.created',
        target: `backup:${id}`,
        outcome: 'failure',
        details: { trigger, error: (error as Error).message },
      });
      throw error;
    }
  }

  /**
   * The handler of each component this service can back up now, in restore order: the database,
   * agent memory (its entries and organisation facts, restorable on their own), and the
   * configuration file when the service started from one.
   */
  handlers(): ComponentHandler[] {
    const handlers: ComponentHandler[] = [this.persistence, this.memory];
    return this.configFile.present ? [...handlers, this.configFile] : handlers;
  }

  handlerFor(component: BackupComponent): ComponentHandler | null {
    return this.handlers().find((h) => h.component === component) ?? null;
  }

  private async applyRetention(): Promise<void> {
    const backups = await this.store.all();
    const maxMb = this.settings.value<number>('backup', 'max_total_mb');
    const doomed = selectForPruning(
      backups.map((b) => ({
        id: b.manifest.backup_id,
        timestamp: b.manifest.timestamp,
        trigger: b.manifest.trigger,
        sizeBytes: b.manifest.size_bytes,
      })),
      {
        maxCount: this.settings.value<number>('backup', 'max_count'),
        maxAgeDays: this.settings.value<number>('backup', 'max_age_days'),
        maxTotalBytes: maxMb > 0 ? maxMb * MIB : null,
      },
      new Date(),
    );
    for (const backup of backups.filter((b) => doomed.includes(b.manifest.backup_id))) {
      await this.store.remove(backup);
      this.log.info({ backup_id: backup.manifest.backup_id }, 'backup.retention.pruned');
    }
  }
}
