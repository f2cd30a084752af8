import { type DynamicModule, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';

import type { RequestWithActor } from '../auth/actor';
import { AUTH_RATE_LIMITED } from '../auth/require-permission.decorator';
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
          inject: [APP_CONFIG, DatabaseService, Reflector],
          useFactory: (config: AppConfig, database: DatabaseService, reflector: Reflector) => {
            const limits = config.rateLimits;
            // Whether a handler is one of the rate-limited authentication routes is fixed at build time.
            const authRoutes = new WeakMap<object, boolean>();
            const isAuthRoute = (handler: object): boolean => {
              let known = authRoutes.get(handler);
              if (known === undefined) {
                known = reflector.get<boolean | undefined>(AUTH_RATE_LIMITED, handler as () => unknown) === true;
                authRoutes.set(handler, known);
              }
              return known;
            };
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
                  limit: limits.authEndpointsPerMinute,
                  skipIf: (context) => !isAuthRoute(context.getHandler()),
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
