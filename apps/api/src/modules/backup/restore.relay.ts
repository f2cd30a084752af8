import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { type BackupComponent, Channel } from '@app/domain';
import {
  announce,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ReinitialisationHooks,
  ReplicaLink,
  subscribeTo,
  SubsystemRegistry,
} from '@app/platform';

/**
 * What a restore reinitialises: the provider registry and the runtime (queued work). The agent
 * bootstrap is left out: it writes model assignments, and a restore must not alter restored data.
 */
const RESTORE_HOOKS = ['providers.reload', 'engine.rebuild'];

/** The health entry that says whether a restore left something for the next start. */
export const BACKUP_SUBSYSTEM = 'backup';

/**
 * After a restore the database holds other rows than every replica's caches (settings, sessions,
 * counts, the provider registry, agents). The restoring replica announces it on the bus; each replica
 * (this one included) then drops what its caches hold, as after a lost link to the other replicas, and
 * reloads the providers and rebuilds the runtime. When that fails,
 * or a restored component is read only at startup, `/health` says a restart is required.
 */
@Injectable()
export class RestoreRelay implements OnModuleInit, OnApplicationShutdown {
  private readonly log: Logger;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly bus: EventBus,
    private readonly link: ReplicaLink,
    private readonly hooks: ReinitialisationHooks,
    private readonly registry: SubsystemRegistry,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('backup');
  }

  onModuleInit(): void {
    this.registry.markWired(BACKUP_SUBSYSTEM);
    this.unsubscribe = subscribeTo(this.bus, Channel.Backup, (event) => {
      if (event.origin === 'remote' && event.event_type === 'backup.restored') {
        void this.refresh(event.payload.backup_id);
      }
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  /** Tells every replica about a finished restore and refreshes this one; true when a restart is still required. */
  async restored(backupId: string, components: BackupComponent[]): Promise<boolean> {
    await announce(this.bus, this.log, {
      channel: Channel.Backup,
      event_type: 'backup.restored',
      payload: { backup_id: backupId, components },
    });
    const refreshed = await this.refresh(backupId);
    if (components.includes('config')) {
      this.restartRequired('the restored configuration file takes effect at the next start');
      return true;
    }
    return !refreshed;
  }

  /** Drops cached state and reinitialises; false (and a restart required) when that failed. */
  private async refresh(backupId: string): Promise<boolean> {
    this.link.set(false);
    this.link.set(true);
    try {
      const ran = await this.hooks.runOnly(RESTORE_HOOKS);
      this.log.info({ backup_id: backupId, hooks: ran }, 'backup.restore.reinitialised');
      return true;
    } catch (error) {
      this.log.error({ backup_id: backupId, err: error }, 'backup.restore.reinitialise_failed');
      this.restartRequired('reinitialisation after a restore failed; restart the service');
      return false;
    }
  }

  private restartRequired(reason: string): void {
    this.registry.markWired(BACKUP_SUBSYSTEM, `restart required: ${reason}`);
  }
}
