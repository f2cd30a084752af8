import { type DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';

import type { RequestWithActor } from '../auth/actor';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';
import { DatabaseService } from '../persistence/database.service';

import { BatchedThrottlerStorage } from './batched-throttler.storage';
import { perMinuteLimits, rateLimitIdentity } from './identity-limits';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { PostgresCounterStore } from './postgres-counter.store';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { SplitThrottlerStorage } from './split-throttler.storage';

const MINUTE_MS = 60_000;
/** The window whose count stays exact across replicas (the spec's 10 a minute). */
const AUTH_WINDOW = 'auth';

/**
 * Three windows: `default` (every route but health: per user when authenticated, with a limit per
 * identity type, per address otherwise), `auth` (login, setup, change-password only) and `mcp` (the
 * service's MCP endpoint, per user, on top of `default`). On SQLite
 * the counters live in process memory. On Postgres the `auth` window counts exactly in a shared
 * row; the `default` window counts per replica and flushes its deltas in batches, so no request
 * waits on a row (see BatchedThrottlerStorage for the bound).
 */
@Module({})
export class ThrottlingModule {
  static forRoot(): DynamicModule {
    return {
      module: ThrottlingModule,
      imports: [
        ThrottlerModule.forRootAsync({
          inject: [APP_CONFIG, DatabaseService, LOGGING_RUNTIME],
          useFactory: (config: AppConfig, database: DatabaseService, logging: LoggingRuntime) => {
            const limits = config.rateLimits;
            const perMinute = perMinuteLimits(limits);
            return {
              throttlers: [
                {
                  name: 'default',
                  ttl: MINUTE_MS,
                  limit: (context) =>
                    perMinute[rateLimitIdentity(context.switchToHttp().getRequest<RequestWithActor>().actor)],
                },
                {
                  name: AUTH_WINDOW,
                  ttl: MINUTE_MS,
                  // Applies only to @AuthRateLimited() routes (see AppThrottlerGuard).
                  limit: limits.authEndpointsPerMinute,
                },
                {
                  name: 'mcp',
                  ttl: MINUTE_MS,
                  // Applies only to @McpRateLimited() routes, per user like the general window.
                  limit: limits.mcpPerMinute,
                },
              ],
              storage: storageFor(config, database, logging),
            };
          },
        }),
      ],
      exports: [ThrottlerModule],
    };
  }
}

function storageFor(config: AppConfig, database: DatabaseService, logging: LoggingRuntime): ThrottlerStorage {
  if (config.persistence.backend !== 'postgres') {
    return new MemoryThrottlerStorage();
  }
  const log = logging.forName('api');
  const batched = new BatchedThrottlerStorage(new PostgresCounterStore(() => database.dataSource), {
    onFlushError: (error) => log.warn({ err: error }, 'api.rate_limit.flush_failed'),
  });
  return new SplitThrottlerStorage(
    new PostgresThrottlerStorage(() => database.dataSource),
    new Set([AUTH_WINDOW]),
    batched,
  );
}
