import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type BackupComponent,
  BackupManifestError,
  type BackupManifest,
  BackupNotFoundError,
  BackupRestoreFailedError,
  ErrorCode,
  isBackupId,
  ValidationError,
} from '@app/domain';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AuditTrail } from '../audit';
import { checksumDirectory } from './backup-archive';
import { BackupComponentUnavailableError } from './backup-component.errors';
import { BackupService } from './backup.service';
import { BackupStore } from './backup.store';
import type { ComponentHandler } from './component-handler';
import { RestoreRelay } from './restore.relay';

export interface RestoreCommand {
  backupId: string;
  /** null: every component in the manifest. */
  components: BackupComponent[] | null;
  confirm: boolean;
  /** Who asked: recorded in the audit trail. */
  actor?: string;
}

export interface RestoreOutcome {
  manifest: BackupManifest;
  restoredComponents: BackupComponent[];
  safetyBackupId: string;
  /** True when something restored takes effect only at the next start (the configuration file, a failed reinitialisation). */
  restartRequired: boolean;
}

/**
 * Restore, the interface's seven steps in order: validate the id; load and validate the manifest;
 * recompute and compare the checksum; validate the sources; take a `pre_migration` safety backup;
 * restore each component atomically, rolling back on failure; answer with the safety backup's id.
 * Nothing is changed before step 6, so a refused backup leaves the service exactly as it was.
 */
@Injectable()
export class RestoreUseCase {
  private readonly log: Logger;

  constructor(
    private readonly backups: BackupService,
    private readonly store: BackupStore,
    private readonly relay: RestoreRelay,
    private readonly trail: AuditTrail,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('backup');
  }

  async execute(command: RestoreCommand): Promise<RestoreOutcome> {
    if (!command.confirm) {
      throw new ValidationError(
        'A restore replaces live data: send "confirm": true',
        ErrorCode.BackupRestoreNotConfirmed,
      );
    }
    const actor = command.actor ?? 'system';
    const target = `backup:${command.backupId.slice(0, 64)}`;
    let outcome: RestoreOutcome;
    try {
      outcome = await this.backups.exclusive(() => this.restore(command));
    } catch (error) {
      // A refused or failed restore changed nothing (or was rolled back): the trail says so.
      await this.trail.record({
        actor,
        action: 'backup.restored',
        target,
        outcome: 'failure',
        details: { components: command.components, error: (error as Error).message },
      });
      throw error;
    }
    // Written into the restored database, so the trail after a restore is the backed-up chain plus this row.
    await this.trail.record({
      actor,
      action: 'backup.restored',
      target,
      outcome: 'success',
      details: {
        components: outcome.restoredComponents,
        safety_backup_id: outcome.safetyBackupId,
        restart_required: outcome.restartRequired,
      },
    });
    return outcome;
  }

  private async restore(command: RestoreCommand): Promise<RestoreOutcome> {
    // 1. The id.
    if (!isBackupId(command.backupId)) {
      throw new BackupNotFoundError(command.backupId);
    }
    // 2. The manifest, loaded and structurally validated.
    const backup = await this.store.find(command.backupId);
    if (!backup) {
      throw new BackupNotFoundError(command.backupId);
    }
    const { manifest } = backup;
    const unpacked = await this.store.unpack(backup);
    try {
      // 3. The checksum, recomputed over the files.
      const { checksum } = await checksumDirectory(unpacked.dir);
      if (checksum !== manifest.checksum) {
        throw new BackupManifestError(
          `Backup ${manifest.backup_id}: checksum mismatch (manifest ${manifest.checksum}, files ${checksum}); nothing was restored`,
        );
      }
      // 4. The sources of the components asked for.
      const handlers = this.handlersFor(manifest, command.components);
      for (const handler of handlers) {
        await handler.validateSource(unpacked.dir);
      }
      // 5. The safety backup of what is about to be replaced.
      const safety = await this.backups.createUnlocked('pre_migration');
      // 6. Each component, atomically; a failure rolls the earlier ones back from the safety backup.
      await this.restoreAll(handlers, unpacked.dir, safety.location);
      const restored = handlers.map((h) => h.component);
      this.log.info(
        { backup_id: manifest.backup_id, components: restored, safety_backup_id: safety.manifest.backup_id },
        'backup.restore.completed',
      );
      // Every replica drops its caches and reinitialises; a restart is required only where that cannot work.
      const restartRequired = await this.relay.restored(manifest.backup_id, restored);
      // 7. The answer, with the safety backup's id.
      return { manifest, restoredComponents: restored, safetyBackupId: safety.manifest.backup_id, restartRequired };
    } finally {
      await unpacked.cleanup();
    }
  }

  private handlersFor(manifest: BackupManifest, requested: BackupComponent[] | null): ComponentHandler[] {
    const wanted = requested ?? manifest.components;
    return [...new Set(wanted)].map((component) => {
      if (!manifest.components.includes(component)) {
        throw new ValidationError(
          `Backup ${manifest.backup_id} holds no "${component}" component (it holds ${manifest.components.join(', ')})`,
          ErrorCode.BackupComponentNotInBackup,
        );
      }
      const handler = this.backups.handlerFor(component);
      if (!handler) {
        throw new BackupComponentUnavailableError(`The "${component}" component cannot be restored on this service`);
      }
      return handler;
    });
  }

  private async restoreAll(handlers: ComponentHandler[], dir: string, safetyDir: string): Promise<void> {
    const done: ComponentHandler[] = [];
    for (const handler of handlers) {
      try {
        await handler.restore(dir);
        done.push(handler);
      } catch (error) {
        this.log.error({ component: handler.component, err: error }, 'backup.restore.component_failed');
        for (const restored of done.reverse()) {
          await restored.restore(safetyDir).catch((rollbackError: unknown) => {
            this.log.error({ component: restored.component, err: rollbackError }, 'backup.restore.rollback_failed');
          });
        }
        throw new BackupRestoreFailedError(
          `Restoring "${handler.component}" failed; the components restored before it were rolled back`,
          error,
        );
      }
    }
  }
}
