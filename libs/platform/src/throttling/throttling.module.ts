import { type DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';

import type { RequestWithActor } from '../auth/actor';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { DatabaseService } from '../persistence/database.service';

import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';

const MINUTE_MS = 60_000;

/**
 * Two windows: `default` (every route but health: per user when authenticated, per address
 * otherwise) and `auth` (login, setup, change-password only). Counters live in process memory on
 * SQLite and in a shared table on Postgres.
 */
@Module({})
export class ThrottlingModule {
  static forRoot(): DynamicModule {
    return {
      module: ThrottlingModule,
      imports: [
        ThrottlerModule.forRootAsync({
          inject: [APP_CONFIG, DatabaseService],
          useFactory: (config: AppConfig, database: DatabaseService) => {
            const limits = config.rateLimits;
            return {
              throttlers: [
                {
                  name: 'default',
                  ttl: MINUTE_MS,
                  limit: (context) =>
                    context.switchToHttp().getRequest<RequestWithActor>().actor
                      ? limits.authenticatedPerMinute
                      : limits.anonymousPerMinute,
                },
                {
                  name: 'auth',
                  ttl: MINUTE_MS,
                  // Applies only to @AuthRateLimited() routes (see AppThrottlerGuard).
                  limit: limits.authEndpointsPerMinute,
                },
              ],
              storage:
                config.persistence.backend === 'postgres'
                  ? new PostgresThrottlerStorage(() => database.dataSource)
                  : new MemoryThrottlerStorage(),
            };
          },
        }),
      ],
      exports: [ThrottlerModule],
    };
  }
}
