import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

import { DatabaseService, DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SettingsSnapshot } from '../settings';
import { AuditTrail } from './audit-trail';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

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
    private readonly settings: SettingsSnapshot,
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
    const days = this.settings.value<number>('security', 'audit_retention_days');
    if (
      this.database.state !== 'ready' ||
      days <= 0 ||
      this.settings.value<boolean>('security', 'retention_cleanup_paused')
    ) {
      return 0;
    }
    try {
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
