import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Logger } from 'pino';

import { BackupInProgressError, type BackupTrigger } from '@app/domain';
import { APP_CONFIG, type AppConfig, LOGGING_RUNTIME, type LoggingRuntime, StartupResumeHooks } from '@app/platform';

import { SettingsSnapshot } from '../settings';

import { BackupService } from './backup.service';

const HOUR_MS = 3_600_000;

/**
 * Scheduled backups every `schedule_hours` while `enabled`, and at startup and shutdown when those
 * are on. Changes of `enabled` and `schedule_hours` apply live on every replica (the settings bus
 * feeds the snapshot); each run takes the backup lock without waiting, so when replicas fire together
 * one backs up and the others skip.
 */
@Injectable()
export class BackupScheduler implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private readonly unwatch: Array<() => void> = [];
  private readonly log: Logger;
  private stopped = false;
  /** Milliseconds per scheduled hour (tests shorten it). */
  hourMs = HOUR_MS;

  constructor(
    private readonly backups: BackupService,
    private readonly settings: SettingsSnapshot,
    private readonly startup: StartupResumeHooks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('backup');
  }

  onModuleInit(): void {
    this.unwatch.push(
      this.settings.watch('backup', 'enabled', () => this.reschedule()),
      this.settings.watch('backup', 'schedule_hours', () => this.reschedule()),
    );
    this.startup.register({
      name: 'backup.startup',
      run: () => {
        this.reschedule();
        if (this.enabled && this.settings.value<boolean>('backup', 'on_startup')) {
          // In the background: startup never waits for a backup.
          void this.run('startup');
        }
        return Promise.resolve();
      },
    });
  }

  get enabled(): boolean {
    return this.settings.value<boolean>('backup', 'enabled');
  }

  /** Whether a scheduled run is pending (for tests and health). */
  get scheduled(): boolean {
    return this.timer !== null;
  }

  /** Restarts the timer from the current settings; stops it when backups are disabled. */
  reschedule(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    if (this.stopped || !this.enabled) {
      return;
    }
    const hours = this.settings.value<number>('backup', 'schedule_hours');
    this.timer = setInterval(() => void this.run('scheduled'), hours * this.hourMs);
    this.timer.unref();
    this.log.info({ schedule_hours: hours }, 'backup.schedule.set');
  }

  /** One backup of `trigger`; skipped when another backup, restore or delete holds the lock. */
  async run(trigger: BackupTrigger): Promise<void> {
    try {
      await this.backups.create(trigger);
    } catch (error) {
      if (error instanceof BackupInProgressError) {
        this.log.info({ trigger }, 'backup.run.skipped');
        return;
      }
      this.log.error({ trigger, err: error }, 'backup.run.failed');
    }
  }

  /** The shutdown backup runs while persistence is still open, bounded by the shutdown grace. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopTimer();
    if (!this.enabled || !this.settings.value<boolean>('backup', 'on_shutdown')) {
      return;
    }
    const graceMs = this.config.server.shutdownGraceSeconds * 1000;
    let timeout: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timeout = setTimeout(() => resolve('expired'), graceMs);
    });
    const outcome = await Promise.race([this.run('shutdown').then(() => 'done' as const), expired]);
    clearTimeout(timeout);
    if (outcome === 'expired') {
      this.log.error({ grace_seconds: graceMs / 1000 }, 'backup.shutdown.timed_out');
    }
  }

  onApplicationShutdown(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    this.stopped = true;
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    for (const stop of this.unwatch.splice(0)) {
      stop();
    }
  }
}
