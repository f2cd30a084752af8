import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  DatabaseService,
  DistributedLock,
  flagSetting,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  type SettingKey,
  SettingsStore,
} from '@app/platform';

import { AuditTrail } from './audit-trail';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// Read through the platform's settings store (every tier resolved), so that the settings module,
// which records its changes in the trail, is not a dependency of the trail's own module.
const RETENTION_DAYS: SettingKey<number> = {
  namespace: 'security',
  key: 'audit_retention_days',
  encode: String,
  decode: Number,
};
const CLEANUP_PAUSED = flagSetting('security', 'retention_cleanup_paused');

/**
 * Prunes audit rows older than `security.audit_retention_days` once an hour, on one replica at a
 * time, unless `security.retention_cleanup_paused` is on. A retention of 0 days keeps everything.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log: Logger;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly trail: AuditTrail,
    private readonly settings: SettingsStore,
    private readonly database: DatabaseService,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('audit.retention');
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(new Date()), HOUR_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    if (this.timer) {
      clearInterval(this.timer);
    }
  }

  /** One retention pass at `now`; answers how many rows went. */
  async run(now: Date): Promise<number> {
    if (this.database.state !== 'ready') {
      return 0;
    }
    try {
      const days = (await this.settings.get(RETENTION_DAYS)) ?? 0;
      if (!(days > 0) || (await this.settings.get(CLEANUP_PAUSED)) === true) {
        return 0;
      }
      const result = await this.lock.tryRunExclusive('audit.retention', () =>
        this.trail.prune(new Date(now.getTime() - days * DAY_MS)),
      );
      return result.ran ? result.value : 0;
    } catch (error) {
      this.log.error({ err: error }, 'audit.retention.failed');
      return 0;
    }
  }
}
